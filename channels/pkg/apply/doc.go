/*
Copyright 2026 The kops addon operators Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Package apply puts a bootstrap channel's addons on a cluster, in three phases. ReadChannel reads
// and checks the channel and every manifest before anything else. plan reads the cluster (records,
// live objects, the server's version) and says what each addon needs: apply, skip, take over, or
// nothing; it writes nothing. execute writes the plan: server-side applies each addon in an order
// that cannot race, prunes what left its manifest, records it on its namespace in kops's
// annotation format (channels/pkg/api), and retires addons that left the channel. The report
// prints one row per addon. A dry run is the plan and the report without execute, so it shows
// exactly what execute would be given.
package apply
