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

package kopsmodel

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/operator/confine"
	"k8s.io/kops/pkg/operator/operatortest"
)

const pinnedImage = "mirror.example.com/coredns/coredns:v1.12.4"

// rendering is what kops renders for a cluster: the CoreDNS object's spec, the policy's scope and
// the managed objects as the API server stores them (kops renders every defaulted field).
type rendering struct {
	spec    coredns.Spec
	scope   *confine.Scope
	objects map[string]map[string]interface{} // by kind
}

// renderedScope renders the built-in addon for a completed cluster, as kops does, with the image
// the operator is told to run.
func renderedScope(t *testing.T, spec kops.ClusterSpec) *rendering {
	return renderedScopeWithImage(t, spec, pinnedImage)
}

// renderedScopeWithImage is renderedScope with another image; "" keeps the built-in addon's default.
func renderedScopeWithImage(t *testing.T, spec kops.ClusterSpec, image string) *rendering {
	t.Helper()
	cluster := kops.CompleteCluster(&kops.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "p.example.com"}, Spec: spec}, "memfs://t")
	remapper, err := assets.NewRemapper(cluster.Spec.Assets)
	require.NoError(t, err)
	dnsSpec, err := coredns.ClusterSpec(cluster.Spec.KubeDNS, remapper)
	require.NoError(t, err)
	if image != "" {
		dnsSpec.Image = image
	}
	facts, err := coredns.ClusterFacts(cluster.Spec.KubeDNS, remapper)
	require.NoError(t, err)
	manifest, err := coredns.Render(dnsSpec, facts)
	require.NoError(t, err)
	spec2 := dnsSpec
	marked, err := coredns.Render(Marked(spec2), facts)
	require.NoError(t, err)
	s, err := Descriptor().ScopeFromManifest(manifest, marked, Params(spec2))
	require.NoError(t, err)
	r := &rendering{spec: spec2, scope: s, objects: map[string]map[string]interface{}{}}
	objs, err := kubemanifest.DecodeStrict(manifest)
	require.NoError(t, err)
	for _, o := range objs {
		if o.Typed.GetNamespace() == coredns.WatchNamespace && Descriptor().Managed[managedIndex(o.Kind)].Name == o.Typed.GetName() {
			r.objects[o.Kind] = fromYAML(t, o.Raw)
		}
	}
	require.Len(t, r.objects, 4)
	return r
}

func managedIndex(kind string) int {
	for i, m := range Descriptor().Managed {
		if m.Kind == kind {
			return i
		}
	}
	return 0
}

var resources = map[string][2]string{"Deployment": {"apps", "deployments"}, "Service": {"", "services"},
	"ConfigMap": {"", "configmaps"}, "ServiceAccount": {"", "serviceaccounts"}}

func fromYAML(t *testing.T, doc []byte) map[string]interface{} {
	return toCEL(t, doc)
}

// toCEL turns JSON (or YAML) into what CEL sees: maps with integers as int64.
func toCEL(t *testing.T, js []byte) map[string]interface{} {
	t.Helper()
	out, err := operatortest.CELObject(js)
	require.NoError(t, err)
	return out
}

func typedToCEL(t *testing.T, obj interface{}) map[string]interface{} {
	js, err := json.Marshal(obj)
	require.NoError(t, err)
	return toCEL(t, js)
}

// request is one admission request by the operator.
type request struct {
	operation, group, resource, namespace string
	object, oldObject                     map[string]interface{}
}

// programs caches compiled expressions: the mutation test evaluates the same policy thousands of times.
var programs sync.Map

