package corednsoperator

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/operators/coredns"
)

const pinnedImage = "mirror.example.com/coredns/coredns:v1.12.4"

// renderedScope renders the built-in addon for a completed cluster, as kops does, with the image
// the operator is told to run.
func renderedScope(t *testing.T, spec kops.ClusterSpec) *Scope {
	return renderedScopeWithImage(t, spec, pinnedImage)
}

// renderedScopeWithImage is renderedScope with another image; "" keeps the built-in addon's default.
func renderedScopeWithImage(t *testing.T, spec kops.ClusterSpec, image string) *Scope {
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
	s, err := ScopeFromManifest(manifest)
	require.NoError(t, err)
	return s
}

// toCEL turns a typed object into what CEL sees: JSON maps with integers as int64.
func toCEL(t *testing.T, obj interface{}) map[string]interface{} {
	t.Helper()
	if obj == nil {
		return nil
	}
	data, err := json.Marshal(obj)
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out map[string]interface{}
	require.NoError(t, dec.Decode(&out))
	return ints(out).(map[string]interface{})
}

func ints(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			x[k] = ints(e)
		}
	case []interface{}:
		for i, e := range x {
			x[i] = ints(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// request is one admission request by the operator.
type request struct {
	operation, group, resource, namespace string
	object, oldObject                     interface{}
}

// denials evaluates every validation of the policy the way the API server does and returns the
// messages of those that fail; an expression that errors counts as a denial (failurePolicy Fail).
func denials(t *testing.T, s *Scope, r request) []string {
	t.Helper()
	policy := PolicyObjects(s)[0].(*admissionregistrationv1.ValidatingAdmissionPolicy)
	env, err := cel.NewEnv(cel.OptionalTypes(),
		cel.Variable("object", cel.DynType), cel.Variable("oldObject", cel.DynType), cel.Variable("request", cel.DynType))
	require.NoError(t, err)
	vars := map[string]interface{}{
		"object":    toCEL(t, r.object),
		"oldObject": toCEL(t, r.oldObject),
		"request": map[string]interface{}{
			"operation": r.operation, "namespace": r.namespace,
			"resource": map[string]interface{}{"group": r.group, "resource": r.resource},
			"userInfo": map[string]interface{}{"username": Username},
		},
	}
	var denied []string
	for _, v := range policy.Spec.Validations {
		ast, issues := env.Compile(v.Expression)
		require.NoError(t, issues.Err(), v.Expression)
		program, err := env.Program(ast)
		require.NoError(t, err)
		out, _, err := program.Eval(vars)
		if err != nil || out.Value() != true {
			denied = append(denied, v.Message)
		}
	}
	return denied
}

func deploymentRequest(d *appsv1.Deployment) request {
	return request{"UPDATE", "apps", "deployments", WatchNamespace, d, d}
}

// What kops itself renders is admitted, for create and update, on several cluster shapes: the
// policy is derived from it, so a template change cannot lock the operator out unnoticed.
func TestPolicyAdmitsWhatKopsRenders(t *testing.T) {
	for name, spec := range map[string]kops.ClusterSpec{
		"defaults": {},
		"tolerations, affinity and another service range": {
			NonMasqueradeCIDR: "10.0.0.0/8", ServiceClusterIPRange: "10.96.0.0/12",
			KubeDNS: &kops.KubeDNSConfig{
				Tolerations: []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "dns", Effect: corev1.TaintEffectNoSchedule}},
				Affinity:    &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{}},
			},
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := renderedScope(t, spec)
			for _, op := range []string{"CREATE", "UPDATE"} {
				for _, r := range []request{
					{op, "apps", "deployments", WatchNamespace, s.Deployment, s.Deployment},
					{op, "", "services", WatchNamespace, s.Service, s.Service},
					{op, "", "configmaps", WatchNamespace, s.ConfigMap, s.ConfigMap},
					{op, "", "serviceaccounts", WatchNamespace, s.ServiceAccount, s.ServiceAccount},
				} {
					assert.Empty(t, denials(t, s, r), "%s %s", op, r.resource)
				}
			}
		})
	}
}

