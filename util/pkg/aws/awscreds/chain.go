// Package awscreds finds AWS credentials and a region the way AWS's SDKs do by default (their
// "default credential chain"), for the s3:// state store: environment variables, the shared
// config and credentials files (static keys, assumed roles, web identity, credential_process,
// IAM Identity Center), a web identity token (IRSA), container credentials, and EC2 instance
// metadata. It reads no environment itself: the command line edge hands it the environment.
package awscreds

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/kops/util/pkg/aws/sigv4"
)

// Options are what the chain reads from outside.
type Options struct {
	// Env is the process environment (AWS_* variables, HOME).
	Env map[string]string
	// HTTP carries calls to STS, IAM Identity Center, container and instance metadata endpoints;
	// nil is a client with short timeouts.
	HTTP *http.Client
	// Stderr receives a credential_process's standard error; nil discards it.
	Stderr io.Writer
	// Now is the clock for signing and expiry; nil is time.Now.
	Now func() time.Time
}

// Config is what the chain found: the region (empty when none is configured) and where the
// credentials come from, and the settings of the AWS configuration that say where S3 is.
type Config struct {
	Region      string
	Credentials *Cache
	// S3Endpoint is an endpoint configured for S3 (AWS_ENDPOINT_URL_S3, the profile's services
	// section, AWS_ENDPOINT_URL or endpoint_url); empty for AWS's own.
	S3Endpoint string
	// FIPS and DualStack are AWS_USE_FIPS_ENDPOINT and AWS_USE_DUALSTACK_ENDPOINT (or the
	// profile's use_fips_endpoint and use_dualstack_endpoint).
	FIPS, DualStack bool
	// TLS trusts the certificates of AWS_CA_BUNDLE (or the profile's ca_bundle) besides the
	// system's; nil without one. The chain's own calls use it too.
	TLS *tls.Config
}

// provider fetches credentials once; the Cache keeps them until shortly before they expire.
type provider func(ctx context.Context) (sigv4.Credentials, error)

