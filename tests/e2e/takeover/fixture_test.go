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

package takeover

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/tests/e2e/framework"
)

// The images kops's current release runs for CoreDNS, and an older autoscaler than ours.
const (
	kopsCoreDNSImage = "registry.k8s.io/coredns/coredns:v1.14.2"
	kopsCPAImage     = "registry.k8s.io/cpa/cluster-proportional-autoscaler:v1.8.9"
)

// kopsManager is the field manager kops's channels applies with.
const kopsManager = "kops"

// The addons of the fixture: CoreDNS, which our channel ships, and one it does not.
const (
	builtInAddon  = "coredns.addons.k8s.io"
	notOurs       = "dns-controller.addons.k8s.io"
	operatorAddon = "coredns.addons.x-k8s.io"
	// scalingAddon holds the autoscaler and the budget beside the operator.
	scalingAddon = "coredns-scaling.addons.k8s.io"
)

var resources = map[string]schema.GroupVersionResource{
	"ServiceAccount":      {Version: "v1", Resource: "serviceaccounts"},
	"ConfigMap":           {Version: "v1", Resource: "configmaps"},
	"Service":             {Version: "v1", Resource: "services"},
	"Deployment":          {Group: "apps", Version: "v1", Resource: "deployments"},
	"PodDisruptionBudget": {Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"},
	"ClusterRole":         {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"},
	"ClusterRoleBinding":  {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"},
	"Role":                {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"},
	"RoleBinding":         {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"},
}

func dyn(t *testing.T) dynamic.Interface {
	d, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	return d
}

func client(t *testing.T, kind, namespace string) dynamic.ResourceInterface {
	gvr, ok := resources[kind]
	require.True(t, ok, "kind %s", kind)
	if namespace == "" {
		return dyn(t).Resource(gvr)
	}
	return dyn(t).Resource(gvr).Namespace(namespace)
}

// kopsFixture is testdata/kops-coredns.yaml with the CoreDNS image given.
func kopsFixture(t *testing.T, corednsImage string) ([]byte, []*unstructured.Unstructured) {
	t.Helper()
	raw, err := os.ReadFile("testdata/kops-coredns.yaml")
	require.NoError(t, err)
	data := []byte(strings.NewReplacer("COREDNS_IMAGE", corednsImage, "CPA_IMAGE", kopsCPAImage).Replace(string(raw)))
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var objs []*unstructured.Unstructured
	for {
		u := &unstructured.Unstructured{}
		if err := dec.Decode(&u.Object); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
		}
		if len(u.Object) > 0 {
			objs = append(objs, u)
		}
	}
	return data, objs
}

// kopsInstalls leaves the cluster as kops's channels would from the channel at location: its
// objects applied server-side by field manager "kops" (the autoscaler's ConfigMap created by the
// autoscaler), and kops-format records, for CoreDNS and for an addon we do not ship. It returns
// the records.
func kopsInstalls(t *testing.T, location, corednsImage string) map[string]string {
	t.Helper()
	ctx := framework.Context(t)
	data, objs := kopsFixture(t, corednsImage)
	for _, o := range objs {
		c := client(t, o.GetKind(), o.GetNamespace())
		if o.GetLabels()[channelsapi.LabelAddonName] == "" {
			_, err := c.Create(ctx, o, metav1.CreateOptions{FieldManager: "cluster-proportional-autoscaler"})
			require.NoError(t, err)
			continue
		}
		_, err := c.Apply(ctx, o.GetName(), o, metav1.ApplyOptions{FieldManager: kopsManager, Force: true})
		require.NoError(t, err, "%s %s", o.GetKind(), o.GetName())
	}
	sum := sha256.Sum256(data)
	record := func(id, hash string) string {
		return fmt.Sprintf(`{"channel":%q,"id":%q,"manifestHash":%q,"systemGeneration":1}`, location, id, hash)
	}
	records := map[string]string{
		builtInAddon: record("k8s-1.12", hex.EncodeToString(sum[:])),
		notOurs:      record("k8s-1.12", "5c1d"),
	}
	setRecords(t, records)
	return records
}

// setRecords sets (or, for "", removes) records on kube-system.
func setRecords(t *testing.T, records map[string]string) {
	t.Helper()
	annotations := map[string]interface{}{}
	for name, value := range records {
		annotations[channelsapi.RecordKeyPrefix+name] = value
		if value == "" {
			annotations[channelsapi.RecordKeyPrefix+name] = nil
		}
	}
	patch, err := json.Marshal(map[string]interface{}{"metadata": map[string]interface{}{"annotations": annotations}})
	require.NoError(t, err)
	_, err = env.Clientset.CoreV1().Namespaces().Patch(framework.Context(t), "kube-system", types.MergePatchType, patch, metav1.PatchOptions{})
	require.NoError(t, err)
}

// reset removes what a previous scenario left in kube-system and cluster-wide: the fixture's
// objects, ours, and the records. The operator's namespace and CRD stay (a test server never
// finishes deleting a namespace); nothing here depends on their absence.
func reset(t *testing.T) {
	t.Helper()
	ctx := framework.Context(t)
	_, objs := kopsFixture(t, kopsCoreDNSImage)
	extra := []struct{ kind, ns, name string }{{"Role", "kube-system", "coredns-autoscaler"}, {"RoleBinding", "kube-system", "coredns-autoscaler"}}
	for _, o := range objs {
		extra = append(extra, struct{ kind, ns, name string }{o.GetKind(), o.GetNamespace(), o.GetName()})
	}
	for _, o := range extra {
		err := client(t, o.kind, o.ns).Delete(ctx, o.name, metav1.DeleteOptions{})
		if !apierrors.IsNotFound(err) {
			require.NoError(t, err, "deleting %s %s", o.kind, o.name)
		}
	}
	ns, err := env.Clientset.CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{})
	require.NoError(t, err)
	records := map[string]string{}
	for key := range ns.Annotations {
		if name, ok := strings.CutPrefix(key, channelsapi.RecordKeyPrefix); ok {
			records[name] = ""
		}
	}
	if len(records) > 0 {
		setRecords(t, records)
	}
}
