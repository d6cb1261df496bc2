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

package validation

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// MaxResponseBytes bounds one answer: client-go reads it whole into memory, and no stored object
// exceeds the API server's 1.5 MiB limit.
const MaxResponseBytes = 16 << 20

// NewValidator bounds every answer by MaxResponseBytes; the caller sizes config, and Validate's
// context is the deadline.
func NewValidator(config *rest.Config) (*Validator, error) {
	config = rest.CopyConfig(config)
	config.Wrap(func(next http.RoundTripper) http.RoundTripper {
		return &boundedBodies{next: next, limit: MaxResponseBytes}
	})
	httpClient, err := rest.HTTPClientFor(config)
	if err != nil {
		return nil, fmt.Errorf("creating a client for %s: %w", config.Host, err)
	}
	dyn, err := dynamic.NewForConfigAndClient(config, httpClient)
	if err != nil {
		return nil, fmt.Errorf("creating a client for %s: %w", config.Host, err)
	}
	discoveryConfig := rest.CopyConfig(config)
	discoveryConfig.GroupVersion = &schema.GroupVersion{}
	statusScheme := runtime.NewScheme()
	metav1.AddToGroupVersion(statusScheme, schema.GroupVersion{Version: "v1"})
	discoveryConfig.NegotiatedSerializer = serializer.NewCodecFactory(statusScheme).WithoutConversion()
	discovery, err := rest.UnversionedRESTClientForConfigAndClient(discoveryConfig, httpClient)
	if err != nil {
		return nil, fmt.Errorf("creating a client for %s: %w", config.Host, err)
	}
	return &Validator{Dynamic: dyn, Discovery: discovery, Server: config.Host, RequestTimeout: config.Timeout}, nil
}

// discoveryPath, unlike /version, is denied to unauthenticated users, so bad credentials fail once here.
const discoveryPath = "/api"

func (v *Validator) probe(ctx context.Context) error {
	result := v.Discovery.Get().AbsPath(discoveryPath).Do(ctx)
	data, err := result.Raw()
	if err != nil {
		return v.unreachable(ctx, "GET "+discoveryPath, result.Error())
	}
	versions := &metav1.APIVersions{}
	if err := json.Unmarshal(data, versions); err != nil || versions.Kind != "APIVersions" {
		return &UnreachableError{Server: v.Server, Request: "GET " + discoveryPath,
			Err: fmt.Errorf("the answer is not a Kubernetes API server's discovery document (%s)", excerpt(data))}
	}
	return nil
}

func excerpt(data []byte) string {
	const n = 80
	if len(data) > n {
		return fmt.Sprintf("%q...", data[:n])
	}
	return fmt.Sprintf("%q", data)
}

// boundedBodies reads each answer whole, up to limit, before client-go sees it, so an oversized answer
// is a request error (client-go logs body read errors itself). Validation makes no streaming requests.
type boundedBodies struct {
	next  http.RoundTripper
	limit int64
}

type ErrResponseTooLarge struct{ Limit int64 }

func (e *ErrResponseTooLarge) Error() string {
	return fmt.Sprintf("the answer exceeds %d MiB, far more than any object validation reads", e.Limit>>20)
}

func (t *boundedBodies) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.ContentLength > t.limit {
		return nil, &ErrResponseTooLarge{Limit: t.limit}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, t.limit+1))
	switch {
	case err != nil && req.Context().Err() != nil:
		return nil, fmt.Errorf("reading the answer: %w", context.Cause(req.Context()))
	case err != nil:
		return nil, fmt.Errorf("reading the answer: %w", err)
	case int64(len(data)) > t.limit:
		return nil, &ErrResponseTooLarge{Limit: t.limit}
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	resp.ContentLength = int64(len(data))
	return resp, nil
}

func (t *boundedBodies) WrappedRoundTripper() http.RoundTripper { return t.next }