// Load finds the configuration as AWS's SDKs do (LoadDefaultConfig). Configuration mistakes (a
// named profile that is missing, a role without its source) are errors now; fetching the
// credentials waits for their first use, as with the SDKs.
func Load(o Options) (Config, error) {
	c := &chain{Options: o, env: o.Env}
	if c.HTTP == nil {
		c.HTTP = defaultHTTP()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Stderr == nil {
		c.Stderr = io.Discard
	}
	name, explicit := c.env["AWS_PROFILE"], true
	if name == "" {
		name, explicit = first(c.env["AWS_DEFAULT_PROFILE"], "default"), false
	}
	home := c.env["HOME"]
	files, err := loadShared(
		first(c.env["AWS_CONFIG_FILE"], filepath.Join(home, ".aws", "config")),
		first(c.env["AWS_SHARED_CREDENTIALS_FILE"], filepath.Join(home, ".aws", "credentials")))
	if err != nil {
		return Config{}, err
	}
	c.files = files
	prof, err := c.profile(name, map[string]bool{})
	var missing *missingProfileError
	if errors.As(err, &missing) && !explicit && missing.name == name {
		prof, err = &profile{name: name, s: section{}}, nil // no default profile: the other sources
	}
	if err != nil {
		return Config{}, err
	}
	c.top = prof
	cfg := Config{Region: first(c.env["AWS_REGION"], c.env["AWS_DEFAULT_REGION"], prof.s["region"]),
		S3Endpoint: c.endpoint("S3", "", true),
		FIPS:       strings.EqualFold(first(c.env["AWS_USE_FIPS_ENDPOINT"], prof.s["use_fips_endpoint"]), "true"),
		DualStack:  strings.EqualFold(first(c.env["AWS_USE_DUALSTACK_ENDPOINT"], prof.s["use_dualstack_endpoint"]), "true"),
	}
	c.region = cfg.Region
	if bundle := first(c.env["AWS_CA_BUNDLE"], prof.s["ca_bundle"]); bundle != "" {
		if cfg.TLS, err = caBundle(bundle); err != nil {
			return Config{}, err
		}
		if o.HTTP == nil {
			c.HTTP.Transport.(*http.Transport).TLSClientConfig = cfg.TLS
		}
	}

	var p provider
	switch {
	case c.envKeys().AccessKeyID != "":
		keys := c.envKeys()
		p = func(context.Context) (sigv4.Credentials, error) { return keys, nil }
	case c.env["AWS_WEB_IDENTITY_TOKEN_FILE"] != "":
		if c.env["AWS_ROLE_ARN"] == "" {
			return Config{}, errors.New("AWS_WEB_IDENTITY_TOKEN_FILE is set but AWS_ROLE_ARN is not: a web identity token is exchanged for a role's credentials, set both")
		}
		p = c.webIdentity(c.env["AWS_WEB_IDENTITY_TOKEN_FILE"], c.env["AWS_ROLE_ARN"], c.env["AWS_ROLE_SESSION_NAME"], "AWS_WEB_IDENTITY_TOKEN_FILE")
	default:
		if p, err = c.fromProfile(prof); err != nil {
			return Config{}, err
		}
	}
	cfg.Credentials = &Cache{fetch: p, now: c.Now}
	return cfg, nil
}

type chain struct {
	Options
	env    map[string]string
	files  *sharedFiles
	top    *profile
	region string
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// envKeys are AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or their older names), and the session
// token; empty unless both keys are set.
func (c *chain) envKeys() sigv4.Credentials {
	id := first(c.env["AWS_ACCESS_KEY_ID"], c.env["AWS_ACCESS_KEY"])
	secret := first(c.env["AWS_SECRET_ACCESS_KEY"], c.env["AWS_SECRET_KEY"])
	if id == "" || secret == "" {
		return sigv4.Credentials{}
	}
	return sigv4.Credentials{AccessKeyID: id, SecretAccessKey: secret, SessionToken: c.env["AWS_SESSION_TOKEN"], Source: "environment (AWS_ACCESS_KEY_ID)"}
}

// profile is one profile of the shared files, with the profile it takes credentials from to
// assume its role (source_profile), resolved.
type profile struct {
	name   string
	s      section
	source *profile
	// again marks a profile met a second time on its own source_profile path: only its own
	// credentials count there, not its role.
	again bool
}

type missingProfileError struct{ name string }

func (e *missingProfileError) Error() string {
	return fmt.Sprintf("AWS profile %q is in neither the shared config file nor the credentials file", e.name)
}

func (p *profile) keys() (sigv4.Credentials, bool) {
	id, secret := p.s["aws_access_key_id"], p.s["aws_secret_access_key"]
	if id == "" || secret == "" {
		return sigv4.Credentials{}, false
	}
	return sigv4.Credentials{AccessKeyID: id, SecretAccessKey: secret, SessionToken: p.s["aws_session_token"], Source: "profile " + p.name}, true
}

func (p *profile) hasSSO() bool {
	s := p.s
	return s["sso_session"] != "" || s["sso_region"] != "" || s["sso_account_id"] != "" || s["sso_start_url"] != "" || s["sso_role_name"] != ""
}

// profile reads name and the profiles it names in source_profile, with the checks AWS's SDKs make:
// a role's source exists and has credentials, and a profile names one kind of credentials.
func (c *chain) profile(name string, seen map[string]bool) (*profile, error) {
	s, ok := c.files.profiles[name]
	if !ok {
		return nil, &missingProfileError{name: name}
	}
	if c.files.partial[name] {
		return nil, fmt.Errorf("AWS profile %q has one of aws_access_key_id and aws_secret_access_key without the other", name)
	}
	p := &profile{name: name, s: section{}}
	for k, v := range s {
		p.s[k] = v
	}
	if seen[name] {
		p.again = true
		for _, k := range []string{"role_arn", "external_id", "mfa_serial", "role_session_name", "source_profile"} {
			delete(p.s, k)
		}
	} else {
		for _, k := range []string{"source_profile", "credential_source", "web_identity_token_file"} {
			if p.s[k] != "" && p.s["role_arn"] == "" {
				return nil, fmt.Errorf("AWS profile %q sets %s but no role_arn: %s names where the credentials to assume a role come from", name, k, k)
			}
		}
	}
	if _, ok := p.keys(); len(seen) != 0 && ok {
		return p, nil
	}
	seen[name] = true
	kinds := 0
	for _, k := range []string{"source_profile", "credential_source", "credential_process", "web_identity_token_file"} {
		if p.s[k] != "" {
			kinds++
		}
	}
	if kinds > 1 {
		return nil, fmt.Errorf("AWS profile %q sets more than one of source_profile, credential_source, credential_process and web_identity_token_file; keep one", name)
	}
	if src := p.s["source_profile"]; src != "" {
		for _, k := range []string{"credential_source", "credential_process", "web_identity_token_file", "aws_access_key_id", "aws_secret_access_key", "aws_session_token", "sso_account_id", "sso_region", "sso_role_name", "sso_start_url"} {
			delete(p.s, k)
		}
		source, err := c.profile(src, seen)
		if err != nil {
			var missing *missingProfileError
			if errors.As(err, &missing) {
				return nil, fmt.Errorf("AWS profile %q assumes role %s with the credentials of source_profile %q: %w", name, p.s["role_arn"], src, err)
			}
			return nil, err
		}
		if !source.hasCredentials() {
			return nil, fmt.Errorf("AWS profile %q assumes role %s with the credentials of source_profile %q, which has none", name, p.s["role_arn"], src)
		}
		p.source = source
	}
	if sess := p.s["sso_session"]; sess != "" {
		if _, ok := c.files.other["sso-session "+strings.TrimSpace(sess)]; !ok {
			return nil, fmt.Errorf("AWS profile %q names sso_session %q, but the config file has no [sso-session %s] section", name, sess, sess)
		}
	}
	return p, nil
}

func (p *profile) hasCredentials() bool {
	_, keys := p.keys()
	s := p.s
	return s["source_profile"] != "" || s["credential_source"] != "" || s["credential_process"] != "" ||
		s["web_identity_token_file"] != "" || p.hasSSO() || keys
}

// fromProfile is the provider of p's credentials, in AWS's SDKs' order: a source profile (then
// the role), static keys, a credential_source, a web identity token file, IAM Identity Center, a
// credential_process; without any, container credentials, then the instance's role. A role_arn
// is then assumed with what came before.
func (c *chain) fromProfile(p *profile) (provider, error) {
	var base provider
	var err error
	keys, hasKeys := p.keys()
	s := p.s
	switch {
	case p.source != nil:
		base, err = c.fromProfile(p.source)
	case hasKeys:
		base = func(context.Context) (sigv4.Credentials, error) { return keys, nil }
	case s["credential_source"] != "":
		base, err = c.fromCredentialSource(p)
	case s["web_identity_token_file"] != "":
		return c.webIdentity(s["web_identity_token_file"], s["role_arn"], s["role_session_name"], "profile "+p.name), nil
	case p.hasSSO():
		base, err = c.sso(p)
	case s["login_session"] != "":
		err = fmt.Errorf("AWS profile %q signs in with `aws login` (login_session), which kops does not read: "+
			"use `aws configure export-credentials --profile %s --format env` and export the keys, or another profile", p.name, p.name)
	case s["credential_process"] != "":
		base = c.process(s["credential_process"], p.name)
	case c.env["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"] != "":
		base = c.container(ecsEndpoint + c.env["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"])
	case c.env["AWS_CONTAINER_CREDENTIALS_FULL_URI"] != "":
		base, err = c.localContainer(c.env["AWS_CONTAINER_CREDENTIALS_FULL_URI"])
	default:
		base = c.instanceRole(p)
	}
	if err != nil {
		return nil, err
	}
	if s["role_arn"] != "" && !p.again {
		return c.assumeRole(p, base)
	}
	return base, nil
}

func (c *chain) fromCredentialSource(p *profile) (provider, error) {
	switch src := p.s["credential_source"]; src {
	case "Ec2InstanceMetadata":
		return c.instanceRole(p), nil
	case "Environment":
		keys := c.envKeys()
		return func(context.Context) (sigv4.Credentials, error) {
			if keys.AccessKeyID == "" {
				return keys, fmt.Errorf("AWS profile %q takes credential_source Environment, but AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not both set", p.name)
			}
			return keys, nil
		}, nil
	case "EcsContainer":
		if rel := c.env["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"]; rel != "" {
			return c.container(ecsEndpoint + rel), nil
		}
		if full := c.env["AWS_CONTAINER_CREDENTIALS_FULL_URI"]; full != "" {
			return c.localContainer(full)
		}
		return nil, fmt.Errorf("AWS profile %q takes credential_source EcsContainer, but neither AWS_CONTAINER_CREDENTIALS_RELATIVE_URI nor AWS_CONTAINER_CREDENTIALS_FULL_URI is set", p.name)
	default:
		return nil, fmt.Errorf("AWS profile %q: credential_source %q is none of EcsContainer, Ec2InstanceMetadata and Environment", p.name, src)
	}
}

// caBundle is a TLS configuration trusting the PEM certificates in file besides the system's.
func caBundle(file string) (*tls.Config, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading the CA bundle (AWS_CA_BUNDLE or ca_bundle): %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("the CA bundle %s (AWS_CA_BUNDLE or ca_bundle) holds no PEM certificate", file)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// defaultHTTP is a client whose connections fail fast: instance metadata and container endpoints
// answer at once where they exist, and nowhere else.
func defaultHTTP() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.ResponseHeaderTimeout = 30 * time.Second
	return &http.Client{Transport: t}
}

// durationSeconds is a profile's duration_seconds for an assumed role: AWS's SDKs ask for 15
// minutes unless the profile asks for more.
func durationSeconds(s section) int {
	n, err := strconv.Atoi(s["duration_seconds"])
	if err != nil || n <= 15*60 {
		return 15 * 60
	}
	return n
}
