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

// Package startup times the shipped commands' start-up as a user meets it: a whole process per
// iteration, with the CPU it used, its peak memory and the time its packages took to initialise
// (GODEBUG=inittrace=1). The tests check each command runs and that the init trace is read; the
// figures are benchmarks (docs/performance.md), never limits asserted here.
package startup