// denials evaluates every validation of both policies the way the API server does, with the
// CoreDNS object spec as the params, and returns the messages of those that fail; an expression that
// errors counts as a denial (failurePolicy Fail).
func denials(t *testing.T, s *confine.Scope, spec coredns.Spec, r request) []string {
	t.Helper()
	env, err := cel.NewEnv(cel.OptionalTypes(),
		cel.Variable("object", cel.DynType), cel.Variable("oldObject", cel.DynType), cel.Variable("request", cel.DynType),
		cel.Variable("params", cel.DynType), cel.Variable("variables", cel.MapType(cel.StringType, cel.DynType)))
	require.NoError(t, err)
	vars := map[string]interface{}{
		"object":    r.object,
		"oldObject": r.oldObject,
		"params":    typedToCEL(t, map[string]interface{}{"spec": spec}),
		"request": map[string]interface{}{
			"operation": r.operation, "namespace": r.namespace,
			"resource": map[string]interface{}{"group": r.group, "resource": r.resource},
			"userInfo": map[string]interface{}{"username": Descriptor().Username()},
		},
	}
	eval := func(expression string) (interface{}, error) {
		program, ok := programs.Load(expression)
		if !ok {
			ast, issues := env.Compile(expression)
			require.NoError(t, issues.Err(), expression)
			p, err := env.Program(ast)
			require.NoError(t, err)
			program, _ = programs.LoadOrStore(expression, p)
		}
		out, _, err := program.(cel.Program).Eval(vars)
		if err != nil {
			return nil, err
		}
		return out.Value(), nil
	}
	var denied []string
	policies, err := confine.PolicyObjects(s)
	require.NoError(t, err)
	for _, o := range policies {
		policy, ok := o.(*admissionregistrationv1.ValidatingAdmissionPolicy)
		if !ok {
			continue
		}
		variables := map[string]interface{}{}
		for _, v := range policy.Spec.Variables {
			value, err := eval(v.Expression)
			require.NoError(t, err, v.Name)
			variables[v.Name] = value
		}
		vars["variables"] = variables
		for _, v := range policy.Spec.Validations {
			out, err := eval(v.Expression)
			if err != nil || out != true {
				denied = append(denied, v.Message)
			}
		}
	}
	return denied
}

func writeOf(kind string, obj map[string]interface{}) request {
	r := resources[kind]
	return request{"UPDATE", r[0], r[1], coredns.WatchNamespace, obj, obj}
}

// What kops itself renders is admitted, for create and update, on several cluster shapes: created
// without kops's channels metadata (which the operator leaves to channels), updated with it as it was.
func TestPolicyAdmitsWhatKopsRenders(t *testing.T) {
	shapes := map[string]kops.ClusterSpec{
		"defaults": {},
		"IPv6":     {NonMasqueradeCIDR: "::/0"},
		"placement": {KubeDNS: &kops.KubeDNSConfig{
			Tolerations:    []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "dns", Effect: corev1.TaintEffectNoSchedule}},
			Affinity:       &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{TopologyKey: "kubernetes.io/hostname", LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"k8s-app": "kube-dns"}}}}}},
			PodAnnotations: map[string]string{"example.com/team": "dns"},
		}},
	}
	for name, spec := range shapes {
		t.Run(name, func(t *testing.T) {
			r := renderedScope(t, spec)
			for kind, obj := range r.objects {
				stripped := withoutChannelsMetadata(obj)
				create := writeOf(kind, stripped)
				create.operation, create.oldObject = "CREATE", nil
				assert.Empty(t, denials(t, r.scope, r.spec, create), "create %s", kind)
				assert.Empty(t, denials(t, r.scope, r.spec, writeOf(kind, obj)), "update %s, channels' metadata as it was", kind)
				assert.Empty(t, denials(t, r.scope, r.spec, writeOf(kind, stripped)), "update %s without channels' metadata", kind)
			}
		})
	}
}

func withoutChannelsMetadata(obj map[string]interface{}) map[string]interface{} {
	out := runtime.DeepCopyJSON(obj)
	meta := out["metadata"].(map[string]interface{})
	delete(meta["labels"].(map[string]interface{}), "addon.kops.k8s.io/name")
	if a, ok := meta["annotations"].(map[string]interface{}); ok {
		delete(a, "addon.kops.k8s.io/handover-to")
	}
	return out
}

