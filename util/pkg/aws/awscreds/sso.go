package awscreds

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/kops/util/pkg/aws/partition"
	"k8s.io/kops/util/pkg/aws/sigv4"
)

// sso is an IAM Identity Center profile's role credentials (GetRoleCredentials), with the access
// token `aws sso login` cached. An expired token is not refreshed here: the error says to log in.
func (c *chain) sso(p *profile) (provider, error) {
	s := p.s
	region, startURL, cacheKey := s["sso_region"], s["sso_start_url"], s["sso_start_url"]
	var missing []string
	if sess := s["sso_session"]; sess != "" {
		ss := c.files.other["sso-session "+strings.TrimSpace(sess)]
		if ss["sso_region"] == "" {
			missing = append(missing, "sso_region")
		}
		if ss["sso_start_url"] == "" {
			missing = append(missing, "sso_start_url")
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("AWS profile %q is configured to use SSO but [sso-session %s] lacks %s", p.name, sess, strings.Join(missing, ", "))
		}
		if region != "" && region != ss["sso_region"] {
			return nil, fmt.Errorf("sso_region in AWS profile %q must match sso_region in [sso-session %s]", p.name, sess)
		}
		if startURL != "" && startURL != ss["sso_start_url"] {
			return nil, fmt.Errorf("sso_start_url in AWS profile %q must match sso_start_url in [sso-session %s]", p.name, sess)
		}
		region, startURL, cacheKey = ss["sso_region"], ss["sso_start_url"], sess
	} else {
		for _, k := range []string{"sso_region", "sso_start_url", "sso_account_id", "sso_role_name"} {
			if s[k] == "" {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("AWS profile %q is configured to use SSO but lacks %s", p.name, strings.Join(missing, ", "))
		}
	}
	account, role := s["sso_account_id"], s["sso_role_name"]
	sum := sha1.Sum([]byte(cacheKey))
	cacheFile := filepath.Join(c.env["HOME"], ".aws", "sso", "cache", hex.EncodeToString(sum[:])+".json")
	source := "AWS profile " + p.name + " (IAM Identity Center)"
	login := fmt.Sprintf("run `aws sso login --profile %s`", p.name)
	return func(ctx context.Context) (sigv4.Credentials, error) {
		data, err := os.ReadFile(cacheFile)
		if err != nil {
			return sigv4.Credentials{}, fmt.Errorf("%s: no cached sign-in (%v): %s", source, err, login)
		}
		var tok struct {
			AccessToken string    `json:"accessToken"`
			ExpiresAt   time.Time `json:"expiresAt"`
		}
		if err := json.Unmarshal(data, &tok); err != nil || tok.AccessToken == "" {
			return sigv4.Credentials{}, fmt.Errorf("%s: the cached sign-in %s is unreadable: %s", source, cacheFile, login)
		}
		if !tok.ExpiresAt.After(c.Now()) {
			return sigv4.Credentials{}, fmt.Errorf("%s: the sign-in expired at %s (kops does not refresh it): %s",
				source, tok.ExpiresAt.UTC().Format(time.RFC3339), login)
		}
		u := c.endpoint("SSO", "https://portal.sso."+region+"."+partition.Of(region).DNSSuffix, false) + "/federation/credentials?" +
			url.Values{"account_id": {account}, "role_name": {role}}.Encode()
		var out struct {
			RoleCredentials struct {
				AccessKeyID     string `json:"accessKeyId"`
				SecretAccessKey string `json:"secretAccessKey"`
				SessionToken    string `json:"sessionToken"`
				Expiration      int64  `json:"expiration"`
			} `json:"roleCredentials"`
		}
		if err := c.getJSON(ctx, u, http.Header{"X-Amz-Sso_bearer_token": {tok.AccessToken}}, &out); err != nil {
			return sigv4.Credentials{}, fmt.Errorf("%s: role %s of account %s: %w", source, role, account, err)
		}
		rc := out.RoleCredentials
		if rc.AccessKeyID == "" || rc.SecretAccessKey == "" {
			return sigv4.Credentials{}, fmt.Errorf("%s: IAM Identity Center answered without credentials", source)
		}
		return sigv4.Credentials{AccessKeyID: rc.AccessKeyID, SecretAccessKey: rc.SecretAccessKey, SessionToken: rc.SessionToken,
			Expires: time.UnixMilli(rc.Expiration), Source: source}, nil
	}, nil
}
