package app

import "testing"

// BenchmarkDesiredObjects is the operator's CPU work per reconcile before any request: render,
// check the rendering against the policy's derivation, decode.
func BenchmarkDesiredObjects(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := desiredObjects(testSpec, DefaultFacts()); err != nil {
			b.Fatal(err)
		}
	}
}