// Every leaf of every managed object changed, and a key added to every map of it, is denied: the
// policy admits the rendering whole. The holes are tested apart (TestPolicyHoles).
func TestPolicyDeniesEveryMutation(t *testing.T) {
	r := renderedScope(t, kops.ClusterSpec{KubeDNS: &kops.KubeDNSConfig{
		Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
			{TopologyKey: "kubernetes.io/hostname", LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"k8s-app": "kube-dns"}}}}}},
	}})
	identity := func(path string) bool {
		return path == "apiVersion" || path == "kind" || path == "metadata.namespace"
	}
	probes := 0
	for kind, obj := range r.objects {
		mutations := operatortest.Leaves(obj, identity)
		mutations = append(mutations, operatortest.Additions(obj, func(string) bool { return false },
			func(string, map[string]interface{}) map[string]interface{} {
				return map[string]interface{}{"kopsProbe": "x"}
			})...)
		for _, m := range mutations {
			probes++
			update := writeOf(kind, m.Object)
			update.oldObject = obj
			assert.NotEmpty(t, denials(t, r.scope, r.spec, update), "%s %s was admitted", kind, m.Path)
		}
	}
	assert.Greater(t, probes, 150, "the objects were walked")
}

// The holes: what the operator's instructions carry is bound to them, the replica count is bounded,
// and channels' and the controllers' metadata may be there.
func TestPolicyHoles(t *testing.T) {
	r := renderedScope(t, kops.ClusterSpec{})
	dep := r.objects["Deployment"]
	set := func(obj map[string]interface{}, value interface{}, path ...string) map[string]interface{} {
		js, _ := json.Marshal(obj)
		out := toCEL(t, js)
		cur := out
		for _, p := range path[:len(path)-1] {
			next, ok := cur[p].(map[string]interface{})
			if !ok {
				next = map[string]interface{}{}
				cur[p] = next
			}
			cur = next
		}
		cur[path[len(path)-1]] = value
		return out
	}
	for replicas, admitted := range map[int64]bool{0: false, 1: true, 3: true, MaxReplicas: true, MaxReplicas + 1: false} {
		denied := denials(t, r.scope, r.spec, writeOf("Deployment", set(dep, replicas, "spec", "replicas")))
		assert.Equal(t, admitted, len(denied) == 0, "replicas %d: %v", replicas, denied)
	}
	assert.Empty(t, denials(t, r.scope, r.spec, writeOf("Deployment", set(dep, "7", "metadata", "annotations", "deployment.kubernetes.io/revision"))),
		"the deployment controller's revision")
	// kops's channels' label is channels' alone: the operator keeps it as it was, and neither sets,
	// changes nor removes it.
	handedOver := set(dep, "coredns.addons.x-k8s.io", "metadata", "labels", "addon.kops.k8s.io/name")
	assert.Empty(t, denials(t, r.scope, r.spec, request{"UPDATE", "apps", "deployments", coredns.WatchNamespace, handedOver, handedOver}), "kept after a handover")
	for name, req := range map[string]request{
		"changed":          {"UPDATE", "apps", "deployments", coredns.WatchNamespace, set(dep, "kube-proxy", "metadata", "labels", "addon.kops.k8s.io/name"), dep},
		"removed":          {"UPDATE", "apps", "deployments", coredns.WatchNamespace, withoutChannelsMetadata(dep), dep},
		"set on create":    {"CREATE", "apps", "deployments", coredns.WatchNamespace, dep, nil},
		"set on an update": {"UPDATE", "apps", "deployments", coredns.WatchNamespace, dep, withoutChannelsMetadata(dep)},
	} {
		assert.NotEmpty(t, denials(t, r.scope, r.spec, req), "channels' label %s", name)
	}

	// The instructions' image is the image: another image is admitted only once kops wrote it there.
	moved := r.spec
	moved.Image = "mirror.example.com/coredns/coredns:v9.9.9"
	containers := dep["spec"].(map[string]interface{})["template"].(map[string]interface{})["spec"].(map[string]interface{})["containers"].([]interface{})
	other := set(containers[0].(map[string]interface{}), moved.Image, "image")
	withImage := set(dep, []interface{}{other}, "spec", "template", "spec", "containers")
	assert.NotEmpty(t, denials(t, r.scope, r.spec, writeOf("Deployment", withImage)), "an image the instructions do not name")
	assert.Empty(t, denials(t, r.scope, moved, writeOf("Deployment", withImage)), "the image the instructions name")
	assert.NotEmpty(t, denials(t, r.scope, moved, writeOf("Deployment", dep)), "and no longer the old one")

	cm := r.objects["ConfigMap"]
	moved = r.spec
	moved.Corefile = ".:53 {\n    errors\n}\n"
	assert.NotEmpty(t, denials(t, r.scope, r.spec, writeOf("ConfigMap", set(cm, moved.Corefile, "data", "Corefile"))))
	assert.Empty(t, denials(t, r.scope, moved, writeOf("ConfigMap", set(cm, moved.Corefile, "data", "Corefile"))))

	// The pod template's checksum is the instructions' spec.corefileChecksum: the operator rolls
	// CoreDNS for a new Corefile only once kops wrote its checksum, and cannot roll it at will.
	moved = r.spec
	moved.CorefileChecksum = coredns.CorefileChecksum(".:53 {\n    errors\n}\n")
	annotation := []string{"spec", "template", "metadata", "annotations", coredns.CorefileChecksumAnnotation}
	withChecksum := set(dep, moved.CorefileChecksum, annotation...)
	assert.NotEmpty(t, denials(t, r.scope, r.spec, writeOf("Deployment", withChecksum)), "a checksum the instructions do not carry")
	assert.Empty(t, denials(t, r.scope, moved, writeOf("Deployment", withChecksum)), "the checksum the instructions carry")
	assert.NotEmpty(t, denials(t, r.scope, moved, writeOf("Deployment", dep)), "and no longer the old one")
	restarted := set(withChecksum, "2026-01-01T00:00:00Z", "spec", "template", "metadata", "annotations", "kubectl.kubernetes.io/restartedAt")
	assert.NotEmpty(t, denials(t, r.scope, moved, writeOf("Deployment", restarted)), "no other pod template annotation")
}

