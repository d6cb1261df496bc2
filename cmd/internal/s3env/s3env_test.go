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

package s3env_test

import (
	"context"
	"encoding/pem"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/cmd/internal/s3env"
	"k8s.io/kops/util/pkg/procgroup/procgrouptest"
	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// isolate gives the test a process environment of its own for the AWS SDK, which reads it itself
// (in the loader s3env hands down): no AWS_* variable of the machine, shared config and
// credentials files of its own (the SDK finds ~/.aws by the HOME of the process's start, so they
// are named), no instance metadata, and then vars.
func isolate(t *testing.T, vars map[string]string) {
	t.Helper()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "AWS_") {
			t.Setenv(k, "")
			require.NoError(t, os.Unsetenv(k))
		}
	}
	dir := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	for k, v := range vars {
		t.Setenv(k, v)
	}
}

// TestDefaultChainReachesS3: without S3_ACCESS_KEY_ID, the store signs with what the AWS default
// chain finds (environment keys, a profile of the shared files), and the real S3 server accepts
// it; a wrong key from the chain is refused, naming the action.
func TestDefaultChainReachesS3(t *testing.T) {
	srv := s3test.Shared(t)
	bucket := srv.NewBucket(t)
	credentials := filepath.Join(t.TempDir(), "credentials")
	require.NoError(t, os.WriteFile(credentials, []byte(
		"[admin]\naws_access_key_id = "+s3test.AccessKey+"\naws_secret_access_key = "+s3test.SecretKey+"\n"+
			"[reader]\naws_access_key_id = "+s3test.ReadOnlyAccessKey+"\naws_secret_access_key = "+s3test.ReadOnlySecretKey+"\n"), 0o600))
	env := map[string]string{"S3_ENDPOINT": srv.Endpoint, "S3_REGION": s3test.Region}
	tests := []struct {
		name    string
		aws     map[string]string
		wantErr error
	}{
		{"environment keys", map[string]string{"AWS_ACCESS_KEY_ID": s3test.AccessKey, "AWS_SECRET_ACCESS_KEY": s3test.SecretKey}, nil},
		{"profile", map[string]string{"AWS_PROFILE": "admin"}, nil},
		{"read-only profile", map[string]string{"AWS_PROFILE": "reader"}, s3store.ErrAccessDenied},
		{"wrong secret key", map[string]string{"AWS_ACCESS_KEY_ID": s3test.AccessKey, "AWS_SECRET_ACCESS_KEY": "not-the-secret-0123456789"}, s3store.ErrCredentials},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t, tt.aws)
			t.Setenv("AWS_SHARED_CREDENTIALS_FILE", credentials)
			p, err := vfs.NewContext(nil).WithS3(s3store.New(s3env.Settings(env))).ParsePath("s3://" + bucket + "/" + tt.name)
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

// TestAWSEndpointSettings: the AWS SDK's endpoint settings choose where S3 requests go (FIPS,
// dual-stack, an endpoint URL for S3, the region of the instance's metadata), and S3_ENDPOINT wins
// over all of them. The requests are recorded, not sent; the instance metadata is a local server
// answering as EC2's does.
func TestAWSEndpointSettings(t *testing.T) {
	imds := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/latest/api/token":
			_, _ = fmt.Fprint(w, "token")
		case "/latest/dynamic/instance-identity/document":
			_, _ = fmt.Fprint(w, `{"region": "eu-west-3", "availabilityZone": "eu-west-3a"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer imds.Close()
	keys := map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_REGION": "us-east-1"}
	tests := []struct {
		name   string
		aws    map[string]string
		s3     map[string]string
		wantTo string
	}{
		{"default", nil, nil, "https://kops-state.s3.us-east-1.amazonaws.com/"},
		{"FIPS", map[string]string{"AWS_USE_FIPS_ENDPOINT": "true"}, nil, "https://kops-state.s3-fips.us-east-1.amazonaws.com/"},
		{"dual-stack", map[string]string{"AWS_USE_DUALSTACK_ENDPOINT": "true"}, nil, "https://kops-state.s3.dualstack.us-east-1.amazonaws.com/"},
		{"AWS_ENDPOINT_URL_S3", map[string]string{"AWS_ENDPOINT_URL_S3": "http://minio.local:9000"}, nil, "http://kops-state.minio.local:9000/"},
		{"S3_REGION", nil, map[string]string{"S3_REGION": "cn-north-1"}, "https://kops-state.s3.cn-north-1.amazonaws.com.cn/"},
		{"instance metadata's region", map[string]string{"AWS_REGION": "", "AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.URL},
			nil, "https://kops-state.s3.eu-west-3.amazonaws.com/"},
		{"S3_ENDPOINT wins", map[string]string{"AWS_ENDPOINT_URL_S3": "http://minio.local:9000", "AWS_USE_FIPS_ENDPOINT": "true"},
			map[string]string{"S3_ENDPOINT": "http://127.0.0.1:1/base", "S3_REGION": "us-east-1"}, "http://127.0.0.1:1/base/kops-state/state/config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]string{}
			for k, v := range keys {
				vars[k] = v
			}
			for k, v := range tt.aws {
				vars[k] = v
			}
			isolate(t, vars)
			rec := &s3test.Recorder{}
			settings := s3env.Settings(tt.s3)
			settings.Transport, settings.Timeout = rec, 5*time.Second
			p, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://kops-state/state/config")
			require.NoError(t, err)
			_, err = p.ReadFile()
			require.Error(t, err)
			reqs := rec.Requests()
			require.NotEmpty(t, reqs, "%v", err)
			u := *reqs[0].URL
			u.RawQuery = ""
			assert.Equal(t, tt.wantTo, u.String())
		})
	}
}

// TestCABundle: AWS_CA_BUNDLE's certificates are trusted for S3 requests (a server whose
// certificate only the bundle vouches for answers), and without it that server is refused.
func TestCABundle(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"1"`)
		_, _ = fmt.Fprint(w, "hello")
	}))
	defer srv.Close()
	bundle := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(bundle, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))
	for _, withBundle := range []bool{true, false} {
		t.Run(fmt.Sprint("bundle=", withBundle), func(t *testing.T) {
			env := map[string]string{"S3_ENDPOINT": srv.URL, "S3_REGION": "us-east-1"}
			vars := map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s"}
			if withBundle {
				vars["AWS_CA_BUNDLE"] = bundle
			}
			isolate(t, vars)
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
			env := map[string]string{"S3_ENDPOINT": s3.URL, "S3_REGION": "us-east-1"}
			isolate(t, map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": creds.URL + "/creds"})
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

// TestSettingsFromEnv: kops's variables reach the store's settings, KOPS_STATE_S3_ACL trimmed as
// kops trims it.
func TestSettingsFromEnv(t *testing.T) {
	got := s3env.Settings(map[string]string{
		"S3_ENDPOINT": "http://127.0.0.1:9000", "S3_REGION": "eu-west-3", "S3_ACCESS_KEY_ID": "AKID", "S3_SECRET_ACCESS_KEY": "secret",
		"KOPS_STATE_S3_ACL": " bucket-owner-full-control\n",
	})
	assert.Equal(t, "http://127.0.0.1:9000", got.Endpoint)
	assert.Equal(t, "eu-west-3", got.Region)
	assert.Equal(t, "AKID", got.AccessKeyID)
	assert.Equal(t, "secret", got.SecretAccessKey)
	assert.Equal(t, "bucket-owner-full-control", got.ACL)
	assert.NotNil(t, got.LoadDefault)
}

// TestAWSFilesAreBounded: every file an AWS setting names, in the environment or in the profile,
// is read through the store's bounded, regular-file read before the SDK sees it: no regular file
// (/dev/zero) or one larger than a state file may be is refused, naming the setting; a missing CA
// bundle is named as such; a missing shared file is still the SDK's to ignore. The web identity
// token is read when credentials are fetched, so the check is on Retrieve.
func TestAWSFilesAreBounded(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big")
	require.NoError(t, os.WriteFile(big, nil, 0o600))
	require.NoError(t, os.Truncate(big, vfs.MaxFileSize+1))
	missing := filepath.Join(t.TempDir(), "missing")
	role := map[string]string{"AWS_ROLE_ARN": "arn:aws:iam::123456789012:role/x"}
	tests := []struct {
		name    string
		env     map[string]string
		profile string // the default profile's lines
		wantErr string
	}{
		{"config /dev/zero", map[string]string{"AWS_CONFIG_FILE": "/dev/zero"}, "", "AWS_CONFIG_FILE names /dev/zero: /dev/zero: not a regular file (a device)"},
		{"credentials too large", map[string]string{"AWS_SHARED_CREDENTIALS_FILE": big}, "", "AWS_SHARED_CREDENTIALS_FILE names " + big + ": " + big + ": file too large"},
		{"AWS_CA_BUNDLE /dev/urandom", map[string]string{"AWS_CA_BUNDLE": "/dev/urandom"}, "", "AWS_CA_BUNDLE names /dev/urandom: /dev/urandom: not a regular file"},
		{"AWS_CA_BUNDLE missing", map[string]string{"AWS_CA_BUNDLE": missing}, "", "AWS_CA_BUNDLE names " + missing + ", which does not exist; set it to a PEM file"},
		{"profile ca_bundle /dev/zero", nil, "ca_bundle = /dev/zero\n", `ca_bundle of AWS profile "default" names /dev/zero: /dev/zero: not a regular file`},
		{"profile ca_bundle missing", nil, "ca_bundle = " + missing + "\n", `ca_bundle of AWS profile "default" names ` + missing + ", which does not exist"},
		{"AWS_WEB_IDENTITY_TOKEN_FILE /dev/zero", map[string]string{"AWS_WEB_IDENTITY_TOKEN_FILE": "/dev/zero"}, "",
			"AWS_WEB_IDENTITY_TOKEN_FILE names /dev/zero: /dev/zero: not a regular file"},
		{"profile web_identity_token_file /dev/zero", nil, "role_arn = arn:aws:iam::123456789012:role/x\nweb_identity_token_file = /dev/zero\n",
			`web_identity_token_file of AWS profile "default" names /dev/zero: /dev/zero: not a regular file`},
		{"config missing", map[string]string{"AWS_CONFIG_FILE": missing}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t, role)
			if tt.profile != "" {
				require.NoError(t, os.WriteFile(os.Getenv("AWS_CONFIG_FILE"), []byte("[default]\n"+tt.profile), 0o600))
			} else {
				t.Setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
				t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
			}
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			if tt.env["AWS_WEB_IDENTITY_TOKEN_FILE"] != "" {
				require.NoError(t, os.Unsetenv("AWS_ACCESS_KEY_ID")) // the keys would win over the token
			}
			settings := s3env.Settings(map[string]string{"S3_REGION": "us-east-1"})
			cfg, err := settings.LoadDefault(t.Context())
			if err != nil {
				assert.ErrorIs(t, err, s3store.ErrSettings, "a settings file, not the credentials, is the problem")
			} else if cfg.Credentials != nil {
				_, err = cfg.Credentials.Retrieve(t.Context())
			}
			if tt.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tt.wantErr)
		})
	}
}

// TestCredentialProcessIsBounded: the profile's credential_process runs in its own process group,
// killed whole at the deadline and after it answered, and its output is capped: an endless printer
// ends with a named error, a child left holding the output does not hold the command, and one that
// never answers ends by the deadline (generous here: a timeout, not a speed assertion).
func TestCredentialProcessIsBounded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("process groups are unix's")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	tests := processCases("default", "AKID", pidFile)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t, nil)
			require.NoError(t, os.WriteFile(os.Getenv("AWS_CONFIG_FILE"), []byte("[default]\ncredential_process = "+tt.process+"\n"), 0o600))
			_ = os.Remove(pidFile)
			cfg, err := s3env.Settings(map[string]string{"S3_REGION": "us-east-1"}).LoadDefault(t.Context())
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
			defer cancel()
			creds, err := cfg.Credentials.Retrieve(ctx)
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, "AKID", creds.AccessKeyID)
				return
			}
			assert.ErrorContains(t, err, tt.wantErr)
			procgrouptest.AssertChildGone(t, pidFile)
		})
	}
}

