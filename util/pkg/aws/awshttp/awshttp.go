// Package awshttp is what every AWS call of the state store shares: reading an answer, the error
// an AWS service answers with, and retrying throttled and failed attempts with backoff, bounded as
// AWS's SDKs bound them (three attempts, jittered exponential backoff), so that a busy service
// slows a command down instead of failing it.
package awshttp

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// APIError is a service's answer that a call failed: its HTTP status, and the code and message
// of its error document (for an answer without one, such as HEAD's, the status's name).
type APIError struct {
	StatusCode int
	Code       string
	Message    string
	// Header is the answer's header: S3 names a bucket's region there even on a failure.
	Header http.Header
}

func (e *APIError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("%s (HTTP %d)", e.Code, e.StatusCode)
	}
	return fmt.Sprintf("%s: %s (HTTP %d)", e.Code, e.Message, e.StatusCode)
}

// maxErrorBody bounds how much of an error answer is read: error documents are small.
const maxErrorBody = 64 << 10

// DecodeError reads a failed answer's error document, XML (S3's <Error>, STS's <ErrorResponse>)
// or JSON (SSO's), and closes its body.
func DecodeError(resp *http.Response) *APIError {
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &APIError{StatusCode: resp.StatusCode, Header: resp.Header}
	trimmed := strings.TrimSpace(string(body))
	switch {
	case strings.HasPrefix(trimmed, "<"):
		var doc struct {
			Code    string `xml:"Code"`
			Message string `xml:"Message"`
			Error   struct {
				Code    string `xml:"Code"`
				Message string `xml:"Message"`
			} `xml:"Error"`
		}
		if xml.Unmarshal(body, &doc) == nil {
			e.Code, e.Message = doc.Code, doc.Message
			if e.Code == "" {
				e.Code, e.Message = doc.Error.Code, doc.Error.Message
			}
		}
	case strings.HasPrefix(trimmed, "{"):
		var doc struct {
			Type     string `json:"__type"`
			Code     string `json:"code"`
			Message  string `json:"message"`
			MessageU string `json:"Message"`
		}
		if json.Unmarshal(body, &doc) == nil {
			e.Code, e.Message = doc.Code, doc.Message
			if e.Code == "" {
				e.Code = doc.Type
			}
			if e.Message == "" {
				e.Message = doc.MessageU
			}
		}
	}
	if t := resp.Header.Get("X-Amzn-Errortype"); e.Code == "" && t != "" {
		e.Code = t
	}
	// Codes may carry a namespace or a detail ("aws.protocol#Code", "Code:http://..."): the name is
	// what callers compare.
	if i := strings.LastIndexByte(e.Code, '#'); i >= 0 {
		e.Code = e.Code[i+1:]
	}
	if i := strings.IndexByte(e.Code, ':'); i >= 0 {
		e.Code = e.Code[:i]
	}
	if e.Code == "" {
		e.Code = strings.ReplaceAll(http.StatusText(resp.StatusCode), " ", "")
		if e.Message == "" {
			e.Message = http.StatusText(resp.StatusCode)
		}
	}
	return e
}

// Retry bounds the attempts of one call.
type Retry struct {
	// MaxAttempts is how many times a call is tried in all; 0 is 3, AWS's SDKs' default.
	MaxAttempts int
	// Sleep waits between attempts; nil waits for real (tests pass their own).
	Sleep func(context.Context, time.Duration) error
}

const (
	defaultMaxAttempts = 3
	// baseDelay and throttleDelay start the backoff, maxBackoff caps it, as AWS's standard retry
	// mode does: a throttled call backs off more, since the service asked for less.
	baseDelay     = 50 * time.Millisecond
	throttleDelay = time.Second
	maxBackoff    = 20 * time.Second
)

// Do calls attempt until it succeeds, fails for good, the attempts are spent, or ctx is done.
// The last error is returned as it is.
func (r Retry) Do(ctx context.Context, attempt func(context.Context) error) error {
	n := r.MaxAttempts
	if n <= 0 {
		n = defaultMaxAttempts
	}
	sleep := r.Sleep
	if sleep == nil {
		sleep = sleepCtx
	}
	for i := 0; ; i++ {
		err := attempt(ctx)
		if err == nil || i+1 >= n || ctx.Err() != nil {
			return err
		}
		retry, throttled := Retryable(err)
		if !retry {
			return err
		}
		if sleep(ctx, backoff(i, throttled)) != nil {
			return err
		}
	}
}

