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
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// What cert-manager does for a cluster: it issues the serving certificate of an APIService that
// takes its CA from a Certificate (metrics-server's secure mode), from the Issuer channels creates
// for an addon with needsPKI. This build does not deploy cert-manager, so validation names it when
// its CRDs are missing, and names the Issuer or Certificate that is missing or not Ready.

// InjectCAFromAnnotation is cert-manager's cainjector annotation: namespace/name of the Certificate
// whose CA it copies into the object.
const InjectCAFromAnnotation = "cert-manager.io/inject-ca-from"

var (
	crdResource         = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	issuerResource      = schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "issuers"}
	certificateResource = schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "certificates"}
	certManagerCRDs     = []string{"issuers.cert-manager.io", "certificates.cert-manager.io"}
)

// pkiNamespace holds every addon's Issuer, as kops's channels makes it.
const pkiNamespace = "kube-system"

// certManagerNeeds is what needs cert-manager, as validation found it.
type certManagerNeeds struct {
	issuers      []string // addons with needsPKI
	certificates []string // namespace/name, from APIServices' inject-ca-from
	needers      []string // in words, for the message
}

// checkCertManager checks cert-manager's CRDs once, then each Issuer and Certificate needed.
func (a *attempt) checkCertManager(n certManagerNeeds) []Check {
	if len(n.needers) == 0 {
		return nil
	}
	var checks []Check
	installed := true
	for _, crd := range certManagerCRDs {
		c := Check{Kind: "CustomResourceDefinition", Name: crd}
		_, err := a.read(crdResource, "", crd)
		switch {
		case apierrors.IsNotFound(err):
			installed = false
			c.Message = fmt.Sprintf("missing: cert-manager is not installed, and %s need it: install cert-manager on the cluster (this build does not deploy it), then run channels apply; or run without it (metrics-server: spec.metricsServer.insecure: true)",
				strings.Join(n.needers, ", "))
		case err != nil:
			installed = false
			c.Message = err.Error()
		default:
			c.OK, c.Message = true, "installed"
		}
		checks = append(checks, c)
	}
	if !installed {
		return checks
	}
	for _, addon := range n.issuers {
		checks = append(checks, a.checkReady(issuerResource, "Issuer", pkiNamespace, addon,
			fmt.Sprintf("channels creates it for needsPKI, with its CA in Secret %s/%s-ca: run channels apply", pkiNamespace, addon)))
	}
	for _, ref := range n.certificates {
		namespace, name, _ := strings.Cut(ref, "/")
		checks = append(checks, a.checkReady(certificateResource, "Certificate", namespace, name,
			"the addon's manifest holds it: run channels apply"))
	}
	return checks
}

// checkReady requires cert-manager's Ready condition True on the object; whenMissing says what
// makes it.
func (a *attempt) checkReady(gvr schema.GroupVersionResource, kind, namespace, name, whenMissing string) Check {
	c := Check{Kind: kind, Name: namespace + "/" + name}
	u, err := a.read(gvr, namespace, name)
	switch {
	case apierrors.IsNotFound(err):
		c.Message = "missing: " + whenMissing
		return c
	case err != nil:
		c.Message = err.Error()
		return c
	}
	conditions, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, raw := range conditions {
		cond, _ := raw.(map[string]interface{})
		if cond["type"] != "Ready" {
			continue
		}
		if cond["status"] == "True" {
			c.OK, c.Message = true, "ready"
			return c
		}
		c.Message = strings.TrimSpace(fmt.Sprintf("not ready: %v %v", orEmpty(cond["reason"]), orEmpty(cond["message"])))
		return c
	}
	c.Message = "not ready: cert-manager has reported no Ready condition (is cert-manager running?)"
	return c
}

func orEmpty(v interface{}) string {
	s, _ := v.(string)
	return s
}
