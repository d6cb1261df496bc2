package awscreds_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/aws/awscreds"
)

// fixture is one environment and set of files under HOME. In both, {home} is HOME, {fake} the
// stand-in AWS endpoints, {v1} stand-ins whose instance metadata allows only IMDSv1.
type fixture struct {
	name  string
	env   map[string]string
	files map[string]string
	// fails: both chains fail (and agree on it); the others both succeed.
	fails bool
}

const (
	ssoStartURL = "https://example.awsapps.com/start"
	// sha1 of "my-sso" and of ssoStartURL: the SSO token cache's file names.
	ssoSessionCache = ".aws/sso/cache/" + "SESSION.json"
	ssoLegacyCache  = ".aws/sso/cache/" + "LEGACY.json"
)

var fixtures = []fixture{
	{name: "env keys", env: map[string]string{"AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token", "AWS_REGION": "eu-west-1"}},
	{name: "env keys, older names", env: map[string]string{"AWS_ACCESS_KEY": "AKIDOLD", "AWS_SECRET_KEY": "old-secret"}},
	{name: "env key without secret falls through to the instance", env: map[string]string{"AWS_ACCESS_KEY_ID": "AKIDHALF"}},
	{name: "env keys win over a profile", env: map[string]string{"AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "s", "AWS_PROFILE": "dev"},
		files: map[string]string{".aws/credentials": "[dev]\naws_access_key_id = AKIDDEV\naws_secret_access_key = dev-secret\n"}},
	{name: "default profile in credentials file", files: map[string]string{".aws/credentials": "[default]\naws_access_key_id = AKIDDEF\naws_secret_access_key = def-secret\naws_session_token = def-token\n"}},
	{name: "named profile in config file", env: map[string]string{"AWS_PROFILE": "dev"},
		files: map[string]string{".aws/config": "[profile dev]\nregion = ap-south-1\naws_access_key_id = AKIDDEV\naws_secret_access_key = dev-secret\n"}},
	{name: "config section without profile prefix is no profile", fails: true, env: map[string]string{"AWS_PROFILE": "dev"},
		files: map[string]string{".aws/config": "[dev]\naws_access_key_id = AKIDDEV\naws_secret_access_key = dev-secret\n"}},
	{name: "missing AWS_PROFILE is an error", fails: true, env: map[string]string{"AWS_PROFILE": "nope"},
		files: map[string]string{".aws/credentials": "[default]\naws_access_key_id = AKIDDEF\naws_secret_access_key = s\n"}},
	{name: "missing AWS_DEFAULT_PROFILE is not", env: map[string]string{"AWS_DEFAULT_PROFILE": "nope"}},
	{name: "AWS_DEFAULT_PROFILE", env: map[string]string{"AWS_DEFAULT_PROFILE": "dev"},
		files: map[string]string{".aws/credentials": "[dev]\naws_access_key_id = AKIDDEV\naws_secret_access_key = s\n"}},
	{name: "credentials file wins over config file", env: map[string]string{"AWS_PROFILE": "dev"},
		files: map[string]string{
			".aws/config":      "[profile dev]\nregion = us-west-2\naws_access_key_id = AKIDCFG\naws_secret_access_key = cfg-secret\naws_session_token = cfg-token\n",
			".aws/credentials": "[dev]\naws_access_key_id = AKIDCRED\naws_secret_access_key = cred-secret\nregion = eu-central-1\n"}},
	{name: "profile default wins over default", files: map[string]string{".aws/config": "[profile default]\nregion = eu-north-1\n[default]\nregion = us-east-2\naws_access_key_id = A\naws_secret_access_key = B\n"}},
	{name: "syntax: comments, quotes, colons, spaces", env: map[string]string{"AWS_PROFILE": "odd"},
		files: map[string]string{".aws/credentials": "# comment\n; another\n[  odd  ] ; trailing\naws_access_key_id: \"AKIDQUOTED\"\n" +
			"AWS_Secret_Access_Key = 'se#cret' # inline\naws_session_token=tok;en\n\n[odd]\nregion = sa-east-1\n"}},
	{name: "partial keys are an error", fails: true, env: map[string]string{"AWS_PROFILE": "half"},
		files: map[string]string{".aws/credentials": "[half]\naws_access_key_id = AKIDHALF\n"}},
	{name: "partial keys completed by the other file", env: map[string]string{"AWS_PROFILE": "dev"},
		files: map[string]string{".aws/config": "[profile dev]\naws_access_key_id = AKIDHALF\n", ".aws/credentials": "[dev]\naws_access_key_id = AKIDFULL\naws_secret_access_key = s\n"}},
	{name: "AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE", env: map[string]string{"AWS_CONFIG_FILE": "{home}/cfg", "AWS_SHARED_CREDENTIALS_FILE": "{home}/creds", "AWS_PROFILE": "x"},
		files: map[string]string{"cfg": "[profile x]\nregion = me-south-1\n", "creds": "[x]\naws_access_key_id = AKIDX\naws_secret_access_key = s\n",
			".aws/credentials": "[x]\naws_access_key_id = AKIDWRONG\naws_secret_access_key = s\n"}},
	{name: "region precedence: AWS_REGION", env: map[string]string{"AWS_REGION": "eu-west-3", "AWS_DEFAULT_REGION": "eu-west-2", "AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B"},
		files: map[string]string{".aws/config": "[default]\nregion = eu-west-1\n"}},
	{name: "region precedence: AWS_DEFAULT_REGION", env: map[string]string{"AWS_DEFAULT_REGION": "eu-west-2", "AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B"},
		files: map[string]string{".aws/config": "[default]\nregion = eu-west-1\n"}},
	{name: "assume role from source profile", env: map[string]string{"AWS_PROFILE": "admin"},
		files: map[string]string{".aws/config": "[profile admin]\nregion = us-east-1\nrole_arn = arn:aws:iam::123456789012:role/admin\nsource_profile = base\nexternal_id = ext-1\nduration_seconds = 3600\nrole_session_name = me\n",
			".aws/credentials": "[base]\naws_access_key_id = AKIDBASE\naws_secret_access_key = base-secret\naws_session_token = base-token\n"}},
	{name: "assume role, short duration asks for 15 minutes", env: map[string]string{"AWS_PROFILE": "admin"},
		files: map[string]string{".aws/config": "[profile admin]\nregion = us-east-1\nrole_arn = arn:aws:iam::123456789012:role/admin\nsource_profile = base\nduration_seconds = 60\n",
			".aws/credentials": "[base]\naws_access_key_id = AKIDBASE\naws_secret_access_key = base-secret\n"}},
	{name: "role chain", env: map[string]string{"AWS_PROFILE": "a"},
		files: map[string]string{".aws/config": "[profile a]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/a\nsource_profile = b\n[profile b]\nrole_arn = arn:aws:iam::1:role/b\nsource_profile = c\n[profile c]\naws_access_key_id = AKIDC\naws_secret_access_key = c-secret\n"}},
	{name: "role whose source profile is itself", env: map[string]string{"AWS_PROFILE": "self"},
		files: map[string]string{".aws/config": "[profile self]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/self\nsource_profile = self\naws_access_key_id = AKIDSELF\naws_secret_access_key = s\n"}},
	{name: "role without source takes the instance's", env: map[string]string{"AWS_PROFILE": "r", "AWS_REGION": "us-east-1"},
		files: map[string]string{".aws/config": "[profile r]\nrole_arn = arn:aws:iam::1:role/r\n"}},
	{name: "source profile missing", fails: true, env: map[string]string{"AWS_PROFILE": "admin"},
		files: map[string]string{".aws/config": "[profile admin]\nrole_arn = arn:aws:iam::1:role/admin\nsource_profile = gone\n"}},
	{name: "source profile without credentials", fails: true, env: map[string]string{"AWS_PROFILE": "admin"},
		files: map[string]string{".aws/config": "[profile admin]\nrole_arn = arn:aws:iam::1:role/admin\nsource_profile = empty\n[profile empty]\nregion = us-east-1\n"}},
	{name: "source profile without role_arn", fails: true, env: map[string]string{"AWS_PROFILE": "admin"},
		files: map[string]string{".aws/config": "[profile admin]\nsource_profile = base\n[profile base]\naws_access_key_id = A\naws_secret_access_key = B\n"}},
	{name: "two kinds of credentials", fails: true, env: map[string]string{"AWS_PROFILE": "admin"},
		files: map[string]string{".aws/config": "[profile admin]\nrole_arn = arn:aws:iam::1:role/admin\nsource_profile = base\ncredential_source = Environment\n[profile base]\naws_access_key_id = A\naws_secret_access_key = two-kinds-secret\n"}},
	{name: "credential_source Environment", env: map[string]string{"AWS_PROFILE": "e", "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "s"},
		files: map[string]string{".aws/config": "[profile e]\nrole_arn = arn:aws:iam::1:role/e\ncredential_source = Environment\n"}},
	{name: "credential_source Ec2InstanceMetadata", env: map[string]string{"AWS_PROFILE": "e", "AWS_REGION": "us-east-1"},
		files: map[string]string{".aws/config": "[profile e]\nrole_arn = arn:aws:iam::1:role/e\ncredential_source = Ec2InstanceMetadata\n"}},
	{name: "credential_source EcsContainer", env: map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": "{fake}/container/creds", "AWS_PROFILE": "e", "AWS_REGION": "us-east-1", "AWS_CONTAINER_AUTHORIZATION_TOKEN": "ctok"},
		files: map[string]string{".aws/config": "[profile e]\nrole_arn = arn:aws:iam::1:role/e\ncredential_source = EcsContainer\n"}},
	{name: "credential_source unknown", fails: true, env: map[string]string{"AWS_PROFILE": "e"},
		files: map[string]string{".aws/config": "[profile e]\nrole_arn = arn:aws:iam::1:role/e\ncredential_source = Somewhere\n"}},
	{name: "STS endpoint from the profile's services section", env: map[string]string{"AWS_PROFILE": "svc", "AWS_ENDPOINT_URL_STS": ""},
		files: map[string]string{".aws/config": "[profile svc]\nregion = us-east-1\nrole_arn = arn:aws:iam::1:role/svc\nsource_profile = base\nservices = local\n" +
			"[services local]\nsts =\n  endpoint_url = {fake}\ns3 =\n  endpoint_url = http://s3.local:9000\n[profile base]\naws_access_key_id = AKIDBASE\naws_secret_access_key = s\n"}},
	// AWS_ENDPOINT_URL does not move the chain's own STS calls (the SDK builds that client before
	// it reads the global endpoint): both call STS of a region whose name resolves nowhere.
	{name: "STS endpoint not from AWS_ENDPOINT_URL", fails: true, env: map[string]string{"AWS_PROFILE": "svc", "AWS_ENDPOINT_URL_STS": "", "AWS_ENDPOINT_URL": "{fake}"},
		files: map[string]string{".aws/config": "[profile svc]\nregion = xx-nowhere-1\nrole_arn = arn:aws:iam::1:role/svc\nsource_profile = base\n[profile base]\naws_access_key_id = AKIDBASE\naws_secret_access_key = s\n"}},
	{name: "S3 endpoint from AWS_ENDPOINT_URL_S3", env: map[string]string{"AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B", "AWS_ENDPOINT_URL_S3": "http://minio.local:9000"}},
	{name: "S3 endpoint from the profile's endpoint_url", env: map[string]string{"AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B"},
		files: map[string]string{".aws/config": "[default]\nendpoint_url = http://everything.local\n"}},
	{name: "configured endpoints ignored", env: map[string]string{"AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B", "AWS_ENDPOINT_URL_S3": "http://minio.local:9000", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}},
	{name: "mfa_serial", fails: true, env: map[string]string{"AWS_PROFILE": "m"},
		files: map[string]string{".aws/config": "[profile m]\nrole_arn = arn:aws:iam::1:role/m\nsource_profile = base\nmfa_serial = arn:aws:iam::1:mfa/me\n[profile base]\naws_access_key_id = A\naws_secret_access_key = mfa-base-secret\naws_session_token = mfa-base-token\n"}},
	{name: "web identity profile", env: map[string]string{"AWS_PROFILE": "w"},
		files: map[string]string{".aws/config": "[profile w]\nregion = eu-west-1\nrole_arn = arn:aws:iam::1:role/w\nweb_identity_token_file = {home}/token\n", "token": "jwt-from-file"}},
	{name: "IRSA", env: map[string]string{"AWS_WEB_IDENTITY_TOKEN_FILE": "{home}/token", "AWS_ROLE_ARN": "arn:aws:iam::1:role/irsa", "AWS_REGION": "us-west-2", "AWS_ROLE_SESSION_NAME": "pod"},
		files: map[string]string{"token": "jwt-irsa"}},
	{name: "IRSA without AWS_ROLE_ARN", fails: true, env: map[string]string{"AWS_WEB_IDENTITY_TOKEN_FILE": "{home}/token", "AWS_REGION": "us-west-2"}, files: map[string]string{"token": "jwt-without-role"}},
	{name: "IRSA with a missing token file", fails: true, env: map[string]string{"AWS_WEB_IDENTITY_TOKEN_FILE": "{home}/gone", "AWS_ROLE_ARN": "arn:aws:iam::1:role/irsa", "AWS_REGION": "us-west-2"}},
	{name: "IRSA loses to env keys", env: map[string]string{"AWS_WEB_IDENTITY_TOKEN_FILE": "{home}/token", "AWS_ROLE_ARN": "arn:aws:iam::1:role/irsa", "AWS_REGION": "us-west-2",
		"AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "s"}, files: map[string]string{"token": "jwt"}},
	{name: "credential_process", env: map[string]string{"AWS_PROFILE": "p"},
		files: map[string]string{".aws/config": "[profile p]\ncredential_process = sh {home}/creds.sh arg\n",
			"creds.sh": `printf '{"Version":1,"AccessKeyId":"AKIDPROC-%s","SecretAccessKey":"proc-secret","SessionToken":"proc-token","Expiration":"2099-01-01T00:00:00Z"}' "$1"`}},
	{name: "credential_process, wrong version", fails: true, env: map[string]string{"AWS_PROFILE": "p"},
		files: map[string]string{".aws/config": "[profile p]\ncredential_process = sh {home}/creds.sh\n",
			"creds.sh": `printf '{"Version":2,"AccessKeyId":"A","SecretAccessKey":"B"}'`}},
	{name: "credential_process fails", fails: true, env: map[string]string{"AWS_PROFILE": "p"},
		files: map[string]string{".aws/config": "[profile p]\ncredential_process = sh -c 'exit 3'\n"}},
	{name: "container, token", env: map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": "{fake}/container/creds", "AWS_CONTAINER_AUTHORIZATION_TOKEN": "ctok"}},
	{name: "container, token file", env: map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": "{fake}/container/creds", "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": "{home}/ctok", "AWS_CONTAINER_AUTHORIZATION_TOKEN": "ignored"},
		files: map[string]string{"ctok": "from-file"}},
	{name: "container, not a loopback host", fails: true, env: map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://192.0.2.1/creds", "AWS_CONTAINER_AUTHORIZATION_TOKEN": "ctok"}},
	// A credential URI may carry a password or a token in its query: neither is shown.
	{name: "container, URI with secrets that does not parse", fails: true, env: map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://user:pw-SECRET1@127.0.0.1:%zz/creds?tok=SECRET2"}},
	{name: "container, URI with secrets that does not answer", fails: true, env: map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://user:pw-SECRET3@127.0.0.1:1/creds?tok=SECRET4"}},
	{name: "container loses to a profile's keys", env: map[string]string{"AWS_CONTAINER_CREDENTIALS_FULL_URI": "{fake}/container/creds", "AWS_CONTAINER_AUTHORIZATION_TOKEN": "ctok"},
		files: map[string]string{".aws/credentials": "[default]\naws_access_key_id = AKIDDEF\naws_secret_access_key = s\n"}},
	{name: "instance metadata, IMDSv2", env: map[string]string{}},
	{name: "instance metadata, IMDSv1", env: map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT": "{v1}"}},
	{name: "instance metadata, IMDSv1 refused", fails: true, env: map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT": "{v1}", "AWS_EC2_METADATA_V1_DISABLED": "true"}},
	{name: "instance metadata endpoint in the profile", env: map[string]string{"AWS_EC2_METADATA_SERVICE_ENDPOINT": ""},
		files: map[string]string{".aws/config": "[default]\nec2_metadata_service_endpoint = {v1}\n"}},
	{name: "nothing at all", fails: true, env: map[string]string{"AWS_EC2_METADATA_DISABLED": "true"}},
	{name: "SSO, legacy profile", env: map[string]string{"AWS_PROFILE": "sso"},
		files: map[string]string{".aws/config": "[profile sso]\nsso_start_url = " + ssoStartURL + "\nsso_region = us-east-1\nsso_account_id = 123456789012\nsso_role_name = Admin\nregion = eu-west-1\n",
			ssoLegacyCache: `{"accessToken":"legacy-token","expiresAt":"2099-01-01T00:00:00Z","region":"us-east-1","startUrl":"` + ssoStartURL + `"}`}},
	{name: "SSO, sso-session", env: map[string]string{"AWS_PROFILE": "sso"},
		files: map[string]string{".aws/config": "[profile sso]\nsso_session = my-sso\nsso_account_id = 123456789012\nsso_role_name = ReadOnly\n[sso-session my-sso]\nsso_start_url = " + ssoStartURL + "\nsso_region = us-east-1\n",
			ssoSessionCache: `{"accessToken":"session-token","expiresAt":"2099-01-01T00:00:00Z","refreshToken":"r","clientId":"c","clientSecret":"s","registrationExpiresAt":"2099-01-01T00:00:00Z","region":"us-east-1","startUrl":"` + ssoStartURL + `"}`}},
	{name: "SSO, expired sign-in", fails: true, env: map[string]string{"AWS_PROFILE": "sso"},
		files: map[string]string{".aws/config": "[profile sso]\nsso_start_url = " + ssoStartURL + "\nsso_region = us-east-1\nsso_account_id = 123456789012\nsso_role_name = Admin\n",
			ssoLegacyCache: `{"accessToken":"legacy-token","expiresAt":"2001-01-01T00:00:00Z","region":"us-east-1","startUrl":"` + ssoStartURL + `"}`}},
	{name: "SSO, no sign-in", fails: true, env: map[string]string{"AWS_PROFILE": "sso"},
		files: map[string]string{".aws/config": "[profile sso]\nsso_start_url = " + ssoStartURL + "\nsso_region = us-east-1\nsso_account_id = 123456789012\nsso_role_name = Admin\n"}},
	{name: "SSO, incomplete profile", fails: true, env: map[string]string{"AWS_PROFILE": "sso"},
		files: map[string]string{".aws/config": "[profile sso]\nsso_start_url = " + ssoStartURL + "\nsso_region = us-east-1\n"}},
	{name: "SSO, missing session section", fails: true, env: map[string]string{"AWS_PROFILE": "sso"},
		files: map[string]string{".aws/config": "[profile sso]\nsso_session = gone\nsso_account_id = 1\nsso_role_name = R\n"}},
}

// TestChainMatchesSDK resolves every fixture with this package and with the AWS SDK's
// config.LoadDefaultConfig (the reference: what kops did before), against the same stand-in
// endpoints, and expects the same credentials and region, or an error from both.
func TestChainMatchesSDK(t *testing.T) {
	fake, v1 := newFakeAWS(t, false), newFakeAWS(t, true)
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			home := t.TempDir()
			expand := func(s string) string {
				return strings.NewReplacer("{home}", home, "{fake}", fake.URL, "{v1}", v1.URL).Replace(s)
			}
			for name, content := range fx.files {
				name = strings.NewReplacer("SESSION", sha1hex("my-sso"), "LEGACY", sha1hex(ssoStartURL)).Replace(name)
				p := filepath.Join(home, name)
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o700))
				require.NoError(t, os.WriteFile(p, []byte(expand(content)), 0o600))
			}
			// The SDK fixes its default file names at package init, from the HOME of then: the
			// files are named (TestDefaultFilesUnderHome checks that ours finds them unnamed too).
			env := map[string]string{"HOME": home,
				"AWS_CONFIG_FILE": filepath.Join(home, ".aws", "config"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(home, ".aws", "credentials")}
			env["AWS_ENDPOINT_URL_STS"] = fake.URL
			env["AWS_ENDPOINT_URL_SSO"] = fake.URL
			env["AWS_EC2_METADATA_SERVICE_ENDPOINT"] = fake.URL
			for k, v := range fx.env {
				env[k] = expand(v)
			}
			for k, v := range env {
				if v == "" {
					delete(env, k)
				}
			}
			isolate(t, env)

			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			ours, ourRegion, ourErr := resolveOurs(ctx, env)
			theirs, err := config.LoadDefaultConfig(ctx)
			theirRegion := theirs.Region
			if err == nil {
				ourCfg, loadErr := awscreds.Load(awscreds.Options{Env: env})
				if assert.NoError(t, loadErr, "the SDK loads it") {
					assert.Equal(t, aws.ToString(s3.NewFromConfig(theirs).Options().BaseEndpoint), ourCfg.S3Endpoint, "the endpoint configured for S3")
				}
			}
			if err == nil {
				var c struct{ id, secret, token string }
				creds, rerr := theirs.Credentials.Retrieve(ctx)
				c.id, c.secret, c.token, err = creds.AccessKeyID, creds.SecretAccessKey, creds.SessionToken, rerr
				if err == nil {
					assert.Equal(t, c.id, ours.AccessKeyID)
					assert.Equal(t, c.secret, ours.SecretAccessKey)
					assert.Equal(t, c.token, ours.SessionToken)
					assert.Equal(t, creds.CanExpire, !ours.Expires.IsZero(), "both expire, or neither")
				}
			}
			if err != nil {
				assert.Error(t, ourErr, "the SDK fails with: %v", err)
			} else {
				assert.NoError(t, ourErr)
			}
			if ourErr == nil || err == nil {
				assert.Equal(t, theirRegion, ourRegion)
			}
			assert.Equal(t, fx.fails, ourErr != nil, "the fixture's expectation")
			if ourErr != nil {
				for _, secret := range secrets(fx, expand) {
					assert.NotContains(t, ourErr.Error(), secret, "an error never carries a secret")
				}
			}
			if ourErr != nil {
				t.Logf("ours: %v", ourErr)
				t.Logf("SDK:  %v", err)
			} else {
				t.Logf("%s, region %q", ours, ourRegion)
			}
		})
	}
}

func resolveOurs(ctx context.Context, env map[string]string) (creds awsCreds, region string, err error) {
	cfg, err := awscreds.Load(awscreds.Options{Env: env})
	if err != nil {
		return creds, "", err
	}
	c, err := cfg.Credentials.Retrieve(ctx)
	return c, cfg.Region, err
}

// isolate makes env the whole AWS part of the process environment (which the SDK reads) for
// the test.
func isolate(t *testing.T, env map[string]string) {
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "AWS_") || k == "HOME" {
			t.Setenv(k, "")
			require.NoError(t, os.Unsetenv(k))
		}
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
}

// TestDefaultFilesUnderHome: without AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE, the files
// are HOME's .aws/config and .aws/credentials.
func TestDefaultFilesUnderHome(t *testing.T) {
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".aws"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".aws", "config"), []byte("[profile dev]\nregion = eu-west-1\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".aws", "credentials"), []byte("[dev]\naws_access_key_id = AKIDDEV\naws_secret_access_key = s\n"), 0o600))
	creds, region, err := resolveOurs(context.Background(), map[string]string{"HOME": home, "AWS_PROFILE": "dev"})
	require.NoError(t, err)
	assert.Equal(t, "AKIDDEV", creds.AccessKeyID)
	assert.Equal(t, "eu-west-1", region)
}

var secretLine = regexp.MustCompile(`(?m)^\s*(aws_secret_access_key|aws_session_token)\s*[=:]\s*(\S+)`)

// secrets are the fixture's secret keys, session and authorization tokens, web identity tokens and
// cached sign-ins (those long enough to be told apart from other text).
func secrets(fx fixture, expand func(string) string) []string {
	var out []string
	for k, v := range fx.env {
		if strings.Contains(k, "SECRET") || strings.HasSuffix(k, "_TOKEN") {
			out = append(out, v)
		}
		out = append(out, urlSecrets(v)...)
	}
	for name, content := range fx.files {
		switch {
		case strings.HasPrefix(name, ".aws/sso/"), name == "token", name == "ctok":
			out = append(out, content)
			if m := regexp.MustCompile(`"accessToken":"([^"]+)"`).FindStringSubmatch(content); m != nil {
				out = append(out, m[1])
			}
		default:
			for _, m := range secretLine.FindAllStringSubmatch(expand(content), -1) {
				out = append(out, strings.Trim(m[2], `"'`))
			}
		}
	}
	var long []string
	for _, s := range out {
		if len(s) >= 4 {
			long = append(long, s)
		}
	}
	return long
}

// urlSecrets are the password and the query values of a value that looks like a URL, whether or
// not it parses.
func urlSecrets(v string) []string {
	var out []string
	rest, ok := strings.CutPrefix(v, "http://")
	if !ok {
		return nil
	}
	if userinfo, _, ok := strings.Cut(rest, "@"); ok {
		if _, pw, ok := strings.Cut(userinfo, ":"); ok {
			out = append(out, pw)
		}
	}
	if _, query, ok := strings.Cut(rest, "?"); ok {
		for _, kv := range strings.Split(query, "&") {
			if _, val, ok := strings.Cut(kv, "="); ok {
				out = append(out, val)
			}
		}
	}
	return out
}
