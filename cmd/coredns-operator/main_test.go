package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The flags are checked before any connection is attempted.
func TestRunRefusesBadFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"other watch namespace", []string{"--watch-namespace=default"}, "--watch-namespace=default: the operator manages CoreDNS in kube-system only"},
		{"bad facts", []string{`--cluster-facts={"memoryLimit":"lots"}`}, `invalid value "{\"memoryLimit\":\"lots\"}" for flag -cluster-facts: the CoreDNS facts are refused: memoryLimit: "lots" is not a quantity`},
		{"facts with a typo", []string{`--cluster-facts={"memoryLimits":"1Gi"}`}, `unknown field "memoryLimits"`},
		{"stray argument", []string{"--leader-elect=false", "extra"}, `unexpected arguments ["extra"]`},
		{"unknown flag", []string{"--metrics-bind-address=:8080"}, "flag provided but not defined: -metrics-bind-address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := run(tc.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