func TestPolicyEvents(t *testing.T) {
	r := renderedScope(t, kops.ClusterSpec{})
	core := func(component, apiVersion, kind, name string) map[string]interface{} {
		return typedToCEL(t, &corev1.Event{
			TypeMeta:       metav1.TypeMeta{APIVersion: "v1", Kind: "Event"},
			ObjectMeta:     metav1.ObjectMeta{Name: "e", Namespace: coredns.WatchNamespace},
			InvolvedObject: corev1.ObjectReference{APIVersion: apiVersion, Kind: kind, Name: name, Namespace: coredns.WatchNamespace, UID: "u-1"},
			Reason:         "Applied", Message: "m", Type: corev1.EventTypeNormal, Count: 1,
			Source:              corev1.EventSource{Component: component, Host: component},
			ReportingController: component, ReportingInstance: component,
		})
	}
	event := func(r request) request {
		r.group, r.resource, r.namespace = "", "events", coredns.WatchNamespace
		return r
	}
	mine := core(Descriptor().EventReporter(), "apps/v1", "Deployment", coredns.CoreDNSDeployment)
	assert.Empty(t, denials(t, r.scope, r.spec, event(request{operation: "CREATE", object: mine})))
	assert.Empty(t, denials(t, r.scope, r.spec, event(request{operation: "UPDATE", object: mine, oldObject: mine})))
	assert.Empty(t, denials(t, r.scope, r.spec, event(request{operation: "CREATE", object: core(Descriptor().EventReporter(), coredns.APIVersion, "CoreDNS", coredns.CoreDNSResource)})))
	assert.Empty(t, denials(t, r.scope, r.spec, request{"CREATE", "", "events", coredns.Names().Namespace, core("host_uuid", "coordination.k8s.io/v1", "Lease", coredns.Names().LeaseName), nil}),
		"its own namespace is its own")

	on := func(obj map[string]interface{}, change func(map[string]interface{})) map[string]interface{} {
		js, _ := json.Marshal(obj)
		out := toCEL(t, js)
		change(out)
		return out
	}
	for name, obj := range map[string]map[string]interface{}{
		"as the scheduler":          core("default-scheduler", "apps/v1", "Deployment", coredns.CoreDNSDeployment),
		"about the API server":      core(Descriptor().EventReporter(), "v1", "Pod", "kube-apiserver-x"),
		"naming another host":       on(mine, func(o map[string]interface{}) { o["source"].(map[string]interface{})["host"] = "node-1" }),
		"as another instance":       on(mine, func(o map[string]interface{}) { o["reportingInstance"] = "node-1" }),
		"with a field path":         on(mine, func(o map[string]interface{}) { o["involvedObject"].(map[string]interface{})["fieldPath"] = "spec.x" }),
		"related to another object": on(mine, func(o map[string]interface{}) { o["related"] = map[string]interface{}{"kind": "Secret", "name": "s"} }),
		"with labels": on(mine, func(o map[string]interface{}) {
			o["metadata"].(map[string]interface{})["labels"] = map[string]interface{}{"a": "b"}
		}),
		"of another type":          on(mine, func(o map[string]interface{}) { o["type"] = "Error" }),
		"about a Deployment as v1": on(mine, func(o map[string]interface{}) { o["involvedObject"].(map[string]interface{})["apiVersion"] = "v1" }),
	} {
		t.Run(name, func(t *testing.T) {
			assert.NotEmpty(t, denials(t, r.scope, r.spec, event(request{operation: "CREATE", object: obj})))
		})
	}
	newEvent := func(controller string) map[string]interface{} {
		return map[string]interface{}{"apiVersion": "events.k8s.io/v1", "kind": "Event",
			"metadata": map[string]interface{}{"name": "n", "namespace": coredns.WatchNamespace}, "reason": "Applied", "note": "n", "type": "Normal",
			"action": "Reconcile", "reportingController": controller, "reportingInstance": controller, "deprecatedSource": map[string]interface{}{},
			"regarding": map[string]interface{}{"apiVersion": coredns.APIVersion, "kind": "CoreDNS", "name": coredns.CoreDNSResource, "namespace": coredns.WatchNamespace}}
	}
	newAPI := func(obj map[string]interface{}) request {
		return request{"CREATE", "events.k8s.io", "events", coredns.WatchNamespace, obj, nil}
	}
	assert.Empty(t, denials(t, r.scope, r.spec, newAPI(newEvent(Descriptor().EventReporter()))), "new API, as itself")
	assert.NotEmpty(t, denials(t, r.scope, r.spec, newAPI(newEvent("kubelet"))), "new API, as another")

	// Another component's event, rewritten into one of the operator's own, is refused: the old
	// object must be the operator's too.
	kubelets := on(mine, func(o map[string]interface{}) {
		o["source"] = map[string]interface{}{"component": "kubelet", "host": "node-1"}
		o["reportingComponent"], o["reportingInstance"], o["type"] = "kubelet", "node-1", "Warning"
	})
	assert.NotEmpty(t, denials(t, r.scope, r.spec, event(request{operation: "UPDATE", object: mine, oldObject: kubelets})), "core API, another's event rewritten")
	update := newAPI(newEvent(Descriptor().EventReporter()))
	update.operation, update.oldObject = "UPDATE", newEvent("kubelet")
	assert.NotEmpty(t, denials(t, r.scope, r.spec, update), "new API, another's event rewritten")
	update.oldObject = newEvent(Descriptor().EventReporter())
	assert.Empty(t, denials(t, r.scope, r.spec, update), "new API, its own event updated")
	// Its own old event does not free the new one from the other rules.
	assert.NotEmpty(t, denials(t, r.scope, r.spec, event(request{operation: "UPDATE", object: core("default-scheduler", "apps/v1", "Deployment", coredns.CoreDNSDeployment), oldObject: mine})),
		"core API, its own event rewritten as another's")
	update.object = newEvent("kubelet")
	assert.NotEmpty(t, denials(t, r.scope, r.spec, update), "new API, its own event rewritten as another's")
}

