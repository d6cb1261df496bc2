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

package cloudup

import "testing"

// benchmarkTerraform is `kops update cluster --target terraform --out DIR` (no --yes) of a new
// cluster with extraGroups more node groups: the model, the terraform rendering, and the preview of
// --out and of the state store. Compare with BenchmarkUpdateClusterDryRunMinimal/200Groups (the
// plain dry run of the same cluster); the issue asks for within 2x, and < 0.5 s at 200 groups.
func benchmarkTerraform(b *testing.B, extraGroups int) {
	o := benchStore(b, extraGroups)
	o.Target = TargetTerraform
	o.OutDir = "memfs://bench-out/terraform"
	benchmarkDryRunOf(b, o)
}

func BenchmarkUpdateClusterTerraformMinimal(b *testing.B)   { benchmarkTerraform(b, 0) }
func BenchmarkUpdateClusterTerraform200Groups(b *testing.B) { benchmarkTerraform(b, 198) }
func BenchmarkUpdateClusterTerraform400Groups(b *testing.B) { benchmarkTerraform(b, 398) }

// BenchmarkUpdateClusterDryRun400Groups pairs with the terraform one for the linearity check.
func BenchmarkUpdateClusterDryRun400Groups(b *testing.B) { benchmarkDryRun(b, 398) }
