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
		{"bad quantity", []string{"--coredns-memory-limit=lots"}, `invalid value "lots" for flag -coredns-memory-limit`},
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
