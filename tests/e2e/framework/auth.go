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

package framework

import (
	"context"
	"fmt"
	"slices"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/client-go/rest"
)

// Impersonate returns a config whose requests run as user with groups: the
// admin impersonates them, so the server authorizes each request as that
// identity (and adds system:authenticated to its groups).
func (e *Env) Impersonate(userName string, groups ...string) *rest.Config {
	cfg := rest.CopyConfig(e.Config)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: userName, Groups: slices.Clone(groups)}
	return cfg
}

// ServiceAccountUser returns the user name and groups the server gives the
// service account namespace/name.
func ServiceAccountUser(namespace, name string) (string, []string) {
	return serviceaccount.MakeUsername(namespace, name), serviceaccount.MakeGroupNames(namespace)
}

// ServiceAccountConfig returns a config whose requests run as the service
// account namespace/name, with its groups. The account need not exist.
func (e *Env) ServiceAccountConfig(namespace, name string) *rest.Config {
	userName, groups := ServiceAccountUser(namespace, name)
	return e.Impersonate(userName, groups...)
}

// SubjectAccessReview asks the server whether user, in groups, may do verb on
// the resource (group "" is the core API group; namespace "" means
// cluster-scoped or all namespaces; name "" means any). As for a real request
// by that identity, system:authenticated is added to groups. It returns
// whether the request is allowed and the authorizer's reason.
func (e *Env) SubjectAccessReview(userName string, groups []string, verb, group, resource, subresource, namespace, name string) (bool, string, error) {
	groups = slices.Clone(groups)
	if userName != user.Anonymous && !slices.Contains(groups, user.AllAuthenticated) {
		groups = append(groups, user.AllAuthenticated)
	}
	review := &authorizationv1.SubjectAccessReview{
		Spec: authorizationv1.SubjectAccessReviewSpec{
			User:   userName,
			Groups: groups,
			ResourceAttributes: &authorizationv1.ResourceAttributes{
				Verb:        verb,
				Group:       group,
				Resource:    resource,
				Subresource: subresource,
				Namespace:   namespace,
				Name:        name,
			},
		},
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	got, err := e.Clientset.AuthorizationV1().SubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
	if err != nil {
		return false, "", fmt.Errorf("SubjectAccessReview for %s %s %s/%s: %w", userName, verb, group, resource, err)
	}
	reason := got.Status.Reason
	if got.Status.EvaluationError != "" {
		reason = fmt.Sprintf("%s (evaluation error: %s)", reason, got.Status.EvaluationError)
	}
	return got.Status.Allowed && !got.Status.Denied, reason, nil
}

// TokenConfig returns a config carrying a real token of the service account namespace/name,
// issued by the server's TokenRequest API for an hour, and nothing of the admin's credentials:
// its requests are authenticated as the account itself, not impersonated.
func (e *Env) TokenConfig(ctx context.Context, namespace, name string) (*rest.Config, error) {
	expiry := int64(3600)
	tr, err := e.Clientset.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, name,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &expiry}}, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("TokenRequest for ServiceAccount %s/%s: %w", namespace, name, err)
	}
	cfg := rest.AnonymousClientConfig(e.Config)
	cfg.BearerToken = tr.Status.Token
	return cfg, nil
}