// Each escape found on the real server, one field at a time, is denied with a message naming it.
func TestPolicyDeniesDeploymentEscapes(t *testing.T) {
	s := renderedScope(t, kops.ClusterSpec{})
	cases := []struct {
		name, message string
		change        func(*appsv1.Deployment)
	}{
		{"another name", "may only create or change Deployment coredns", func(d *appsv1.Deployment) { d.Name = "evil" }},
		{"privileged init container", "init or ephemeral", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.InitContainers = []corev1.Container{{Name: "x", Image: pinnedImage, SecurityContext: &corev1.SecurityContext{Privileged: ptr.To(true)}}}
		}},
		{"ephemeral container", "init or ephemeral", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "x", Image: pinnedImage}}}
		}},
		{"secret volume", "may only mount ConfigMap", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Volumes = append(d.Spec.Template.Spec.Volumes, corev1.Volume{Name: "s", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "x"}}})
		}},
		{"projected volume", "may only mount ConfigMap", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Volumes = append(d.Spec.Template.Spec.Volumes, corev1.Volume{Name: "p", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{}}})
		}},
		{"another ConfigMap", "may only mount ConfigMap", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Volumes[0].ConfigMap.Name = "kubeadm-config"
		}},
		{"NFS volume", "may only mount ConfigMap", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Volumes = append(d.Spec.Template.Spec.Volumes, corev1.Volume{Name: "n", VolumeSource: corev1.VolumeSource{NFS: &corev1.NFSVolumeSource{Server: "x", Path: "/"}}})
		}},
		{"emptyDir the template does not use", "may only mount ConfigMap", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Volumes = append(d.Spec.Template.Spec.Volumes, corev1.Volume{Name: "e", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
		}},
		{"envFrom a secret", "envFrom, valueFrom", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].EnvFrom = []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "x"}}}}
		}},
		{"env valueFrom a secret", "envFrom, valueFrom", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "X", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{Key: "k"}}}}
		}},
		{"foreign image", "with the image kops pins", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "attacker.example/pwn:latest" }},
		{"extra container", "with the image kops pins", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, corev1.Container{Name: "sidecar", Image: pinnedImage})
		}},
		{"nodeName", "may not choose its nodes", func(d *appsv1.Deployment) { d.Spec.Template.Spec.NodeName = "control-plane-1" }},
		{"control-plane nodeSelector", "may not choose its nodes", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.NodeSelector["node-role.kubernetes.io/control-plane"] = ""
		}},
		{"node affinity", "may not choose its nodes", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{}}
		}},
		{"runtime class", "may not choose its nodes", func(d *appsv1.Deployment) { d.Spec.Template.Spec.RuntimeClassName = ptr.To("runc-unconfined") }},
		{"tolerate everything", "tolerations", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Tolerations = append(d.Spec.Template.Spec.Tolerations, corev1.Toleration{Operator: corev1.TolerationOpExists})
		}},
		{"system-node-critical", "priority class", func(d *appsv1.Deployment) { d.Spec.Template.Spec.PriorityClassName = "system-node-critical" }},
		{"500 replicas", "at most 50 replicas", func(d *appsv1.Deployment) { d.Spec.Replicas = ptr.To(int32(500)) }},
		{"SYS_ADMIN", "capabilities", func(d *appsv1.Deployment) {
			c := d.Spec.Template.Spec.Containers[0].SecurityContext.Capabilities
			c.Add = append(c.Add, "SYS_ADMIN")
		}},
		{"no drop ALL", "capabilities", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].SecurityContext.Capabilities.Drop = nil
		}},
		{"allowPrivilegeEscalation", "allowPrivilegeEscalation: false", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].SecurityContext.AllowPrivilegeEscalation = ptr.To(true)
		}},
		{"allowPrivilegeEscalation unset", "allowPrivilegeEscalation: false", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].SecurityContext.AllowPrivilegeEscalation = nil
		}},
		{"privileged", "run privileged", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].SecurityContext.Privileged = ptr.To(true)
		}},
		{"unmasked /proc", "unmask /proc", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].SecurityContext.ProcMount = ptr.To(corev1.UnmaskedProcMount)
		}},
		{"container runAsUser 0", "another user", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].SecurityContext.RunAsUser = ptr.To(int64(0))
		}},
		{"pod runAsUser 0", "non-root user", func(d *appsv1.Deployment) { d.Spec.Template.Spec.SecurityContext.RunAsUser = ptr.To(int64(0)) }},
		{"runAsNonRoot off", "non-root user", func(d *appsv1.Deployment) { d.Spec.Template.Spec.SecurityContext.RunAsNonRoot = nil }},
		{"root supplemental group", "in no root group", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.SecurityContext.SupplementalGroups = []int64{0}
		}},
		{"root fsGroup", "in no root group", func(d *appsv1.Deployment) { d.Spec.Template.Spec.SecurityContext.FSGroup = ptr.To(int64(0)) }},
		{"sysctls", "sysctls", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.SecurityContext.Sysctls = []corev1.Sysctl{{Name: "net.ipv4.ip_unprivileged_port_start", Value: "0"}}
		}},
		{"seccomp Unconfined", "never Unconfined", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].SecurityContext.SeccompProfile = &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeUnconfined}
		}},
		{"pod seccomp Unconfined", "never Unconfined", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.SecurityContext.SeccompProfile = &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeUnconfined}
		}},
		{"AppArmor Unconfined", "never Unconfined", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].SecurityContext.AppArmorProfile = &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeUnconfined}
		}},
		{"AppArmor annotation", "annotations", func(d *appsv1.Deployment) {
			d.Spec.Template.Annotations = map[string]string{"container.apparmor.security.beta.kubernetes.io/coredns": "unconfined"}
		}},
		{"hostPort 53", "host ports", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Ports[0].HostPort = 53 }},
		{"host network", "host's network", func(d *appsv1.Deployment) { d.Spec.Template.Spec.HostNetwork = true }},
		{"another service account", "service account coredns", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.ServiceAccountName = "generic-garbage-collector"
		}},
		{"probe at the metadata service", "probes", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].LivenessProbe.HTTPGet.Host = "169.254.169.254"
		}},
		{"pod labels another Service selects", "may only label its pods", func(d *appsv1.Deployment) {
			d.Spec.Template.Labels["k8s-app"+"-x"] = "metrics-server"
		}},
		{"image pull secret", "image pull secrets", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.ImagePullSecrets = []corev1.LocalObjectReference{{Name: "x"}}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := s.Deployment.DeepCopy()
			tc.change(d)
			denied := denials(t, s, deploymentRequest(d))
			require.NotEmpty(t, denied, "admitted")
			assert.True(t, containsAny(denied, tc.message), "denied for another reason: %v", denied)
		})
	}
}

