// Package sigv4 signs HTTP requests with AWS Signature Version 4, as S3, STS and the other AWS
// services the state store talks to check them. It is the whole of what those calls need from
// a signer: header signing of a request whose payload hash the caller knows.
package sigv4

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Credentials are an AWS identity's keys. Expires is zero for keys that do not expire. They are
// never printed: String says only which key it is.
type Credentials struct {
	AccessKeyID     string
	SecretAccessKey string
	SessionToken    string
	Expires         time.Time
	// Source names where they came from (environment, a profile, instance metadata), for errors.
	Source string
}

// String names the key, never the secret or the token.
func (c Credentials) String() string {
	return "access key " + c.AccessKeyID + " from " + c.Source
}

// GoString keeps %#v from printing the secret too.
func (c Credentials) GoString() string { return c.String() }

// EmptyPayloadHash is the SHA-256 of nothing, the payload hash of a request without a body.
const EmptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// PayloadHash is the hex SHA-256 of body, as the x-amz-content-sha256 header and the canonical
// request carry it.
func PayloadHash(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// Signer is what differs between services: the name and region a request is signed for, and
// whether its path is escaped again (every service but S3, whose keys are escaped once).
type Signer struct {
	Service string
	Region  string
	// PathEscapedOnce is S3's rule: the canonical URI is the path as sent, not escaped again.
	PathEscapedOnce bool
}

// unsigned are the headers a proxy or the HTTP client may change on the way, so they are not
// signed (what AWS's own signers leave out too).
var unsigned = map[string]bool{
	"authorization":     true,
	"user-agent":        true,
	"x-amzn-trace-id":   true,
	"expect":            true,
	"transfer-encoding": true,
}

// Sign adds X-Amz-Date, X-Amz-Security-Token (for temporary credentials) and Authorization to
// req, signing every header it has then, its host, its content length and the query, which it
// rewrites in canonical order so that what is sent is what was signed.
func (s Signer) Sign(req *http.Request, creds Credentials, payloadHash string, at time.Time) {
	at = at.UTC()
	amzDate := at.Format("20060102T150405Z")
	day := at.Format("20060102")
	req.Header.Set("X-Amz-Date", amzDate)
	if creds.SessionToken != "" {
		req.Header.Set("X-Amz-Security-Token", creds.SessionToken)
	}
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	if h, port := splitPort(host); req.URL.Scheme == "https" && port == "443" || req.URL.Scheme == "http" && port == "80" {
		host = h
		req.Host = h // the Host header sent is the one signed
	}

	names, canonicalHeaders := canonicalHeaders(req.Header, host, req.ContentLength)
	query := canonicalQuery(req.URL.Query())
	req.URL.RawQuery = query
	uri := req.URL.EscapedPath()
	if uri == "" {
		uri = "/"
	}
	if !s.PathEscapedOnce {
		uri = escape(uri, false)
	}
	canonical := strings.Join([]string{req.Method, uri, query, canonicalHeaders, names, payloadHash}, "\n")
	scope := day + "/" + s.Region + "/" + s.Service + "/aws4_request"
	sum := sha256.Sum256([]byte(canonical))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hex.EncodeToString(sum[:])

	key := mac([]byte("AWS4"+creds.SecretAccessKey), day)
	key = mac(key, s.Region)
	key = mac(key, s.Service)
	key = mac(key, "aws4_request")
	signature := hex.EncodeToString(mac(key, toSign))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+creds.AccessKeyID+"/"+scope+
		", SignedHeaders="+names+", Signature="+signature)
}

// splitPort is host without its port, and the port ("" if none); an IPv6 host loses its brackets
// with its port, as AWS's signers write it.
func splitPort(host string) (string, string) {
	if strings.HasPrefix(host, "[") {
		end := strings.Index(host, "]:")
		if end < 0 {
			return host, ""
		}
		return host[1:end], host[end+2:]
	}
	h, port, ok := strings.Cut(host, ":")
	if !ok {
		return host, ""
	}
	return h, port
}

func mac(key []byte, data string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(data))
	return h.Sum(nil)
}

// canonicalHeaders are the signed header names (";"-joined) and their canonical lines: lowercase
// names, sorted, values with runs of spaces collapsed, repeated headers comma-joined.
func canonicalHeaders(h http.Header, host string, contentLength int64) (string, string) {
	values := map[string][]string{"host": {host}}
	if contentLength > 0 {
		values["content-length"] = []string{strconv.FormatInt(contentLength, 10)}
	}
	for k, v := range h {
		name := strings.ToLower(k)
		if unsigned[name] || name == "content-length" || name == "host" {
			continue
		}
		values[name] = append(values[name], v...)
	}
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range names {
		b.WriteString(name)
		b.WriteByte(':')
		for i, v := range values[name] {
			if i > 0 {
				b.WriteByte(',')
			}
			if name == "host" {
				b.WriteString(collapseSpaces(v)) // as AWS's signers write it: spaces, not tabs
				continue
			}
			b.WriteString(strings.TrimSpace(collapseSpaces(v)))
		}
		b.WriteByte('\n')
	}
	return strings.Join(names, ";"), b.String()
}

// collapseSpaces trims spaces at both ends and makes each run of spaces inside one.
func collapseSpaces(v string) string {
	v = strings.Trim(v, " ")
	if !strings.Contains(v, "  ") {
		return v
	}
	var b strings.Builder
	space := false
	for i := 0; i < len(v); i++ {
		if v[i] == ' ' {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteByte(v[i])
	}
	return b.String()
}

// canonicalQuery encodes every name and value (spaces as %20, not +) and sorts the pairs after
// encoding, as the specification orders them.
func canonicalQuery(q url.Values) string {
	pairs := make([]string, 0, len(q))
	for k, vs := range q {
		for _, v := range vs {
			pairs = append(pairs, Escape(k)+"="+Escape(v))
		}
	}
	slices.SortFunc(pairs, func(a, b string) int {
		ak, av, _ := strings.Cut(a, "=")
		bk, bv, _ := strings.Cut(b, "=")
		if c := strings.Compare(ak, bk); c != 0 {
			return c
		}
		return strings.Compare(av, bv)
	})
	return strings.Join(pairs, "&")
}

// Escape percent-encodes every byte of s but the unreserved ones (letters, digits, - . _ ~),
// slashes included: a query component.
func Escape(s string) string { return escape(s, true) }

// EscapePath is Escape leaving slashes as they are: an S3 key in a URL path.
func EscapePath(s string) string { return escape(s, false) }

func escape(s string, slash bool) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' || (c == '/' && !slash) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
	return b.String()
}
