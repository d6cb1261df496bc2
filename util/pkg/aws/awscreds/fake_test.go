package awscreds_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeAWS stands in for every endpoint the chain calls: STS, instance metadata, a container
// credentials endpoint and IAM Identity Center. The credentials it hands out spell what was asked
// and by whom (the role, the caller's key, the token sent), so that two chains agree only if they
// made the same calls with the same inputs.
type fakeAWS struct {
	*httptest.Server
	// imdsV1Only refuses IMDSv2 tokens, as an instance that allows only v1 does.
	imdsV1Only bool
	mu         sync.Mutex
	calls      []string
}

var (
	callerKey = regexp.MustCompile(`Credential=([^/]+)/`)
	// defaultSessionName is a role session name made up when none is configured: ours, and the
	// SDK's for AssumeRole and for web identity.
	defaultSessionName = regexp.MustCompile(`^(kops-|aws-go-sdk-)?[0-9]+$`)
)

func newFakeAWS(t *testing.T, imdsV1Only bool) *fakeAWS {
	f := &fakeAWS{imdsV1Only: imdsV1Only}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeAWS) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	f.mu.Unlock()
	expires := time.Now().Add(6 * time.Hour).UTC().Truncate(time.Second)
	switch {
	case r.Method == http.MethodPut && r.URL.Path == "/latest/api/token":
		if f.imdsV1Only {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		w.Header().Set("X-Aws-Ec2-Metadata-Token-Ttl-Seconds", r.Header.Get("X-Aws-Ec2-Metadata-Token-Ttl-Seconds"))
		fmt.Fprint(w, "imds-token")
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/latest/meta-data/iam/security-credentials/"):
		if tok := r.Header.Get("X-Aws-Ec2-Metadata-Token"); tok != "imds-token" && !(f.imdsV1Only && tok == "") {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		role := strings.TrimPrefix(r.URL.Path, "/latest/meta-data/iam/security-credentials/")
		if role == "" {
			fmt.Fprint(w, "kops-node-role\n")
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"Code": "Success", "AccessKeyId": "imds:" + role, "SecretAccessKey": "imds-secret",
			"Token": "imds-session", "Expiration": expires.Format(time.RFC3339)})
	case r.Method == http.MethodGet && r.URL.Path == "/container/creds":
		if r.Header.Get("Authorization") == "" {
			http.Error(w, `{"code":"AccessDenied","message":"no token"}`, http.StatusForbidden)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"AccessKeyId": "container:" + r.Header.Get("Authorization"), "SecretAccessKey": "container-secret",
			"Token": "container-session", "Expiration": expires.Format(time.RFC3339)})
	case r.Method == http.MethodGet && r.URL.Path == "/federation/credentials":
		q := r.URL.Query()
		_ = json.NewEncoder(w).Encode(map[string]any{"roleCredentials": map[string]any{
			"accessKeyId":     "sso:" + q.Get("account_id") + ":" + q.Get("role_name") + ":" + r.Header.Get("X-Amz-Sso_bearer_token"),
			"secretAccessKey": "sso-secret", "sessionToken": "sso-session", "expiration": expires.UnixMilli()}})
	case r.Method == http.MethodPost && r.URL.Path == "/":
		_ = r.ParseForm()
		var key string
		switch r.PostForm.Get("Action") {
		case "AssumeRole":
			m := callerKey.FindStringSubmatch(r.Header.Get("Authorization"))
			if m == nil {
				http.Error(w, "<ErrorResponse><Error><Code>MissingAuthenticationToken</Code><Message>unsigned</Message></Error></ErrorResponse>", http.StatusForbidden)
				return
			}
			key = fmt.Sprintf("role:%s:by:%s:token:%s:ext:%s:dur:%s", r.PostForm.Get("RoleArn"), m[1], r.Header.Get("X-Amz-Security-Token"),
				r.PostForm.Get("ExternalId"), r.PostForm.Get("DurationSeconds"))
		case "AssumeRoleWithWebIdentity":
			key = fmt.Sprintf("web:%s:%s", r.PostForm.Get("RoleArn"), r.PostForm.Get("WebIdentityToken"))
		default:
			http.Error(w, "<ErrorResponse><Error><Code>InvalidAction</Code><Message>no</Message></Error></ErrorResponse>", http.StatusBadRequest)
			return
		}
		if n := r.PostForm.Get("RoleSessionName"); !defaultSessionName.MatchString(n) {
			key += ":session:" + n // a name the profile gave; defaults differ by design
		}
		type creds struct {
			AccessKeyID     string `xml:"AccessKeyId"`
			SecretAccessKey string
			SessionToken    string
			Expiration      string
		}
		c := creds{key, "sts-secret", "sts-session", expires.Format(time.RFC3339)}
		w.Header().Set("Content-Type", "text/xml")
		var body any
		if r.PostForm.Get("Action") == "AssumeRole" {
			body = struct {
				XMLName xml.Name `xml:"AssumeRoleResponse"`
				C       creds    `xml:"AssumeRoleResult>Credentials"`
			}{C: c}
		} else {
			body = struct {
				XMLName xml.Name `xml:"AssumeRoleWithWebIdentityResponse"`
				C       creds    `xml:"AssumeRoleWithWebIdentityResult>Credentials"`
			}{C: c}
		}
		_ = xml.NewEncoder(w).Encode(body)
	default:
		http.NotFound(w, r)
	}
}
