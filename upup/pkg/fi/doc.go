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

// Package fi is the task framework behind `kops update cluster`: model
// builders add Tasks to a ModelBuilderContext, BuildGraph orders them by
// their explicit dependencies, and Run plans every task and hands the
// resulting Change to a Target (dry run, direct, terraform).
//
// Dependencies are declared, never discovered by reflection, so the graph a
// reader sees in the code is the graph that runs; and nothing here exits or
// panics, so every problem reaches the user as an error naming the tasks.
package fi
