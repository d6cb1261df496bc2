package awscreds

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProcessEnvironmentIsTheChains: a credential_process sees the environment the chain was
// given, and nothing of the process's own, even when the chain was given none.
func TestProcessEnvironmentIsTheChains(t *testing.T) {
	t.Setenv("KOPS_TEST_PROCESS_VAR", "inherited")
	command := `printf '{"Version":1,"AccessKeyId":"%s","SecretAccessKey":"s"}' "${KOPS_TEST_PROCESS_VAR:-unset}"`
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"empty environment", map[string]string{}, "unset"},
		{"nil environment", nil, "unset"},
		{"given environment", map[string]string{"KOPS_TEST_PROCESS_VAR": "given"}, "given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &chain{env: tt.env}
			creds, err := c.process(command, "p")(context.Background())
			require.NoError(t, err)
			assert.Equal(t, tt.want, creds.AccessKeyID)
		})
	}
}
