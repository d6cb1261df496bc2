package kubemanifest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

func TestDecodeStrict(t *testing.T) {
	objs, err := DecodeStrict([]byte("# a comment only\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: kube-system\ndata:\n  k: v\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ops\n"))
	require.NoError(t, err)
	require.Len(t, objs, 2)
	assert.Equal(t, "ConfigMap/kube-system/a", objs[0].Key())
	assert.Equal(t, "v", objs[0].Typed.(*corev1.ConfigMap).Data["k"])
	assert.Equal(t, "Namespace/ops", objs[1].Key())
}

func TestDecodeStrictRejects(t *testing.T) {
	cases := map[string]string{
		"unknown field":   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndatta: {}\n",
		"misplaced field": "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  clusterIP: 1.2.3.4\n",
		"unknown kind":    "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: a\n",
		"wrong type":      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: [1]\n",
		// The API server matches field names case-sensitively and would drop these.
		"field in another case":        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nData: {k: v}\n",
		"nested field in another case": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  templAte: {}\n",
		"field twice":                  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: {}\ndata: {}\n",
	}
	for name, input := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeStrict([]byte(input))
			assert.Error(t, err)
		})
	}
}
