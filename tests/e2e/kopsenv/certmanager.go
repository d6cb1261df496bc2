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

package kopsenv

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/tests/e2e/framework"
)

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// CertManagerCRDs are cert-manager's Issuer and Certificate CRDs as far as kops needs them: the
// test server runs no cert-manager, so these stand for it being installed (any spec is kept).
var CertManagerCRDs = []string{"issuers.cert-manager.io", "certificates.cert-manager.io"}

// InstallCertManagerCRDs installs CertManagerCRDs until the test ends, when they (and every
// Issuer and Certificate) are deleted and gone, so that other tests of the server see none.
func InstallCertManagerCRDs(t testing.TB, env *framework.Env) {
	t.Helper()
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	crds := dyn.Resource(crdResource)
	for _, kind := range []string{"Issuer", "Certificate"} {
		crd := certManagerCRD(kind)
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(crd)
		require.NoError(t, err)
		_, err = crds.Create(context.Background(), &unstructured.Unstructured{Object: u}, metav1.CreateOptions{})
		require.NoError(t, err)
		t.Cleanup(func() {
			err := crds.Delete(context.Background(), crd.Name, metav1.DeleteOptions{})
			if !apierrors.IsNotFound(err) {
				require.NoError(t, err)
			}
			require.Eventually(t, func() bool {
				_, err := crds.Get(context.Background(), crd.Name, metav1.GetOptions{})
				return apierrors.IsNotFound(err)
			}, time.Minute, 50*time.Millisecond, "CRD %s is not gone", crd.Name)
		})
		require.Eventually(t, func() bool {
			got, err := crds.Get(framework.Context(t), crd.Name, metav1.GetOptions{})
			if err != nil {
				return false
			}
			conditions, _, _ := unstructured.NestedSlice(got.Object, "status", "conditions")
			for _, c := range conditions {
				if m, ok := c.(map[string]interface{}); ok && m["type"] == "Established" && m["status"] == "True" {
					return true
				}
			}
			return false
		}, time.Minute, 20*time.Millisecond, "CRD %s is not established", crd.Name)
	}
}

func certManagerCRD(kind string) *apiextensionsv1.CustomResourceDefinition {
	plural := map[string]string{"Issuer": "issuers", "Certificate": "certificates"}[kind]
	preserve := true
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: plural + ".cert-manager.io"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "cert-manager.io",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: kind, ListKind: kind + "List", Plural: plural},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve,
				}},
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
			}},
		},
	}
}