func containsAny(messages []string, part string) bool {
	for _, m := range messages {
		if strings.Contains(m, part) {
			return true
		}
	}
	return false
}

func TestPolicyDeniesServiceChanges(t *testing.T) {
	s := renderedScope(t, kops.ClusterSpec{})
	cases := map[string]func(*corev1.Service){
		"another name":       func(svc *corev1.Service) { svc.Name = "kube-dns2" },
		"another cluster IP": func(svc *corev1.Service) { svc.Spec.ClusterIP = "100.64.0.99" },
		"no cluster IP":      func(svc *corev1.Service) { svc.Spec.ClusterIP = "" },
		"NodePort":           func(svc *corev1.Service) { svc.Spec.Type = corev1.ServiceTypeNodePort },
		"externalIPs":        func(svc *corev1.Service) { svc.Spec.ExternalIPs = []string{"203.0.113.1"} },
		"the API server's pods": func(svc *corev1.Service) {
			svc.Spec.Selector = map[string]string{"k8s-app": "kube-apiserver"}
		},
		"a wider selector": func(svc *corev1.Service) { svc.Spec.Selector["tier"] = "control-plane" },
		"an extra port": func(svc *corev1.Service) {
			svc.Spec.Ports = append(svc.Spec.Ports, corev1.ServicePort{Name: "x", Port: 443, TargetPort: intstr.FromInt32(443)})
		},
		"another target port": func(svc *corev1.Service) { svc.Spec.Ports[0].TargetPort = intstr.FromInt32(8080) },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			svc := s.Service.DeepCopy()
			change(svc)
			for _, op := range []string{"CREATE", "UPDATE"} {
				assert.NotEmpty(t, denials(t, s, request{op, "", "services", WatchNamespace, svc, s.Service}), op)
			}
		})
	}
}

