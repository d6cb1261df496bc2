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

// Package tfverify checks a rendered terraform module by parsing it with HCL's own parser: every
// reference resolves and every data file is read. It is for tests: the terraform target checks
// its references from the Literals it was given, without parsing what it wrote again on every
// run; this is the independent check of the same rules on the bytes, as terraform will read them.
// Only tests import it.
package tfverify
