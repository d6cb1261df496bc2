package kopscodecs

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzDecode feeds arbitrary bytes to the decoder: it must never panic, and whatever Cluster it
// accepts must encode, decode again, and encode to the same bytes (nothing lost, nothing invented).
func FuzzDecode(f *testing.F) {
	seed, err := os.ReadFile("testdata/kops-written-cluster.yaml")
	require.NoError(f, err)
	f.Add(seed)
	f.Add([]byte(minimalCluster))
	f.Add([]byte("apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata:\n  name: nodes\nspec:\n  minSize: 1\n  subnets: [a]\n"))
	f.Add([]byte("apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: x\nspec:\n  subnets:\n  - name: a\n    egress: nat-1\n  kubeDNS:\n    memoryLimit: 1Gi\n    tolerations: [{key: a, operator: Exists}]\n"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("a: &x [*x]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, _, err := Decode("fuzz.yaml", data, true)
		if err != nil {
			assert.NotEmpty(t, err.Error())
			return
		}
		for _, o := range objs {
			if o.Cluster == nil {
				continue
			}
			first, err := EncodeCluster(o.Cluster)
			require.NoError(t, err)
			again, _, err := Decode("again.yaml", first, false)
			require.NoError(t, err, "re-decoding our own output:\n%s", first)
			require.Len(t, again, 1)
			second, err := EncodeCluster(again[0].Cluster)
			require.NoError(t, err)
			assert.Equal(t, string(first), string(second))
		}
	})
}