func TestPolicyAppliesToOperatorOnly(t *testing.T) {
	objects, err := confine.PolicyObjects(renderedScope(t, kops.ClusterSpec{}).scope)
	require.NoError(t, err)
	require.Len(t, objects, 4, "the scope and the exact policy, each with its binding")
	env, err := cel.NewEnv(cel.Variable("request", cel.DynType))
	require.NoError(t, err)
	for _, o := range objects {
		switch o := o.(type) {
		case *admissionregistrationv1.ValidatingAdmissionPolicy:
			for user, want := range map[string]bool{
				Descriptor().Username():                                   true,
				"system:serviceaccount:kube-system:deployment-controller": false,
				"kubernetes-admin":                                        false,
			} {
				ast, issues := env.Compile(o.Spec.MatchConditions[0].Expression)
				require.NoError(t, issues.Err())
				program, err := env.Program(ast)
				require.NoError(t, err)
				out, _, err := program.Eval(map[string]interface{}{"request": map[string]interface{}{"userInfo": map[string]interface{}{"username": user}}})
				require.NoError(t, err)
				assert.Equal(t, want, out.Value(), user)
			}
		case *admissionregistrationv1.ValidatingAdmissionPolicyBinding:
			assert.Equal(t, []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny}, o.Spec.ValidationActions)
			if o.Spec.PolicyName == Descriptor().ExactPolicyName() {
				require.NotNil(t, o.Spec.ParamRef, "the exact policy reads the CoreDNS object")
				assert.Equal(t, coredns.CoreDNSResource, o.Spec.ParamRef.Name)
				assert.Equal(t, admissionregistrationv1.DenyAction, *o.Spec.ParamRef.ParameterNotFoundAction, "no instructions, nothing admitted")
			}
		}
	}
}

