package awscreds

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"k8s.io/kops/util/pkg/aws/awshttp"
	"k8s.io/kops/util/pkg/aws/partition"
	"k8s.io/kops/util/pkg/aws/sigv4"
)

// endpoint is where calls to service go: AWS_ENDPOINT_URL_<SERVICE>, then the profile's
// services section, then (if global) AWS_ENDPOINT_URL and the profile's endpoint_url; none of
// them when AWS_IGNORE_CONFIGURED_ENDPOINT_URLS or ignore_configured_endpoint_urls is true; else
// def. The credential chain's own calls (STS, SSO) take no global endpoint: AWS's SDKs make their
// clients before they read it, and TestChainMatchesSDK holds us to what they do.
func (c *chain) endpoint(service, def string, global bool) string {
	if strings.EqualFold(first(c.env["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"], c.top.s["ignore_configured_endpoint_urls"]), "true") {
		return def
	}
	services := c.files.other["services "+c.top.s["services"]]
	ep := first(c.env["AWS_ENDPOINT_URL_"+strings.ToUpper(service)], services[strings.ToLower(service)+".endpoint_url"])
	if global {
		ep = first(ep, c.env["AWS_ENDPOINT_URL"], c.top.s["endpoint_url"])
	}
	return first(ep, def)
}

// sessionName is a role session's name when the profile names none, as AWS's SDKs make it.
func (c *chain) sessionName(given string) string {
	return first(given, "kops-"+strconv.FormatInt(c.Now().UnixNano(), 10))
}

// stsCall posts an STS query API action (signed when creds is set) and decodes its result.
func (c *chain) stsCall(ctx context.Context, form url.Values, creds *sigv4.Credentials, result any) error {
	if c.region == "" {
		return fmt.Errorf("calling STS %s needs a region: set AWS_REGION (or region in the AWS profile)", form.Get("Action"))
	}
	form.Set("Version", "2011-06-15")
	body := form.Encode()
	ep := c.endpoint("STS", "https://sts."+c.region+"."+partition.Of(c.region).DNSSuffix, false)
	return awshttp.Retry{}.Do(ctx, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep, strings.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
		if creds != nil {
			sigv4.Signer{Service: "sts", Region: c.region}.Sign(req, *creds, sigv4.PayloadHash([]byte(body)), c.Now())
		}
		answer, err := awshttp.ReadOK(c.HTTP, req, 1<<20)
		if err != nil {
			return err
		}
		return xml.Unmarshal(answer, result)
	})
}

type stsCredentials struct {
	AccessKeyID     string    `xml:"AccessKeyId"`
	SecretAccessKey string    `xml:"SecretAccessKey"`
	SessionToken    string    `xml:"SessionToken"`
	Expiration      time.Time `xml:"Expiration"`
}

func (s stsCredentials) keys(source string) (sigv4.Credentials, error) {
	if s.AccessKeyID == "" || s.SecretAccessKey == "" {
		return sigv4.Credentials{}, fmt.Errorf("%s: STS answered without credentials", source)
	}
	return sigv4.Credentials{AccessKeyID: s.AccessKeyID, SecretAccessKey: s.SecretAccessKey, SessionToken: s.SessionToken, Expires: s.Expiration, Source: source}, nil
}

// assumeRole is profile p's role, assumed (STS AssumeRole) with the credentials base gives.
func (c *chain) assumeRole(p *profile, base provider) (provider, error) {
	if p.s["mfa_serial"] != "" {
		return nil, fmt.Errorf("AWS profile %q assumes its role with an MFA code (mfa_serial), which kops cannot prompt for: "+
			"get temporary credentials with `aws sts assume-role --serial-number ... --token-code ...` (or `aws configure export-credentials --profile %s --format env`) and export them", p.name, p.name)
	}
	role, session, external, duration := p.s["role_arn"], c.sessionName(p.s["role_session_name"]), p.s["external_id"], durationSeconds(p.s)
	source := "profile " + p.name + " (role " + role + ")"
	return func(ctx context.Context) (sigv4.Credentials, error) {
		creds, err := base(ctx)
		if err != nil {
			return creds, err
		}
		form := url.Values{"Action": {"AssumeRole"}, "RoleArn": {role}, "RoleSessionName": {session}, "DurationSeconds": {strconv.Itoa(duration)}}
		if external != "" {
			form.Set("ExternalId", external)
		}
		var out struct {
			Credentials stsCredentials `xml:"AssumeRoleResult>Credentials"`
		}
		if err := c.stsCall(ctx, form, &creds, &out); err != nil {
			return sigv4.Credentials{}, fmt.Errorf("%s: assuming the role: %w", source, err)
		}
		return out.Credentials.keys(source)
	}, nil
}

// webIdentity exchanges the token in file for role's credentials (STS AssumeRoleWithWebIdentity,
// an unsigned call): IRSA on EKS, and web_identity_token_file profiles. The file is read at each
// fetch, since its writer rotates it.
func (c *chain) webIdentity(file, role, session, from string) provider {
	session = c.sessionName(session)
	source := from + " (web identity, role " + role + ")"
	return func(ctx context.Context) (sigv4.Credentials, error) {
		token, err := os.ReadFile(file)
		if err != nil {
			return sigv4.Credentials{}, fmt.Errorf("%s: reading the web identity token: %w", source, err)
		}
		form := url.Values{"Action": {"AssumeRoleWithWebIdentity"}, "RoleArn": {role}, "RoleSessionName": {session}, "WebIdentityToken": {string(token)}}
		var out struct {
			Credentials stsCredentials `xml:"AssumeRoleWithWebIdentityResult>Credentials"`
		}
		if err := c.stsCall(ctx, form, nil, &out); err != nil {
			return sigv4.Credentials{}, fmt.Errorf("%s: %w", source, err)
		}
		return out.Credentials.keys(source)
	}
}