// backoff is the wait before retry i (0 for the first): a random part of base·2^i, capped.
func backoff(i int, throttled bool) time.Duration {
	base := baseDelay
	if throttled {
		base = throttleDelay
	}
	d := base << min(i, 20)
	if d > maxBackoff || d <= 0 {
		d = maxBackoff
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	frac := float64(binary.LittleEndian.Uint64(b[:])>>11) / (1 << 53)
	return time.Duration(frac * float64(d))
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// throttleCodes and transientCodes are the error codes AWS services answer when a retry may
// succeed (the sets AWS's SDKs retry on); 500, 502, 503 and 504 answers are retried whatever
// their code.
var (
	throttleCodes = map[string]bool{
		"Throttling": true, "ThrottlingException": true, "ThrottledException": true,
		"RequestThrottledException": true, "TooManyRequestsException": true,
		"ProvisionedThroughputExceededException": true, "TransactionInProgressException": true,
		"RequestLimitExceeded": true, "BandwidthLimitExceeded": true, "LimitExceededException": true,
		"RequestThrottled": true, "SlowDown": true, "PriorRequestNotComplete": true,
		"EC2ThrottledException": true,
	}
	transientCodes  = map[string]bool{"RequestTimeout": true, "RequestTimeoutException": true}
	transientStatus = map[int]bool{500: true, 502: true, 503: true, 504: true}
)

// Failure is the kind of a failed call's error, as both retrying and reporting it need to know.
type Failure int

const (
	// Other is an error of none of the kinds below.
	Other Failure = iota
	// Answered is the service's answer: an *APIError.
	Answered
	// Cancelled is a cancelled context.
	Cancelled
	// TimedOut is a context whose deadline passed.
	TimedOut
	// Unresolvable is a host name that does not resolve.
	Unresolvable
	// Certificate is a server certificate that was refused (unknown authority, wrong host).
	Certificate
	// Unreachable is a connection refused, reset or cut short, or an attempt's own timeout.
	Unreachable
)

// Classify says what kind of failure err is. The HTTP client's *url.Error is looked through, not
// taken for a network failure itself (it claims to be a net.Error whatever it wraps, a refused
// certificate included).
func Classify(err error) Failure {
	var apiErr *APIError
	switch {
	case err == nil:
		return Other
	case errors.As(err, &apiErr):
		return Answered
	case errors.Is(err, context.Canceled):
		return Cancelled
	case errors.Is(err, context.DeadlineExceeded):
		return TimedOut
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return Unresolvable
	}
	var certErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	if errors.As(err, &certErr) || errors.As(err, &unknownCA) || errors.As(err, &hostErr) {
		return Certificate
	}
	cause := WithoutURL(err)
	var netErr net.Error
	if errors.As(cause, &netErr) || strings.Contains(cause.Error(), "connection reset") ||
		errors.Is(cause, io.ErrUnexpectedEOF) || errors.Is(cause, io.EOF) {
		return Unreachable
	}
	return Other
}

// Retryable says whether a call that failed with err may succeed if tried again, and whether the
// service throttled it. A cancelled or timed-out context is final; so is a name that does not
// resolve, and a refused certificate (refused the same way each time). Other network failures
// (refused, reset) are retried: a server may be starting.
func Retryable(err error) (retry, throttled bool) {
	switch Classify(err) {
	case Answered:
		var apiErr *APIError
		errors.As(err, &apiErr)
		if throttleCodes[apiErr.Code] {
			return true, true
		}
		return transientStatus[apiErr.StatusCode] || transientCodes[apiErr.Code], false
	case Unreachable:
		return true, false
	}
	return false, false
}

// ReadOK sends req and reads an answer of status 200 OK, at most limit bytes of it; any other
// status is the service's error (DecodeError). A failure to send is returned without the
// client's *url.Error around it (WithoutURL).
func ReadOK(c *http.Client, req *http.Request, limit int64) ([]byte, error) {
	resp, err := c.Do(req)
	if err != nil {
		return nil, WithoutURL(err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, DecodeError(resp)
	}
	defer resp.Body.Close()
	return io.ReadAll(io.LimitReader(resp.Body, limit))
}

// WithoutURL is err without the HTTP client's *url.Error around it: its message repeats the
// request's URL, query included, where a credential endpoint may carry a token. What is left is
// the cause (a refused connection, a timeout, a refused certificate), which says what happened.
func WithoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// RedactURL is a URL as it may be shown: without user information (a password), query (a token,
// a signature) and fragment. A string that does not parse is not shown at all.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(not a URL)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}