func TestPolicyServiceAccount(t *testing.T) {
	s := renderedScope(t, kops.ClusterSpec{})
	old := s.ServiceAccount.DeepCopy()
	old.Secrets = []corev1.ObjectReference{{Name: "legacy-token"}}
	labelled := old.DeepCopy()
	labelled.Labels["e2e"] = "yes"
	assert.Empty(t, denials(t, s, request{"UPDATE", "", "serviceaccounts", WatchNamespace, labelled, old}), "labels may change")
	for name, change := range map[string]func(*corev1.ServiceAccount){
		"automount":  func(sa *corev1.ServiceAccount) { sa.AutomountServiceAccountToken = ptr.To(true) },
		"secrets":    func(sa *corev1.ServiceAccount) { sa.Secrets = append(sa.Secrets, corev1.ObjectReference{Name: "x"}) },
		"no secrets": func(sa *corev1.ServiceAccount) { sa.Secrets = nil },
		"imagePullSecrets": func(sa *corev1.ServiceAccount) {
			sa.ImagePullSecrets = []corev1.LocalObjectReference{{Name: "x"}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			sa := old.DeepCopy()
			change(sa)
			assert.NotEmpty(t, denials(t, s, request{"UPDATE", "", "serviceaccounts", WatchNamespace, sa, old}), "update")
			if name != "no secrets" {
				fresh := s.ServiceAccount.DeepCopy()
				change(fresh)
				assert.NotEmpty(t, denials(t, s, request{"CREATE", "", "serviceaccounts", WatchNamespace, fresh, nil}), "create")
			}
		})
	}
}

func TestPolicyEvents(t *testing.T) {
	s := renderedScope(t, kops.ClusterSpec{})
	core := func(component, kind, name string) *corev1.Event {
		return &corev1.Event{
			ObjectMeta:     metav1.ObjectMeta{Name: "e", Namespace: WatchNamespace},
			InvolvedObject: corev1.ObjectReference{Kind: kind, Name: name, Namespace: WatchNamespace},
			Source:         corev1.EventSource{Component: component},
		}
	}
	mine := core(EventReporter, "Deployment", CoreDNSDeployment)
	assert.Empty(t, denials(t, s, request{"CREATE", "", "events", WatchNamespace, mine, nil}))
	assert.Empty(t, denials(t, s, request{"UPDATE", "", "events", WatchNamespace, mine, mine}))
	assert.Empty(t, denials(t, s, request{"CREATE", "", "events", Namespace, core("host_uuid", "Lease", LeaseName), nil}), "its own namespace is its own")

	for name, r := range map[string]request{
		"as the scheduler":        {"CREATE", "", "events", WatchNamespace, core("default-scheduler", "Deployment", CoreDNSDeployment), nil},
		"as nobody":               {"CREATE", "", "events", WatchNamespace, core("", "Deployment", CoreDNSDeployment), nil},
		"about the API server":    {"CREATE", "", "events", WatchNamespace, core(EventReporter, "Pod", "kube-apiserver-x"), nil},
		"patch another's event":   {"UPDATE", "", "events", WatchNamespace, mine, core("kubelet", "Deployment", CoreDNSDeployment)},
		"rewrite another's event": {"UPDATE", "", "events", WatchNamespace, core("kubelet", "Deployment", CoreDNSDeployment), core("kubelet", "Deployment", CoreDNSDeployment)},
		"new API, as another": {"CREATE", "events.k8s.io", "events", WatchNamespace, map[string]interface{}{
			"reportingController": "kubelet", "regarding": map[string]interface{}{"kind": "Deployment", "name": CoreDNSDeployment},
		}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			assert.NotEmpty(t, denials(t, s, r))
		})
	}
	assert.Empty(t, denials(t, s, request{"CREATE", "events.k8s.io", "events", WatchNamespace, map[string]interface{}{
		"reportingController": EventReporter, "regarding": map[string]interface{}{"kind": "CoreDNS", "name": CoreDNSResource},
	}, nil}), "new API, as itself")
}

