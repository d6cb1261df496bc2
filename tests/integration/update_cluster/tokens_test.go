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

package updatecluster

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model/addons"
)

// tokenMounts are the pods kops deploys that mount a service-account token, and why each needs
// the API: the addons' own pods, and every operator of the registry. A pod that mounts one and is
// not here fails TestTokenMounts, and so does an entry no golden case uses any more.
var tokenMounts = func() map[string]string {
	mounts := map[string]string{
		"Deployment/kube-system/coredns":            "CoreDNS serves Services from the API: it lists and watches Services, EndpointSlices, pods and namespaces",
		"Deployment/kube-system/coredns-autoscaler": "the autoscaler lists nodes and scales Deployment coredns",
		"DaemonSet/kube-system/kube2iam":            "kube2iam maps a request's source IP to a pod and reads the role annotations of pods and namespaces",
		"Deployment/kube-system/metrics-server":     "metrics-server lists pods and nodes, reads the kubelets' metrics through the API's authorization, and serves an aggregated API that delegates authentication and authorization to the API server",
	}
	for _, o := range addons.Operators() {
		d := o.Descriptor
		mounts["Deployment/"+d.Namespace+"/"+d.DeploymentName] = "the operator reconciles its " + d.CRD.Kind + " object into the objects it manages"
	}
	return mounts
}()

// podTemplate is one workload's pod spec, named Kind/namespace/name.
type podTemplate struct {
	key  string
	spec corev1.PodSpec
}

// checkTokens returns every way objects break the token rules, each naming the object:
//   - a pod runs under a ServiceAccount of its own, rendered with it (never "default");
//   - a ServiceAccount says automountServiceAccountToken: false, so only pods that ask get a token
//     (the default namespace's default account is spec.serviceAccountTokens's, checked apart);
//   - a pod that mounts a token is in allowed;
//   - kube-system's default account and that of every namespace created are locked.
//
// used collects the entries of allowed that were needed.
func checkTokens(objs []metav1.Object, allowed map[string]string, used map[string]bool) []string {
	var problems []string
	accounts := map[string]*bool{}
	var pods []podTemplate
	var namespaces []string
	for _, o := range objs {
		switch t := o.(type) {
		case *corev1.ServiceAccount:
			accounts[t.Namespace+"/"+t.Name] = t.AutomountServiceAccountToken
		case *corev1.Namespace:
			namespaces = append(namespaces, t.Name)
		case *appsv1.Deployment:
			pods = append(pods, podTemplate{"Deployment/" + t.Namespace + "/" + t.Name, t.Spec.Template.Spec})
		case *appsv1.DaemonSet:
			pods = append(pods, podTemplate{"DaemonSet/" + t.Namespace + "/" + t.Name, t.Spec.Template.Spec})
		}
	}
	for key, automount := range accounts {
		if key != "default/default" && (automount == nil || *automount) {
			problems = append(problems, fmt.Sprintf("ServiceAccount %s does not set automountServiceAccountToken: false", key))
		}
	}
	for _, ns := range append([]string{"kube-system"}, namespaces...) {
		if _, ok := accounts[ns+"/default"]; !ok {
			problems = append(problems, fmt.Sprintf("namespace %s: its default ServiceAccount is not locked", ns))
		}
	}
	for _, p := range pods {
		namespace := strings.Split(p.key, "/")[1]
		sa := p.spec.ServiceAccountName
		if sa == "" || sa == "default" {
			problems = append(problems, fmt.Sprintf("%s runs as the default ServiceAccount, not one of its own", p.key))
			continue
		}
		saAutomount, rendered := accounts[namespace+"/"+sa]
		if !rendered {
			problems = append(problems, fmt.Sprintf("%s runs as ServiceAccount %s/%s, which kops does not render", p.key, namespace, sa))
			continue
		}
		mounts := true
		switch {
		case p.spec.AutomountServiceAccountToken != nil:
			mounts = *p.spec.AutomountServiceAccountToken
		case saAutomount != nil:
			mounts = *saAutomount
		}
		if !mounts {
			continue
		}
		if _, ok := allowed[p.key]; !ok {
			problems = append(problems, fmt.Sprintf("%s mounts a service-account token, and the allow-list has no reason for it", p.key))
			continue
		}
		used[p.key] = true
	}
	sort.Strings(problems)
	return problems
}

// goldenObjects decodes every manifest a golden case's expected/ holds, except the objects stored
// with the cluster (cluster-addons.kops.k8s.io), which are the user's, not kops's.
func goldenObjects(t *testing.T, dir string) []metav1.Object {
	var objs []metav1.Object
	root := filepath.Join(dir, "expected", "addons")
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(path) == "bootstrap-channel.yaml" ||
			strings.Contains(path, addons.ClusterAddonsName) {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		decoded, err := kubemanifest.DecodeStrict(data, addons.OperatorKinds())
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for _, o := range decoded {
			objs = append(objs, o.Typed)
		}
		return nil
	}))
	return objs
}

// Every golden case: no pod kops renders mounts a token it does not need.
func TestTokenMounts(t *testing.T) {
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	used := map[string]bool{}
	cases := 0
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(e.Name(), "expected", "addons")); err != nil {
			continue
		}
		cases++
		t.Run(e.Name(), func(t *testing.T) {
			objs := goldenObjects(t, e.Name())
			assert.Empty(t, checkTokens(objs, tokenMounts, used))
		})
	}
	require.GreaterOrEqual(t, cases, 5, "golden cases found")
	for key := range tokenMounts {
		assert.True(t, used[key], "allow-list entry %s is used by no golden case: remove it", key)
	}
}

// The setting that extends the lock to the default namespace reaches its golden output.
func TestDefaultNamespaceToken(t *testing.T) {
	for dir, want := range map[string]*bool{"minimal": nil, "serviceaccount-tokens": new(bool)} {
		var found bool
		for _, o := range goldenObjects(t, dir) {
			if sa, ok := o.(*corev1.ServiceAccount); ok && sa.Namespace == "default" && sa.Name == "default" {
				found = true
				assert.Equal(t, want, sa.AutomountServiceAccountToken, dir)
			}
		}
		assert.True(t, found, "%s applies default/default (with or without the field)", dir)
	}
}
