package awscreds

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"k8s.io/kops/util/pkg/aws/awshttp"
	"k8s.io/kops/util/pkg/aws/sigv4"
)

// ecsEndpoint is where AWS_CONTAINER_CREDENTIALS_RELATIVE_URI points, on ECS.
const ecsEndpoint = "http://169.254.170.2"

// jsonCredentials is the answer of container endpoints and credential_process.
type jsonCredentials struct {
	AccessKeyID     string    `json:"AccessKeyId"`
	SecretAccessKey string    `json:"SecretAccessKey"`
	Token           string    `json:"Token"`
	SessionToken    string    `json:"SessionToken"`
	Expiration      time.Time `json:"Expiration"`
	Code            string    `json:"Code"`
	Message         string    `json:"Message"`
	Version         int       `json:"Version"`
}

func (j jsonCredentials) keys(source string) (sigv4.Credentials, error) {
	if j.AccessKeyID == "" || j.SecretAccessKey == "" {
		return sigv4.Credentials{}, fmt.Errorf("%s answered without an access key and secret", source)
	}
	return sigv4.Credentials{AccessKeyID: j.AccessKeyID, SecretAccessKey: j.SecretAccessKey, SessionToken: first(j.Token, j.SessionToken), Expires: j.Expiration, Source: source}, nil
}

// getJSON GETs u with headers, retried, and decodes the JSON answer into out.
func (c *chain) getJSON(ctx context.Context, u string, header http.Header, out any) error {
	body, err := c.get(ctx, u, header, 0)
	if err != nil {
		return err
	}
	return json.Unmarshal(body, out)
}

// get GETs u with headers, retried, each attempt bounded by timeout when it is not 0, and returns
// the answer's body (at most 1 MiB read) or the service's error.
func (c *chain) get(ctx context.Context, u string, header http.Header, timeout time.Duration) ([]byte, error) {
	var body []byte
	err := awshttp.Retry{}.Do(ctx, func(ctx context.Context) error {
		if timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return err
		}
		for k, v := range header {
			req.Header[k] = v
		}
		body, err = awshttp.ReadOK(c.HTTP, req, 1<<20)
		return err
	})
	return body, err
}

func (c *chain) container(u string) provider {
	tokenFile, token := c.env["AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"], c.env["AWS_CONTAINER_AUTHORIZATION_TOKEN"]
	source := "container credentials at " + awshttp.RedactURL(u)
	return func(ctx context.Context) (sigv4.Credentials, error) {
		h := http.Header{"Accept": {"application/json"}}
		auth := token
		if tokenFile != "" {
			data, err := os.ReadFile(tokenFile)
			if err != nil {
				return sigv4.Credentials{}, fmt.Errorf("%s: reading AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE: %w", source, err)
			}
			auth = string(data)
		}
		if auth != "" {
			if strings.ContainsAny(auth, "\r\n") {
				return sigv4.Credentials{}, fmt.Errorf("%s: the authorization token has a line break", source)
			}
			h.Set("Authorization", auth)
		}
		var out jsonCredentials
		if err := c.getJSON(ctx, u, h, &out); err != nil {
			return sigv4.Credentials{}, fmt.Errorf("%s: %w", source, err)
		}
		return out.keys(source)
	}
}

// localContainer is container for AWS_CONTAINER_CREDENTIALS_FULL_URI: over plain HTTP, only to a
// loopback address or the ECS and EKS agents' addresses, so that credentials are not fetched from
// (nor a token sent to) anywhere else.
func (c *chain) localContainer(u string) (provider, error) {
	parsed, err := url.Parse(u)
	if err != nil {
		// Not the parser's error: it quotes the whole URI, password and query included.
		return nil, errors.New("AWS_CONTAINER_CREDENTIALS_FULL_URI is not a URL (the form is http://HOST[:PORT]/PATH)")
	}
	host := parsed.Hostname()
	if host == "" {
		return nil, errors.New("AWS_CONTAINER_CREDENTIALS_FULL_URI names no host")
	}
	if parsed.Scheme == "http" {
		ips := []string{host}
		if net.ParseIP(host) == nil {
			if ips, err = net.LookupHost(host); err != nil {
				return nil, fmt.Errorf("AWS_CONTAINER_CREDENTIALS_FULL_URI: resolving %q: %w", host, err)
			}
		}
		for _, s := range ips {
			if ip := net.ParseIP(s); ip == nil || !containerHost(ip) {
				return nil, fmt.Errorf("AWS_CONTAINER_CREDENTIALS_FULL_URI: plain http is allowed only to a loopback address or the ECS or EKS agent, not %q", host)
			}
		}
	}
	return c.container(u), nil
}

func containerHost(ip net.IP) bool {
	return ip.IsLoopback() || ip.Equal(net.ParseIP("169.254.170.2")) || ip.Equal(net.ParseIP("169.254.170.23")) || ip.Equal(net.ParseIP("fd00:ec2::23"))
}