func TestPolicyAppliesToOperatorOnly(t *testing.T) {
	objects := PolicyObjects(renderedScope(t, kops.ClusterSpec{}))
	policy := objects[0].(*admissionregistrationv1.ValidatingAdmissionPolicy)
	env, err := cel.NewEnv(cel.Variable("request", cel.DynType))
	require.NoError(t, err)
	for user, want := range map[string]bool{
		Username: true,
		"system:serviceaccount:kube-system:deployment-controller": false,
		"kubernetes-admin": false,
	} {
		ast, issues := env.Compile(policy.Spec.MatchConditions[0].Expression)
		require.NoError(t, issues.Err())
		program, err := env.Program(ast)
		require.NoError(t, err)
		out, _, err := program.Eval(map[string]interface{}{"request": map[string]interface{}{"userInfo": map[string]interface{}{"username": user}}})
		require.NoError(t, err)
		assert.Equal(t, want, out.Value(), user)
	}
	binding := objects[1].(*admissionregistrationv1.ValidatingAdmissionPolicyBinding)
	assert.Equal(t, PolicyName, binding.Spec.PolicyName)
	assert.Equal(t, []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny}, binding.Spec.ValidationActions)
}

// A template that lost what the policy relies on is refused, rather than confining less.
func TestScopeFromManifestRefusesWeakTemplates(t *testing.T) {
	s := renderedScope(t, kops.ClusterSpec{})
	for name, change := range map[string]func(*Scope){
		"no runAsNonRoot":  func(s *Scope) { s.Deployment.Spec.Template.Spec.SecurityContext.RunAsNonRoot = nil },
		"root user":        func(s *Scope) { s.Deployment.Spec.Template.Spec.SecurityContext.RunAsUser = ptr.To(int64(0)) },
		"no seccomp":       func(s *Scope) { s.Deployment.Spec.Template.Spec.SecurityContext.SeccompProfile = nil },
		"headless Service": func(s *Scope) { s.Service.Spec.ClusterIP = corev1.ClusterIPNone },
		"NodePort Service": func(s *Scope) { s.Service.Spec.Type = corev1.ServiceTypeNodePort },
		"init container": func(s *Scope) {
			s.Deployment.Spec.Template.Spec.InitContainers = []corev1.Container{{Name: "i"}}
		},
		"no ServiceAccount": func(s *Scope) { s.ServiceAccount = nil },
	} {
		t.Run(name, func(t *testing.T) {
			c := &Scope{Descriptor: s.Descriptor, Deployment: s.Deployment.DeepCopy(), Service: s.Service.DeepCopy(), ServiceAccount: s.ServiceAccount.DeepCopy(), ConfigMap: s.ConfigMap.DeepCopy()}
			change(c)
			assert.Error(t, c.Validate())
		})
	}
	_, err := ScopeFromManifest([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: coredns, namespace: kube-system}\n"))
	assert.ErrorContains(t, err, "no Deployment kube-system/coredns")
}