// TestCredentialProcessAsRoleSourceIsBounded: a credential_process that is the source_profile of
// an assumed role is bounded as the profile's own is; the role is then assumed with its
// credentials, from an STS endpoint that answers as STS does.
func TestCredentialProcessAsRoleSourceIsBounded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("process groups are unix's")
	}
	var signedBy string
	sts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		signedBy = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "text/xml")
		_, _ = fmt.Fprint(w, `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>`+
			`<Credentials><AccessKeyId>ROLEKEY</AccessKeyId><SecretAccessKey>s</SecretAccessKey><SessionToken>t</SessionToken>`+
			`<Expiration>2099-01-01T00:00:00Z</Expiration></Credentials>`+
			`<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/kops/s</Arn><AssumedRoleId>A:s</AssumedRoleId></AssumedRoleUser>`+
			`</AssumeRoleResult></AssumeRoleResponse>`)
	}))
	defer sts.Close()
	pidFile := filepath.Join(t.TempDir(), "pid")
	tests := processCases("source", "SOURCEKEY", pidFile)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t, map[string]string{"AWS_ENDPOINT_URL_STS": sts.URL})
			require.NoError(t, os.WriteFile(os.Getenv("AWS_CONFIG_FILE"), []byte(
				"[default]\nrole_arn = arn:aws:iam::123456789012:role/kops\nsource_profile = source\n"+
					"[profile source]\ncredential_process = "+tt.process+"\n"), 0o600))
			_ = os.Remove(pidFile)
			signedBy = ""
			cfg, err := s3env.Settings(map[string]string{"S3_REGION": "us-east-1"}).LoadDefault(t.Context())
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
			defer cancel()
			creds, err := cfg.Credentials.Retrieve(ctx)
			if tt.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, "ROLEKEY", creds.AccessKeyID, "the role's credentials")
				assert.Contains(t, signedBy, "Credential=SOURCEKEY/", "STS is asked with the process's credentials")
				return
			}
			assert.ErrorContains(t, err, tt.wantErr)
			assert.Empty(t, signedBy, "no request to STS without the source's credentials")
			procgrouptest.AssertChildGone(t, pidFile)
		})
	}
}

// processCase is a credential_process and the error it must end with ("" for none).
type processCase struct{ name, process, wantErr string }

// processCases are the ways a credential_process of profile answers or misbehaves: it answers
// with key accessKey, prints without end, leaves a child holding its output (its PID in pidFile),
// or never answers.
func processCases(profile, accessKey, pidFile string) []processCase {
	named := fmt.Sprintf("the credential_process of AWS profile %q ", profile)
	return []processCase{
		{"answers", `echo '{"Version": 1, "AccessKeyId": "` + accessKey + `", "SecretAccessKey": "s"}'`, ""},
		{"endless output", "yes", named + "printed more than its bound (65536 bytes)"},
		{"child keeps the output open", "sleep 60 & echo $! > " + pidFile, named + "exited, but a process it started kept its output open; it was killed"},
		{"never answers, its child neither", "sleep 60 & echo $! > " + pidFile + "; wait", named + "did not answer by its deadline; it was killed with every process it started"},
	}
}
