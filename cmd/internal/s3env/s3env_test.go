package s3env_test

import (
	"encoding/pem"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

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

// TestAWSSettingsTheStoreDoesNotFollow: AWS settings that moved the SDK's S3 requests elsewhere
// are refused with what to set instead, unless S3_ENDPOINT names the endpoint; none of them sends
// a request.
func TestAWSSettingsTheStoreDoesNotFollow(t *testing.T) {
	keys := map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret", "HOME": t.TempDir()}
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"AWS_ENDPOINT_URL_S3", map[string]string{"AWS_ENDPOINT_URL_S3": "http://user:pw@minio.local:9000/?x=1"}, "set S3_ENDPOINT=http://minio.local:9000/ (addressed path-style)"},
		{"AWS_ENDPOINT_URL", map[string]string{"AWS_ENDPOINT_URL": "http://localstack:4566"}, "set S3_ENDPOINT=http://localstack:4566"},
		{"FIPS", map[string]string{"AWS_USE_FIPS_ENDPOINT": "true"}, "set S3_ENDPOINT=https://s3-fips.REGION.amazonaws.com"},
		{"dual-stack", map[string]string{"AWS_USE_DUALSTACK_ENDPOINT": "true"}, "set S3_ENDPOINT=https://s3.dualstack.REGION.amazonaws.com"},
		{"S3_ENDPOINT wins", map[string]string{"AWS_ENDPOINT_URL_S3": "http://minio.local:9000", "AWS_USE_FIPS_ENDPOINT": "true", "S3_ENDPOINT": "http://127.0.0.1:1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range keys {
				env[k] = v
			}
			for k, v := range tt.env {
				env[k] = v
			}
			cfg, err := s3env.Settings(env).LoadDefault(t.Context())
			if tt.want == "" {
				require.NoError(t, err)
				assert.NotNil(t, cfg.Credentials)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "pw")
		})
	}
}

// TestCABundle: AWS_CA_BUNDLE's certificates are trusted for S3 requests (a server whose
// certificate only the bundle vouches for answers), and without it that server is refused.
func TestCABundle(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"1"`)
		fmt.Fprint(w, "hello")
	}))
	defer srv.Close()
	bundle := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(bundle, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))
	for _, withBundle := range []bool{true, false} {
		t.Run(fmt.Sprint("bundle=", withBundle), func(t *testing.T) {
			env := map[string]string{"S3_ENDPOINT": srv.URL, "S3_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s", "HOME": t.TempDir()}
			if withBundle {
				env["AWS_CA_BUNDLE"] = bundle
			}
			settings := s3env.Settings(env)
			settings.Timeout = 5 * time.Second
			p, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://bucket/state")
			require.NoError(t, err)
			data, err := p.Join("config").ReadFile()
			if withBundle {
				require.NoError(t, err)
				assert.Equal(t, "hello", string(data))
				return
			}
			require.Error(t, err)
			assert.NotErrorIs(t, err, s3store.ErrUnreachable, "the server answered; its certificate was refused")
			assert.Contains(t, err.Error(), "certificate is not trusted")
			assert.Contains(t, err.Error(), "set AWS_CA_BUNDLE")
		})
	}
}

// TestCredentialFailureIsNotS3s: a container credential endpoint's error answer is reported as a
// credentials problem, not read as S3's own answer (a 404 is no missing file, a 403 no missing
// permission), no request reaches S3, and the endpoint is asked at most as often as the chain
// retries one fetch (3 attempts), not again for each of the S3 call's attempts.
func TestCredentialFailureIsNotS3s(t *testing.T) {
	var s3Calls atomic.Int32
	s3 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s3Calls.Add(1)
		w.WriteHeader(http.StatusNotFound)
	}))
	defer s3.Close()
	tests := []struct {
		name      string
		status    int
		wantCalls int32
	}{
		{"not found", http.StatusNotFound, 1},
		{"forbidden", http.StatusForbidden, 1},
		{"server error", http.StatusInternalServerError, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s3Calls.Store(0)
			var credCalls atomic.Int32
			creds := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				credCalls.Add(1)
				w.WriteHeader(tt.status)
			}))
			defer creds.Close()
			env := map[string]string{"S3_ENDPOINT": s3.URL, "S3_REGION": "us-east-1", "HOME": t.TempDir(),
				"AWS_EC2_METADATA_DISABLED": "true", "AWS_CONTAINER_CREDENTIALS_FULL_URI": creds.URL + "/creds"}
			settings := s3env.Settings(env)
			settings.Timeout = 30 * time.Second
			p, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://bucket/state")
			require.NoError(t, err)
			_, err = p.Join("config").ReadFile()
			require.Error(t, err)
			assert.NotErrorIs(t, err, fs.ErrNotExist)
			assert.NotErrorIs(t, err, s3store.ErrAccessDenied)
			assert.ErrorIs(t, err, s3store.ErrCredentials)
			assert.Contains(t, err.Error(), "container credentials at "+creds.URL+"/creds")
			assert.Contains(t, err.Error(), "set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY")
			assert.Equal(t, tt.wantCalls, credCalls.Load(), "credential endpoint calls")
			assert.Zero(t, s3Calls.Load(), "requests to S3")
		})
	}
}