// A template that lost what the policy relies on, or that lets an instruction flow where the policy
// cannot bind it, is refused rather than confining less.
func TestScopeFromManifestRefusesWeakTemplates(t *testing.T) {
	r := renderedScope(t, kops.ClusterSpec{})
	manifest, err := coredns.Render(r.spec, coredns.DefaultFacts())
	require.NoError(t, err)
	for name, c := range map[string]struct{ from, to string }{
		"no runAsNonRoot": {"runAsNonRoot: true", "runAsNonRoot: false"},
		"root user":       {"runAsUser: 65532", "runAsUser: 0"},
	} {
		t.Run(name, func(t *testing.T) {
			changed := []byte(strings.Replace(string(manifest), c.from, c.to, 1))
			require.NotEqual(t, manifest, changed)
			_, err := Descriptor().ScopeFromManifest(changed, changed, Params(r.spec))
			assert.Error(t, err)
		})
	}
	_, err = Descriptor().ScopeFromManifest([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: coredns, namespace: kube-system}\n"), nil, Params(r.spec))
	assert.ErrorContains(t, err, "no Deployment kube-system/coredns")

	// The image flowing into a label too: the marked rendering shows it where no param can stand.
	t.Run("an instruction flowing into part of a value", func(t *testing.T) {
		marked, err := coredns.Render(Marked(r.spec), coredns.DefaultFacts())
		require.NoError(t, err)
		leak := func(m []byte, image string) []byte {
			return []byte(strings.Replace(string(m), "k8s-app: kube-dns\n", "k8s-app: kube-dns\n    image-was: \""+strings.ReplaceAll(image, ":", "-")+"\"\n", 1))
		}
		_, err = Descriptor().ScopeFromManifest(leak(manifest, r.spec.Image), leak(marked, Marked(r.spec).Image), Params(r.spec))
		assert.ErrorContains(t, err, "depends on the instructions")
	})
}
