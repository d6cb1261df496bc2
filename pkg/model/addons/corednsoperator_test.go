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

package addons

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/addons/coredns"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model"
)

const operatorDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: coredns-operator
  namespace: coredns-operator-system
spec:
  selector: {matchLabels: {k8s-app: coredns-operator}}
  template:
    metadata: {labels: {k8s-app: coredns-operator}}
    spec:
      serviceAccountName: %SA%
      securityContext: {runAsNonRoot: true, runAsUser: 65532, seccompProfile: {type: RuntimeDefault}}
      containers:
      - name: manager
        image: %IMAGE%
        securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
`

const namespace = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: coredns-operator-system\n  labels: {pod-security.kubernetes.io/enforce: restricted, app.kubernetes.io/name: coredns-operator, app.kubernetes.io/managed-by: kops}\n"

func operatorPackage(sa, image string) *channels.Package {
	manifest := strings.NewReplacer("%SA%", sa, "%IMAGE%", image).Replace(operatorDeployment)
	return &channels.Package{Name: coredns.Names().AddonName, Version: "0.2.0", Manifest: []byte(manifest)}
}

func operatorContext(t *testing.T, packages map[string]*channels.Package, spec *kops.AssetsSpec) *model.KopsModelContext {
	flags, _ := featureflag.Parse("ClusterAddons,UseAddonOperators")
	remapper, err := assets.NewRemapper(spec)
	require.NoError(t, err)
	cluster := kops.CompleteCluster(&kops.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "o.example.com"}}, "memfs://t")
	return &model.KopsModelContext{Cluster: cluster, FeatureFlags: flags, Assets: remapper, Packages: packages}
}

func TestCoreDNSOperatorAddons(t *testing.T) {
	ctx := operatorContext(t, map[string]*channels.Package{
		coredns.Names().AddonName:   operatorPackage("coredns-operator", "registry.k8s.io/cluster-addons/coredns-operator:v0.2.0"),
		corednsmodel.CoreDNSPackage: {Name: corednsmodel.CoreDNSPackage, Version: "1.12.4", Image: "registry.k8s.io/coredns/coredns:v1.12.4"},
	}, &kops.AssetsSpec{ContainerProxy: "proxy.example.com"})

	got, err := OperatorBuilder{corednsmodel.Operator()}.Addons(ctx)
	require.NoError(t, err)
	var names []string
	for _, a := range got {
		names = append(names, a.Spec.Name+"@"+a.Spec.ID)
	}
	assert.Equal(t, []string{"coredns-rbac.addons.k8s.io@k8s-1.12", "coredns-scaling.addons.k8s.io@k8s-1.12", "operator.coredns.addons.x-k8s.io@0.2.0", "coredns.addons.x-k8s.io@1.12.4"}, names)

	operatorManifest := addonManifest(t, got, coredns.Names().AddonName)
	objs, err := kubemanifest.DecodeStrict(operatorManifest)
	require.NoError(t, err)
	var keys []string
	for _, o := range objs {
		keys = append(keys, o.Key())
	}
	assert.Equal(t, []string{
		"Namespace/coredns-operator-system",
		"ServiceAccount/coredns-operator-system/default", // locked: the namespace is kops's
		"CustomResourceDefinition/corednses.addons.x-k8s.io",
		"ServiceAccount/coredns-operator-system/coredns-operator",
		"Role/kube-system/coredns-operator", "RoleBinding/kube-system/coredns-operator",
		"Role/coredns-operator-system/coredns-operator", "RoleBinding/coredns-operator-system/coredns-operator",
		"ValidatingAdmissionPolicy/coredns-operator-scope", "ValidatingAdmissionPolicyBinding/coredns-operator-scope",
		"ValidatingAdmissionPolicy/coredns-operator-scope-exact", "ValidatingAdmissionPolicyBinding/coredns-operator-scope-exact",
		"Deployment/coredns-operator-system/coredns-operator",
	}, keys, "kops renders the Namespace, the CRD and the ServiceAccount the package does not hold; the rights and the policy come before the operator")
	assert.Contains(t, string(operatorManifest), "image: proxy.example.com/registry.k8s.io/cluster-addons/coredns-operator:v0.2.0\n", "remapped")
	var resource coredns.CoreDNS
	require.NoError(t, yaml.UnmarshalStrict(addonManifest(t, got, corednsmodel.CoreDNSResourceAddonName), &resource), "exactly the fields the CRD declares")
	assert.Equal(t, coredns.Spec{
		Version:   "1.12.4",
		Image:     "proxy.example.com/registry.k8s.io/coredns/coredns:v1.12.4", // pinned and remapped
		DNSDomain: "cluster.local",
		DNSIP:     "100.64.0.10",
		Corefile:  resource.Spec.Corefile,
		// What the built-in addon renders for the same Corefile, so switching modes rolls no pod.
		CorefileChecksum: coredns.CorefileChecksum(resource.Spec.Corefile),
	}, resource.Spec)
	assert.Contains(t, resource.Spec.Corefile, "kubernetes cluster.local in-addr.arpa ip6.arpa")
	// The exact policy binds the image and the Service's address to the CoreDNS object (its params),
	// whose spec holds exactly that image and the cluster's DNS address.
	var literals []string
	for _, o := range objs {
		if policy, ok := o.Typed.(*admissionregistrationv1.ValidatingAdmissionPolicy); ok {
			for _, v := range policy.Spec.Variables {
				literals = append(literals, v.Expression)
			}
		}
	}
	all := strings.Join(literals, "\n")
	assert.Contains(t, all, `"image": dyn(params.spec.image)`, "the image is the CoreDNS object's")
	assert.Contains(t, all, `"clusterIP": dyn(params.spec.dnsIP)`, "so is the Service's address")
	assert.Contains(t, all, `"Corefile": dyn(params.spec.corefile)`, "and the Corefile")
	assert.NotContains(t, all, "proxy.example.com/registry.k8s.io/coredns/coredns", "no image is fixed in the policy but through its params")

	// Without both flags, or with another DNS provider, the operator stays out.
	ctx.FeatureFlags, _ = featureflag.Parse("UseAddonOperators")
	got, err = OperatorBuilder{corednsmodel.Operator()}.Addons(ctx)
	require.NoError(t, err)
	assert.Empty(t, got)
	builtIn, err := BuiltInBuilder{corednsmodel.Operator()}.Addons(ctx)
	require.NoError(t, err)
	assert.Len(t, builtIn, 1, "the built-in addon stays")
}

func TestCoreDNSOperatorRejects(t *testing.T) {
	good := operatorPackage("coredns-operator", "registry.k8s.io/cluster-addons/coredns-operator:v0.2.0")
	version := &channels.Package{Name: corednsmodel.CoreDNSPackage, Version: "1.12.4", Image: "registry.k8s.io/coredns/coredns:v1.12.4"}
	cases := []struct {
		name     string
		operator *channels.Package
		version  *channels.Package
		want     string
	}{
		{"no operator package", nil, version, `channel package "operator.coredns.addons.x-k8s.io" was not loaded`},
		{"no coredns package", good, nil, `channel package "coredns" was not loaded`},
		{"no manifest", &channels.Package{Name: coredns.Names().AddonName, Version: "0.2.0"}, version, "has no manifest (packages/operator.coredns.addons.x-k8s.io/0.2.0/manifest.yaml"},
		{"another identity", operatorPackage("default", "r.example.com/op:v1"), version, `spec.template.spec.serviceAccountName: "default" is not allowed, only "coredns-operator"`},
		{"unpinned image", operatorPackage("coredns-operator", "r.example.com/op:latest"), version, "containers[0]"},
		{"unpinned override", func() *channels.Package { p := *good; p.Image = "r.example.com/op"; return &p }(), version, "containers[0]"},
		{"no operator Deployment", &channels.Package{Name: coredns.Names().AddonName, Version: "0.2.0", Manifest: []byte(namespace)}, version, "no Deployment coredns-operator-system/coredns-operator"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			packages := map[string]*channels.Package{}
			if tc.operator != nil {
				packages[coredns.Names().AddonName] = tc.operator
			}
			if tc.version != nil {
				packages[corednsmodel.CoreDNSPackage] = tc.version
			}
			_, err := OperatorBuilder{corednsmodel.Operator()}.Addons(operatorContext(t, packages, nil))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// The CoreDNS object names the image as a field of its own, always: the channel's image, or the
// upstream image of the channel's version, remapped. Each is one kops's CRD accepts.
func TestCoreDNSResourceImage(t *testing.T) {
	pattern := crdImagePattern(t)
	digest := "registry.k8s.io/coredns/coredns@sha256:" + strings.Repeat("ab", 32)
	cases := []struct {
		name   string
		image  string
		assets *kops.AssetsSpec
		want   string
	}{
		{"channel image", "registry.k8s.io/coredns/coredns:v1.12.4", nil, "registry.k8s.io/coredns/coredns:v1.12.4"},
		{"no channel image", "", nil, "registry.k8s.io/coredns/coredns:v1.12.4"},
		{"no channel image, mirrored", "", &kops.AssetsSpec{ContainerRegistry: "registry.example.com/mirror"}, "registry.example.com/mirror/coredns/coredns:v1.12.4"},
		{"proxied", "registry.k8s.io/coredns/coredns:v1.12.4", &kops.AssetsSpec{ContainerProxy: "proxy.example.com:5000"}, "proxy.example.com:5000/registry.k8s.io/coredns/coredns:v1.12.4"},
		{"digest, mirrored", digest, &kops.AssetsSpec{ContainerRegistry: "registry.example.com"}, "registry.example.com/coredns/coredns@sha256:" + strings.Repeat("ab", 32)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := operatorContext(t, nil, tc.assets)
			got, err := corednsmodel.ObjectSpec(ctx, &channels.Package{Name: corednsmodel.CoreDNSPackage, Version: "1.12.4", Image: tc.image})
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.Image)
			assert.Regexp(t, pattern, got.Image, "the CRD's spec.image pattern")
		})
	}
}

// A Corefile the CRD would refuse is refused by kops, naming the field of the cluster spec.
func TestCoreDNSResourceCorefileLimit(t *testing.T) {
	version := &channels.Package{Name: corednsmodel.CoreDNSPackage, Version: "1.12.4"}
	ctx := operatorContext(t, nil, nil)
	ctx.Cluster.Spec.KubeDNS.ExternalCoreFile = strings.Repeat("#", coredns.MaxCorefileBytes)
	got, err := corednsmodel.ObjectSpec(ctx, version)
	require.NoError(t, err, "exactly 64 KiB fits")
	assert.Len(t, got.Corefile, 65536)

	ctx.Cluster.Spec.KubeDNS.ExternalCoreFile += "#"
	_, err = corednsmodel.ObjectSpec(ctx, version)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "spec.kubeDNS.externalCoreFile: 65537 bytes is too long: the CoreDNS operator accepts a Corefile of at most 65536 bytes (64 KiB)")
}

// crdImagePattern is spec.image's pattern in the CRD kops renders.
func crdImagePattern(t *testing.T) *regexp.Regexp {
	crd, err := corednsmodel.CustomResourceDefinition()
	require.NoError(t, err)
	pattern := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["image"].Pattern
	require.NotEmpty(t, pattern)
	return regexp.MustCompile(pattern)
}
