package awshttp_test

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/aws/awshttp"
)

// TestRetry: throttling, 5xx and dropped connections are tried again up to the bound; answers that
// will not change (a denial, a missing key, a refused certificate, a name that does not resolve,
// a cancelled context) are not; the waits grow and throttling waits longer.
func TestRetry(t *testing.T) {
	api := func(status int, code string) error { return &awshttp.APIError{StatusCode: status, Code: code} }
	tests := []struct {
		name      string
		err       error
		attempts  int
		throttled bool
	}{
		{"SlowDown", api(503, "SlowDown"), 3, true},
		{"Throttling", api(400, "Throttling"), 3, true},
		{"internal error", api(500, "InternalError"), 3, false},
		{"bad gateway, no code", api(502, "BadGateway"), 3, false},
		{"request timeout", api(400, "RequestTimeout"), 3, false},
		{"connection refused", &url.Error{Op: "Get", URL: "http://x", Err: &net.OpError{Op: "dial", Err: errors.New("connection refused")}}, 3, false},
		{"connection reset", fmt.Errorf("read: connection reset by peer"), 3, false},
		{"cut short", io.ErrUnexpectedEOF, 3, false},
		{"access denied", api(403, "AccessDenied"), 1, false},
		{"no such key", api(404, "NoSuchKey"), 1, false},
		{"precondition", api(412, "PreconditionFailed"), 1, false},
		{"unknown host", &url.Error{Op: "Get", URL: "http://x", Err: &net.DNSError{Err: "no such host", IsNotFound: true}}, 1, false},
		{"certificate", &url.Error{Op: "Get", URL: "https://x", Err: &tls.CertificateVerificationError{Err: errors.New("bad")}}, 1, false},
		{"deadline", fmt.Errorf("get: %w", context.DeadlineExceeded), 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			var waits []time.Duration
			r := awshttp.Retry{Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
			err := r.Do(context.Background(), func(context.Context) error { calls++; return tt.err })
			assert.Equal(t, tt.err, err, "the last error, as it is")
			assert.Equal(t, tt.attempts, calls)
			require.Len(t, waits, tt.attempts-1)
			for i, w := range waits {
				limit := 50 * time.Millisecond << i
				if tt.throttled {
					limit = time.Second << i
				}
				assert.LessOrEqual(t, w, limit, "wait %d", i)
			}
		})
	}
	t.Run("success ends it", func(t *testing.T) {
		calls := 0
		err := awshttp.Retry{Sleep: func(context.Context, time.Duration) error { return nil }}.Do(context.Background(), func(context.Context) error {
			calls++
			if calls < 2 {
				return api(503, "SlowDown")
			}
			return nil
		})
		require.NoError(t, err)
		assert.Equal(t, 2, calls)
	})
}

// TestDecodeError reads the error documents of S3 (XML), STS (XML, wrapped), IAM Identity Center
// (JSON) and an answer without one (HEAD), and names the code callers compare.
func TestDecodeError(t *testing.T) {
	tests := []struct {
		name, body string
		status     int
		header     http.Header
		code, msg  string
	}{
		{"s3", `<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The key does not exist</Message><Key>a</Key></Error>`, 404, nil, "NoSuchKey", "The key does not exist"},
		{"sts", `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>not allowed</Message></Error></ErrorResponse>`, 403, nil, "AccessDenied", "not allowed"},
		{"json", `{"__type":"com.amazonaws.sso#UnauthorizedException","message":"expired"}`, 401, nil, "UnauthorizedException", "expired"},
		{"json code", `{"code":"AccessDenied","message":"no token"}`, 403, nil, "AccessDenied", "no token"},
		{"header type", ``, 400, http.Header{"X-Amzn-Errortype": {"ValidationException:http://internal"}}, "ValidationException", ""},
		{"head", ``, 412, nil, "PreconditionFailed", "Precondition Failed"},
		{"not xml", `<html>oops`, 502, nil, "BadGateway", "Bad Gateway"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.header
			if h == nil {
				h = http.Header{}
			}
			e := awshttp.DecodeError(&http.Response{StatusCode: tt.status, Header: h, Body: io.NopCloser(strings.NewReader(tt.body))})
			assert.Equal(t, tt.code, e.Code)
			assert.Equal(t, tt.msg, e.Message)
			assert.Equal(t, tt.status, e.StatusCode)
		})
	}
}

// ReadOK gives a 200 answer's body up to its limit, and any other answer as the service's error.
func TestReadOK(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/denied" {
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte("<Error><Code>AccessDenied</Code><Message>no</Message></Error>"))
			return
		}
		_, _ = w.Write([]byte("0123456789"))
	}))
	defer srv.Close()
	cases := []struct {
		path, want, wantErr string
	}{
		{"/ok", "01234", ""},
		{"/denied", "", "AccessDenied: no (HTTP 403)"},
	}
	for _, tc := range cases {
		req, err := http.NewRequest(http.MethodGet, srv.URL+tc.path, nil)
		require.NoError(t, err)
		got, err := awshttp.ReadOK(srv.Client(), req, 5)
		if tc.wantErr != "" {
			var apiErr *awshttp.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.EqualError(t, err, tc.wantErr)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tc.want, string(got))
	}
}

// TestClassify: the HTTP client's *url.Error, a net.Error whatever it wraps, is looked through,
// so a refused certificate is not taken for an unreachable server.
func TestClassify(t *testing.T) {
	wrap := func(err error) error { return &url.Error{Op: "Get", URL: "https://x/?tok=t", Err: err} }
	tests := []struct {
		name string
		err  error
		want awshttp.Failure
	}{
		{"answer", fmt.Errorf("call: %w", &awshttp.APIError{StatusCode: 404, Code: "NoSuchKey"}), awshttp.Answered},
		{"cancelled", wrap(context.Canceled), awshttp.Cancelled},
		{"deadline", wrap(context.DeadlineExceeded), awshttp.TimedOut},
		{"unknown host", wrap(&net.DNSError{Err: "no such host", IsNotFound: true}), awshttp.Unresolvable},
		{"certificate", wrap(&tls.CertificateVerificationError{Err: errors.New("bad")}), awshttp.Certificate},
		{"refused", wrap(&net.OpError{Op: "dial", Err: errors.New("connection refused")}), awshttp.Unreachable},
		{"cut short", wrap(io.ErrUnexpectedEOF), awshttp.Unreachable},
		{"not a network failure", wrap(errors.New("http: server gave HTTP response to HTTPS client")), awshttp.Other},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, awshttp.Classify(tt.err))
		})
	}
}

// TestRedactURL: a URL is shown without what it can carry besides where it is.
func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://user:secret@s3.example.com:9000/base?X-Amz-Signature=abc#f", "https://s3.example.com:9000/base"},
		{"http://127.0.0.1:1/creds", "http://127.0.0.1:1/creds"},
		{"http://user:secret@[::1", "(not a URL)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, awshttp.RedactURL(tt.in), tt.in)
	}
}
