package s3env_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/cmd/internal/s3env"
	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// TestDefaultChainReachesS3: without S3_ACCESS_KEY_ID, the store signs with what the AWS default
// chain finds (environment keys, a profile of the shared files), and the real S3 server accepts
// it; a wrong key from the chain is refused, naming the action.
func TestDefaultChainReachesS3(t *testing.T) {
	srv := s3test.Shared(t)
	bucket := srv.NewBucket(t)
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".aws"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".aws", "credentials"), []byte(
		"[admin]\naws_access_key_id = "+s3test.AccessKey+"\naws_secret_access_key = "+s3test.SecretKey+"\n"+
			"[reader]\naws_access_key_id = "+s3test.ReadOnlyAccessKey+"\naws_secret_access_key = "+s3test.ReadOnlySecretKey+"\n"), 0o600))
	base := map[string]string{"S3_ENDPOINT": srv.Endpoint, "S3_REGION": s3test.Region, "HOME": home, "AWS_EC2_METADATA_DISABLED": "true"}
	with := func(extra map[string]string) map[string]string {
		env := map[string]string{}
		for k, v := range base {
			env[k] = v
		}
		for k, v := range extra {
			env[k] = v
		}
		return env
	}
	tests := []struct {
		name    string
		env     map[string]string
		wantErr error
	}{
		{"environment keys", with(map[string]string{"AWS_ACCESS_KEY_ID": s3test.AccessKey, "AWS_SECRET_ACCESS_KEY": s3test.SecretKey}), nil},
		{"profile", with(map[string]string{"AWS_PROFILE": "admin"}), nil},
		{"read-only profile", with(map[string]string{"AWS_PROFILE": "reader"}), s3store.ErrAccessDenied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := vfs.NewContext(nil).WithS3(s3store.New(s3env.Settings(tt.env))).ParsePath("s3://" + bucket + "/" + tt.name)
			require.NoError(t, err)
			err = p.Join("config").WriteFile([]byte("x"))
			if tt.wantErr != nil {
				assert.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			data, err := p.Join("config").ReadFile()
			require.NoError(t, err)
			assert.Equal(t, "x", string(data))
		})
	}
}