// instanceRole is the EC2 instance's role credentials from instance metadata (IMDSv2: a session
// token first; IMDSv1 where the token call is refused, unless v1 is disabled).
func (c *chain) instanceRole(p *profile) provider {
	return func(ctx context.Context) (sigv4.Credentials, error) {
		if strings.EqualFold(c.env["AWS_EC2_METADATA_DISABLED"], "true") {
			return sigv4.Credentials{}, c.noCredentials(p, "instance metadata is disabled (AWS_EC2_METADATA_DISABLED=true)")
		}
		base := c.imdsEndpoint(p)
		source := "EC2 instance metadata at " + awshttp.RedactURL(base)
		token, err := c.imdsToken(ctx, base, p)
		if err != nil {
			return sigv4.Credentials{}, c.noCredentials(p, fmt.Sprintf("%s: %v", source, err))
		}
		h := http.Header{}
		if token != "" {
			h.Set("X-Aws-Ec2-Metadata-Token", token)
		}
		roles, err := c.imdsGet(ctx, base+"/latest/meta-data/iam/security-credentials/", h)
		if err != nil {
			return sigv4.Credentials{}, c.noCredentials(p, fmt.Sprintf("%s: the instance's role: %v", source, err))
		}
		role := strings.TrimSpace(strings.SplitN(strings.TrimSpace(roles), "\n", 2)[0])
		if role == "" {
			return sigv4.Credentials{}, c.noCredentials(p, source+": the instance has no IAM role")
		}
		body, err := c.imdsGet(ctx, base+"/latest/meta-data/iam/security-credentials/"+url.PathEscape(role), h)
		if err != nil {
			return sigv4.Credentials{}, fmt.Errorf("%s: credentials of role %s: %w", source, role, err)
		}
		var out jsonCredentials
		if err := json.Unmarshal([]byte(body), &out); err != nil {
			return sigv4.Credentials{}, fmt.Errorf("%s: credentials of role %s: %w", source, role, err)
		}
		if !strings.EqualFold(out.Code, "Success") {
			return sigv4.Credentials{}, fmt.Errorf("%s: credentials of role %s: %s: %s", source, role, out.Code, out.Message)
		}
		creds, err := out.keys(source + " (role " + role + ")")
		if err == nil && creds.Expires.After(c.Now().Add(time.Hour)) {
			creds.Expires = c.Now().Add(time.Hour) // fetched again within the hour, as the SDKs do
		}
		return creds, err
	}
}

// noCredentials says that the chain found nothing, listing where it looked.
func (c *chain) noCredentials(p *profile, why string) error {
	return fmt.Errorf("no AWS credentials found: not in AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_WEB_IDENTITY_TOKEN_FILE, "+
		"AWS profile %q, or container credentials; and %s. Set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or configure an AWS profile", p.name, why)
}

func (c *chain) imdsEndpoint(p *profile) string {
	ep := first(c.env["AWS_EC2_METADATA_SERVICE_ENDPOINT"], c.top.s["ec2_metadata_service_endpoint"])
	if ep == "" {
		ep = "http://169.254.169.254"
		if strings.EqualFold(first(c.env["AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE"], c.top.s["ec2_metadata_service_endpoint_mode"]), "IPv6") {
			ep = "http://[fd00:ec2::254]"
		}
	}
	return strings.TrimSuffix(ep, "/")
}

// imdsTimeout bounds each instance metadata attempt: it answers within milliseconds where it
// exists, and off EC2 nothing answers at all (AWS's SDKs allow 250 ms to connect and 500 ms for
// the answer), so a laptop without credentials fails in seconds, not at the request's timeout.
const imdsTimeout = time.Second

// imdsToken is an IMDSv2 session token; "" means IMDSv1, used where the token call is refused
// (403, 404, 405) or unanswered, unless AWS_EC2_METADATA_V1_DISABLED is true.
func (c *chain) imdsToken(ctx context.Context, base string, p *profile) (string, error) {
	v1Disabled := strings.EqualFold(first(c.env["AWS_EC2_METADATA_V1_DISABLED"], c.top.s["ec2_metadata_v1_disabled"]), "true")
	var token string
	err := awshttp.Retry{}.Do(ctx, func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, imdsTimeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, base+"/latest/api/token", nil)
		if err != nil {
			return err
		}
		req.Header.Set("X-Aws-Ec2-Metadata-Token-Ttl-Seconds", "300")
		data, err := awshttp.ReadOK(c.HTTP, req, 4096)
		token = string(data)
		return err
	})
	if err == nil {
		return token, nil
	}
	var apiErr *awshttp.APIError
	if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusBadRequest || v1Disabled {
		return "", err
	}
	return "", nil
}

// imdsGet GETs an instance metadata path, each attempt bounded as the SDKs bound it.
func (c *chain) imdsGet(ctx context.Context, u string, h http.Header) (string, error) {
	body, err := c.get(ctx, u, h, imdsTimeout)
	return string(body), err
}
