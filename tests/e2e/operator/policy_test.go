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

package operator

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/utils/ptr"

	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	kopsoperator "k8s.io/kops/pkg/operator"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

var (
	renderedOnce sync.Once
	rendered     struct {
		deployment     *appsv1.Deployment
		service        *corev1.Service
		configMap      *corev1.ConfigMap
		serviceAccount *corev1.ServiceAccount
		// objects are the four as decoded JSON, by kind.
		objects map[string]map[string]interface{}
	}
)

// builtIn is what the built-in CoreDNS addon renders for the same cluster: `kops update cluster`
// of the same input without the operator flags. The policy is derived from exactly these objects,
// so the operator may write them and nothing that departs from them.
func builtIn(t *testing.T) {
	renderedOnce.Do(func() {
		s := kopsenv.NewStoreAt(t, "addon-operators", "memfs://e2e-builtin")
		location := s.Update(t, "")
		rendered.objects = map[string]map[string]interface{}{}
		for _, u := range kopsenv.ManifestObjects(t, location, s.Mem) {
			if u.GetNamespace() != "kube-system" {
				continue
			}
			var target runtime.Object
			switch u.GetKind() + "/" + u.GetName() {
			case "Deployment/coredns":
				rendered.deployment = &appsv1.Deployment{}
				target = rendered.deployment
			case "Service/kube-dns":
				rendered.service = &corev1.Service{}
				target = rendered.service
			case "ConfigMap/coredns":
				rendered.configMap = &corev1.ConfigMap{}
				target = rendered.configMap
			case "ServiceAccount/coredns":
				rendered.serviceAccount = &corev1.ServiceAccount{}
				target = rendered.serviceAccount
			default:
				continue
			}
			require.NoError(t, runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, target))
			rendered.objects[u.GetKind()] = u.Object
		}
	})
	waitEnforced(t)
	require.NotNil(t, rendered.deployment, "the built-in addon renders Deployment coredns")
	require.NotNil(t, rendered.service, "the built-in addon renders Service kube-dns")
	require.NotNil(t, rendered.configMap, "the built-in addon renders ConfigMap coredns")
	require.NotNil(t, rendered.serviceAccount, "the built-in addon renders ServiceAccount coredns")
}

var dryRun = []string{metav1.DryRunAll}

// waitEnforced waits, boundedly, until the server enforces the policy the channel applied: a
// policy takes effect a moment after it is stored (closing that window is channels' job, tested
// there), and these tests are about what the policy says, not when it starts.
func waitEnforced(t *testing.T) {
	t.Helper()
	operator, _ := asOperator(t)
	probe := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "e2e-enforced-probe", Namespace: "kube-system"}}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := operator.CoreV1().ConfigMaps("kube-system").Create(framework.Context(t), probe, metav1.CreateOptions{DryRun: dryRun})
		if err != nil && strings.Contains(err.Error(), "coredns-operator-scope") {
			return
		}
		require.True(t, time.Now().Before(deadline), "the admission policy is not enforced 30 s after it was applied: %v", err)
		time.Sleep(50 * time.Millisecond)
	}
}

// freshRendered deletes, as the admin, the managed objects and lets the operator create them as
// kops renders them: its creates of exactly those objects are admitted.
func TestOperatorMayCreateWhatKopsRenders(t *testing.T) {
	setup(t)
	builtIn(t)
	ctx := framework.Context(t)
	admin := env.Clientset
	operator, _ := asOperator(t)

	require.NoError(t, ignoreNotFound(admin.AppsV1().Deployments("kube-system").Delete(ctx, "coredns", metav1.DeleteOptions{})))
	_, err := operator.AppsV1().Deployments("kube-system").Create(ctx, operatorWrites(rendered.deployment), metav1.CreateOptions{})
	require.NoError(t, err, "the operator creates the Deployment kops renders")
	_, err = operator.CoreV1().ConfigMaps("kube-system").Create(ctx, clean(rendered.configMap), metav1.CreateOptions{DryRun: dryRun})
	assertDenied(t, err, "create with kops's channels' metadata (channels' to set)", "channels' labels left as they are")

	require.NoError(t, ignoreNotFound(admin.CoreV1().ConfigMaps("kube-system").Delete(ctx, "coredns", metav1.DeleteOptions{})))
	_, err = operator.CoreV1().ConfigMaps("kube-system").Create(ctx, operatorWrites(rendered.configMap), metav1.CreateOptions{})
	require.NoError(t, err, "the operator creates the ConfigMap kops renders")

	require.NoError(t, ignoreNotFound(admin.CoreV1().Services("kube-system").Delete(ctx, "kube-dns", metav1.DeleteOptions{})))
	waitGone(t, func() error {
		_, err := admin.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
		return err
	})
	// Before the rendered Service exists again, the escapes a delete would have opened are refused
	// at create time too.
	for name, change := range serviceEscapes() {
		svc := operatorWrites(rendered.service)
		change(svc)
		_, err := operator.CoreV1().Services("kube-system").Create(ctx, svc, metav1.CreateOptions{DryRun: dryRun})
		assertDenied(t, err, "create Service kube-dns with "+name, "Service kube-dns")
	}
	_, err = operator.CoreV1().Services("kube-system").Create(ctx, operatorWrites(rendered.service), metav1.CreateOptions{})
	require.NoError(t, err, "the operator creates the Service kops renders")

	sa := operatorWrites(rendered.serviceAccount)
	_, err = operator.CoreV1().ServiceAccounts("kube-system").Create(ctx, sa, metav1.CreateOptions{DryRun: dryRun})
	if !apierrors.IsAlreadyExists(err) {
		require.NoError(t, err, "the operator creates the ServiceAccount kops renders")
	}
}

// Every update of what kops renders is admitted, as an update and as a strategic merge patch.
func TestOperatorMayUpdateWhatKopsRenders(t *testing.T) {
	setup(t)
	builtIn(t)
	ensureRendered(t)
	ctx := framework.Context(t)
	operator, _ := asOperator(t)

	d := currentDeployment(t)
	asItself := corednsmodel.Descriptor().FieldManager()
	_, err := operator.AppsV1().Deployments("kube-system").Update(ctx, d, metav1.UpdateOptions{FieldManager: asItself})
	assert.NoError(t, err, "update Deployment coredns")
	_, err = operator.AppsV1().Deployments("kube-system").Patch(ctx, "coredns", types.StrategicMergePatchType,
		[]byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{DryRun: dryRun, FieldManager: asItself})
	assert.NoError(t, err, "scale Deployment coredns within its bounds (the autoscaler's hole)")
	svc, err := env.Clientset.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
	require.NoError(t, err)
	_, err = operator.CoreV1().Services("kube-system").Update(ctx, svc, metav1.UpdateOptions{FieldManager: asItself})
	assert.NoError(t, err, "update Service kube-dns")
	cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	_, err = operator.CoreV1().ConfigMaps("kube-system").Update(ctx, cm, metav1.UpdateOptions{DryRun: dryRun, FieldManager: asItself})
	assert.NoError(t, err, "update ConfigMap coredns")
	sa, err := env.Clientset.CoreV1().ServiceAccounts("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	_, err = operator.CoreV1().ServiceAccounts("kube-system").Update(ctx, sa, metav1.UpdateOptions{DryRun: dryRun, FieldManager: asItself})
	assert.NoError(t, err, "update ServiceAccount coredns")
}

// Each escape found on the real server against the first policy, one field at a time, as an
// update and as a strategic merge patch: each is denied, saying why.
func TestOperatorDeploymentEscapesDenied(t *testing.T) {
	setup(t)
	builtIn(t)
	ensureRendered(t)
	ctx := framework.Context(t)
	operator, _ := asOperator(t)
	secretVolume := func(source corev1.VolumeSource) func(*corev1.PodSpec) {
		return func(p *corev1.PodSpec) {
			p.Volumes = append(p.Volumes, corev1.Volume{Name: "escape", VolumeSource: source})
			p.Containers[0].VolumeMounts = append(p.Containers[0].VolumeMounts, corev1.VolumeMount{Name: "escape", MountPath: "/escape"})
		}
	}
	first := func(change func(*corev1.Container)) func(*corev1.PodSpec) {
		return func(p *corev1.PodSpec) { change(&p.Containers[0]) }
	}
	sc := func(change func(*corev1.SecurityContext)) func(*corev1.PodSpec) {
		return first(func(c *corev1.Container) { change(c.SecurityContext) })
	}
	cases := []struct {
		name, message string
		change        func(*corev1.PodSpec)
	}{
		{"privileged init container", "spec exactly as rendered", func(p *corev1.PodSpec) {
			p.InitContainers = []corev1.Container{{Name: "init", Image: p.Containers[0].Image, SecurityContext: &corev1.SecurityContext{Privileged: ptr.To(true)}}}
		}},
		// The server itself refuses ephemeral containers in a pod template; the policy would too.
		{"ephemeral container", "ephemeral containers not allowed", func(p *corev1.PodSpec) {
			p.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug", Image: p.Containers[0].Image}}}
		}},
		{"secret volume", "spec exactly as rendered", secretVolume(corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "bootstrap-token-abc"}})},
		{"projected volume", "spec exactly as rendered", secretVolume(corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
			{Secret: &corev1.SecretProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "bootstrap-token-abc"}}}}}})},
		{"NFS volume", "spec exactly as rendered", secretVolume(corev1.VolumeSource{NFS: &corev1.NFSVolumeSource{Server: "10.0.0.1", Path: "/"}})},
		{"inline CSI volume", "spec exactly as rendered", secretVolume(corev1.VolumeSource{CSI: &corev1.CSIVolumeSource{Driver: "secrets-store.csi.k8s.io"}})},
		{"ephemeral volume", "spec exactly as rendered", secretVolume(corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{
			Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: *qty("1Gi")}}}}}})},
		{"host path", "spec exactly as rendered", secretVolume(corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/"}})},
		{"envFrom a Secret", "spec exactly as rendered", first(func(c *corev1.Container) {
			c.EnvFrom = []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "bootstrap-token-abc"}}}}
		})},
		{"env valueFrom a Secret", "spec exactly as rendered", first(func(c *corev1.Container) {
			c.Env = []corev1.EnvVar{{Name: "TOKEN", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: "bootstrap-token-abc"}, Key: "token-secret"}}}}
		})},
		{"foreign image", "spec exactly as rendered", first(func(c *corev1.Container) { c.Image = "attacker.example/pwn:latest" })},
		{"nodeName", "spec exactly as rendered", func(p *corev1.PodSpec) { p.NodeName = "control-plane-1" }},
		{"control-plane nodeSelector", "spec exactly as rendered", func(p *corev1.PodSpec) {
			p.NodeSelector = map[string]string{"kubernetes.io/os": "linux", "node-role.kubernetes.io/control-plane": ""}
		}},
		{"toleration of everything", "spec exactly as rendered", func(p *corev1.PodSpec) {
			p.Tolerations = append(p.Tolerations, corev1.Toleration{Operator: corev1.TolerationOpExists})
		}},
		{"system-node-critical", "spec exactly as rendered", func(p *corev1.PodSpec) { p.PriorityClassName = "system-node-critical" }},
		{"SYS_ADMIN", "spec exactly as rendered", sc(func(s *corev1.SecurityContext) { s.Capabilities.Add = append(s.Capabilities.Add, "SYS_ADMIN") })},
		{"NET_ADMIN", "spec exactly as rendered", sc(func(s *corev1.SecurityContext) { s.Capabilities.Add = append(s.Capabilities.Add, "NET_ADMIN") })},
		{"SYS_PTRACE", "spec exactly as rendered", sc(func(s *corev1.SecurityContext) { s.Capabilities.Add = append(s.Capabilities.Add, "SYS_PTRACE") })},
		{"allowPrivilegeEscalation", "spec exactly as rendered", sc(func(s *corev1.SecurityContext) { s.AllowPrivilegeEscalation = ptr.To(true) })},
		{"privileged", "spec exactly as rendered", sc(func(s *corev1.SecurityContext) { s.Privileged = ptr.To(true); s.AllowPrivilegeEscalation = nil })},
		{"runAsUser 0", "spec exactly as rendered", sc(func(s *corev1.SecurityContext) { s.RunAsUser = ptr.To(int64(0)); s.RunAsNonRoot = ptr.To(false) })},
		{"pod runAsUser 0", "spec exactly as rendered", func(p *corev1.PodSpec) {
			p.SecurityContext.RunAsUser = ptr.To(int64(0))
			p.SecurityContext.RunAsNonRoot = nil
		}},
		{"seccomp Unconfined", "spec exactly as rendered", sc(func(s *corev1.SecurityContext) {
			s.SeccompProfile = &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeUnconfined}
		})},
		{"AppArmor Unconfined", "spec exactly as rendered", sc(func(s *corev1.SecurityContext) {
			s.AppArmorProfile = &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeUnconfined}
		})},
		{"hostPort 53", "spec exactly as rendered", first(func(c *corev1.Container) { c.Ports[0].HostPort = 53 })},
		{"root supplemental group", "spec exactly as rendered", func(p *corev1.PodSpec) { p.SecurityContext.SupplementalGroups = []int64{0} }},
		{"sysctls", "spec exactly as rendered", func(p *corev1.PodSpec) {
			p.SecurityContext.Sysctls = []corev1.Sysctl{{Name: "net.ipv4.ip_unprivileged_port_start", Value: "0"}}
		}},
		{"host network", "spec exactly as rendered", func(p *corev1.PodSpec) { p.HostNetwork = true }},
		{"another service account", "spec exactly as rendered", func(p *corev1.PodSpec) { p.ServiceAccountName = "generic-garbage-collector" }},
		{"node affinity to the control plane", "spec exactly as rendered", func(p *corev1.PodSpec) {
			p.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
					{Key: "node-role.kubernetes.io/control-plane", Operator: corev1.NodeSelectorOpExists}}}}}}}
		}},
		{"runtime class", "spec exactly as rendered", func(p *corev1.PodSpec) { p.RuntimeClassName = ptr.To("unconfined") }},
		{"probe at the metadata service", "spec exactly as rendered", first(func(c *corev1.Container) { c.LivenessProbe.HTTPGet.Host = "169.254.169.254" })},
		{"image pull secret", "spec exactly as rendered", func(p *corev1.PodSpec) {
			p.ImagePullSecrets = []corev1.LocalObjectReference{{Name: "bootstrap-token-abc"}}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			current := currentDeployment(t)
			changed := current.DeepCopy()
			tc.change(&changed.Spec.Template.Spec)
			_, err := operator.AppsV1().Deployments("kube-system").Update(ctx, changed, metav1.UpdateOptions{DryRun: dryRun})
			if len(changed.Spec.Template.Spec.EphemeralContainers) > 0 {
				require.Error(t, err)
				assert.True(t, apierrors.IsInvalid(err), "%v", err)
				return
			}
			assertDenied(t, err, "update", tc.message)
			patch := strategicPatch(t, current, changed, appsv1.Deployment{})
			_, err = operator.AppsV1().Deployments("kube-system").Patch(ctx, "coredns", types.StrategicMergePatchType, patch, metav1.PatchOptions{DryRun: dryRun})
			assertDenied(t, err, "strategic merge patch", tc.message)
		})
	}
	t.Run("500 replicas", func(t *testing.T) {
		_, err := operator.AppsV1().Deployments("kube-system").Patch(ctx, "coredns", types.StrategicMergePatchType,
			[]byte(`{"spec":{"replicas":500}}`), metav1.PatchOptions{DryRun: dryRun})
		assertDenied(t, err, "patch", "1 to 50 replicas")
	})
	t.Run("pod label another Service selects", func(t *testing.T) {
		_, err := operator.AppsV1().Deployments("kube-system").Patch(ctx, "coredns", types.StrategicMergePatchType,
			[]byte(`{"spec":{"template":{"metadata":{"labels":{"app":"metrics-server"}}}}}`), metav1.PatchOptions{DryRun: dryRun})
		assertDenied(t, err, "patch", "spec exactly as rendered")
	})
	t.Run("AppArmor annotation", func(t *testing.T) {
		_, err := operator.AppsV1().Deployments("kube-system").Patch(ctx, "coredns", types.StrategicMergePatchType,
			[]byte(`{"spec":{"template":{"metadata":{"annotations":{"container.apparmor.security.beta.kubernetes.io/coredns":"unconfined"}}}}}`), metav1.PatchOptions{DryRun: dryRun})
		assertDenied(t, err, "patch", "")
	})
}

// serviceEscapes are the Service changes an attacker wants: another address, exposure outside the
// cluster, or traffic meant for DNS sent to other pods.
func serviceEscapes() map[string]func(*corev1.Service) {
	return map[string]func(*corev1.Service){
		"another clusterIP": func(s *corev1.Service) { s.Spec.ClusterIP = "100.64.0.99"; s.Spec.ClusterIPs = nil },
		"type NodePort":     func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeNodePort },
		"externalIPs":       func(s *corev1.Service) { s.Spec.ExternalIPs = []string{"203.0.113.10"} },
		"the API server's pods as selector": func(s *corev1.Service) {
			s.Spec.Selector = map[string]string{"k8s-app": "kube-apiserver"}
		},
		"an extra port": func(s *corev1.Service) {
			s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "https", Port: 443, TargetPort: intstr.FromInt32(443), Protocol: corev1.ProtocolTCP})
		},
	}
}

func TestOperatorServiceEscapesDenied(t *testing.T) {
	setup(t)
	builtIn(t)
	ensureRendered(t)
	ctx := framework.Context(t)
	operator, _ := asOperator(t)
	for name, change := range serviceEscapes() {
		t.Run(name, func(t *testing.T) {
			current, err := env.Clientset.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
			require.NoError(t, err)
			changed := current.DeepCopy()
			change(changed)
			_, err = operator.CoreV1().Services("kube-system").Update(ctx, changed, metav1.UpdateOptions{DryRun: dryRun})
			if name == "another clusterIP" && apierrors.IsInvalid(err) {
				// The server refuses to change a cluster IP before admission; the create path is
				// tested in TestOperatorMayCreateWhatKopsRenders.
				return
			}
			assertDenied(t, err, "update Service kube-dns with "+name, "Service kube-dns")
		})
	}
	err := operator.CoreV1().Services("kube-system").Delete(ctx, "kube-dns", metav1.DeleteOptions{DryRun: dryRun})
	assertForbidden(t, err, "delete Service kube-dns (so as to create it again with another address)")
}

func TestOperatorServiceAccountChangesDenied(t *testing.T) {
	setup(t)
	builtIn(t)
	ensureRendered(t)
	ctx := framework.Context(t)
	operator, _ := asOperator(t)
	for name, patch := range map[string]string{
		"automountServiceAccountToken": `{"automountServiceAccountToken":true}`,
		"secrets":                      `{"secrets":[{"name":"bootstrap-token-abc"}]}`,
		"imagePullSecrets":             `{"imagePullSecrets":[{"name":"bootstrap-token-abc"}]}`,
	} {
		_, err := operator.CoreV1().ServiceAccounts("kube-system").Patch(ctx, "coredns", types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{DryRun: dryRun})
		assertDenied(t, err, "patch ServiceAccount coredns's "+name, "ServiceAccount coredns")
	}
}

func TestOperatorEventsConfined(t *testing.T) {
	setup(t)
	waitEnforced(t)
	ctx := framework.Context(t)
	operator, _ := asOperator(t)
	now := metav1.NewTime(time.Now())
	apiVersions := map[string]string{"Deployment": "apps/v1", "Pod": "v1"}
	coreEvent := func(name, component, kind, objectName string) *corev1.Event {
		return &corev1.Event{
			ObjectMeta:     metav1.ObjectMeta{Name: name, Namespace: "kube-system"},
			InvolvedObject: corev1.ObjectReference{Kind: kind, Name: objectName, Namespace: "kube-system", APIVersion: apiVersions[kind]},
			Reason:         "Test", Message: "e2e", Type: corev1.EventTypeNormal,
			Source: corev1.EventSource{Component: component, Host: component}, FirstTimestamp: now, LastTimestamp: now, Count: 1,
			ReportingController: component, ReportingInstance: component,
		}
	}
	events := operator.CoreV1().Events("kube-system")
	mine := fmt.Sprintf("e2e-mine-%d", time.Now().UnixNano()) // a new event each run of the test
	_, err := events.Create(ctx, coreEvent(mine, "coredns-operator", "Deployment", "coredns"), metav1.CreateOptions{})
	require.NoError(t, err, "the operator records an event as itself about its Deployment")
	_, err = events.Patch(ctx, mine, types.StrategicMergePatchType, []byte(`{"count":2}`), metav1.PatchOptions{})
	assert.NoError(t, err, "and counts it up")

	_, err = events.Create(ctx, coreEvent("e2e-forged", "kubelet", "Deployment", "coredns"), metav1.CreateOptions{DryRun: dryRun})
	assertDenied(t, err, "forge an event as the kubelet", "record events")
	_, err = events.Create(ctx, coreEvent("e2e-about-apiserver", "coredns-operator", "Pod", "kube-apiserver-x"), metav1.CreateOptions{DryRun: dryRun})
	assertDenied(t, err, "an event about the API server's pod", "record events")

	_, err = env.Clientset.CoreV1().Events("kube-system").Create(ctx, coreEvent("e2e-scheduler", "default-scheduler", "Deployment", "coredns"), metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		require.NoError(t, err)
	}
	_, err = events.Patch(ctx, "e2e-scheduler", types.StrategicMergePatchType, []byte(`{"message":"rewritten"}`), metav1.PatchOptions{DryRun: dryRun})
	assertDenied(t, err, "rewrite the scheduler's event", "record events")
	_, err = events.Patch(ctx, "e2e-scheduler", types.StrategicMergePatchType, []byte(`{"source":{"component":"coredns-operator"}}`), metav1.PatchOptions{DryRun: dryRun})
	assertDenied(t, err, "take over the scheduler's event", "record events")

	newEvent := func(name, controller string) *eventsv1.Event {
		return &eventsv1.Event{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "kube-system"},
			EventTime:  metav1.NewMicroTime(time.Now()), ReportingController: controller, ReportingInstance: controller,
			Action: "Reconcile", Reason: "Test", Note: "e2e", Type: corev1.EventTypeNormal,
			Regarding: corev1.ObjectReference{Kind: "CoreDNS", Name: "coredns", Namespace: "kube-system", APIVersion: "addons.x-k8s.io/v1alpha1"},
		}
	}
	_, err = operator.EventsV1().Events("kube-system").Create(ctx, newEvent("e2e-new-mine", "coredns-operator"), metav1.CreateOptions{DryRun: dryRun})
	assert.NoError(t, err, "events.k8s.io: as itself")
	_, err = operator.EventsV1().Events("kube-system").Create(ctx, newEvent("e2e-new-forged", "kube-controller-manager"), metav1.CreateOptions{DryRun: dryRun})
	assertDenied(t, err, "events.k8s.io: as kube-controller-manager", "record events")
}

// ensureRendered puts, as the admin, the managed objects back as kops renders them.
func ensureRendered(t *testing.T) {
	t.Helper()
	ctx := framework.Context(t)
	admin := env.Clientset
	if d, err := admin.AppsV1().Deployments("kube-system").Get(ctx, "coredns", metav1.GetOptions{}); err == nil {
		want := clean(rendered.deployment)
		want.ResourceVersion = d.ResourceVersion
		_, err = admin.AppsV1().Deployments("kube-system").Update(ctx, want, metav1.UpdateOptions{})
		require.NoError(t, err)
	} else {
		require.True(t, apierrors.IsNotFound(err), "%v", err)
		_, err = admin.AppsV1().Deployments("kube-system").Create(ctx, clean(rendered.deployment), metav1.CreateOptions{})
		require.NoError(t, err)
	}
	if svc, err := admin.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{}); err == nil {
		if svc.Spec.ClusterIP != rendered.service.Spec.ClusterIP || len(svc.Spec.Ports) != len(rendered.service.Spec.Ports) {
			require.NoError(t, admin.CoreV1().Services("kube-system").Delete(ctx, "kube-dns", metav1.DeleteOptions{}))
			waitGone(t, func() error {
				_, err := admin.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
				return err
			})
			_, err = admin.CoreV1().Services("kube-system").Create(ctx, clean(rendered.service), metav1.CreateOptions{})
			require.NoError(t, err)
		}
	} else {
		require.True(t, apierrors.IsNotFound(err), "%v", err)
		_, err = admin.CoreV1().Services("kube-system").Create(ctx, clean(rendered.service), metav1.CreateOptions{})
		require.NoError(t, err)
	}
	if cm, err := admin.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{}); err == nil {
		want := clean(rendered.configMap)
		want.ResourceVersion = cm.ResourceVersion
		_, err = admin.CoreV1().ConfigMaps("kube-system").Update(ctx, want, metav1.UpdateOptions{})
		require.NoError(t, err)
	} else {
		_, err := admin.CoreV1().ConfigMaps("kube-system").Create(ctx, clean(rendered.configMap), metav1.CreateOptions{})
		require.NoError(t, err)
	}
	if sa, err := admin.CoreV1().ServiceAccounts("kube-system").Get(ctx, "coredns", metav1.GetOptions{}); err == nil {
		want := clean(rendered.serviceAccount)
		want.ResourceVersion = sa.ResourceVersion
		_, err = admin.CoreV1().ServiceAccounts("kube-system").Update(ctx, want, metav1.UpdateOptions{})
		require.NoError(t, err)
	} else {
		_, err := admin.CoreV1().ServiceAccounts("kube-system").Create(ctx, clean(rendered.serviceAccount), metav1.CreateOptions{})
		require.NoError(t, err)
	}
}

func currentDeployment(t *testing.T) *appsv1.Deployment {
	d, err := env.Clientset.AppsV1().Deployments("kube-system").Get(framework.Context(t), "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	return d
}

// clean is a copy of a rendered object ready to send.
func clean[T interface {
	runtime.Object
	metav1.Object
}](obj T) T {
	c := obj.DeepCopyObject().(T)
	c.SetResourceVersion("")
	return c
}

// operatorWrites is a rendered object as the operator writes it: without the metadata kops's
// channels sets (operator.ChannelsLabels and ChannelsAnnotations), which it leaves to channels.
func operatorWrites[T interface {
	runtime.Object
	metav1.Object
}](obj T) T {
	c := clean(obj)
	labels, annotations := c.GetLabels(), c.GetAnnotations()
	for _, k := range kopsoperator.ChannelsLabels {
		delete(labels, k)
	}
	for _, k := range kopsoperator.ChannelsAnnotations {
		delete(annotations, k)
	}
	c.SetLabels(labels)
	c.SetAnnotations(annotations)
	return c
}

func strategicPatch(t *testing.T, from, to, schema interface{}) []byte {
	a, err := json.Marshal(from)
	require.NoError(t, err)
	b, err := json.Marshal(to)
	require.NoError(t, err)
	patch, err := strategicpatch.CreateTwoWayMergePatch(a, b, schema)
	require.NoError(t, err)
	return patch
}

// assertDenied checks that the policy refused a request, naming the rule (message "" checks only
// the denial).
func assertDenied(t *testing.T, err error, what, message string) {
	t.Helper()
	require.Error(t, err, "%s was admitted", what)
	assert.True(t, apierrors.IsInvalid(err) || apierrors.IsForbidden(err), "%s: %v", what, err)
	assert.Contains(t, err.Error(), "coredns-operator-scope", "%s: denied by the policy, not by something else: %v", what, err)
	if message != "" {
		assert.True(t, strings.Contains(err.Error(), message), "%s: denied saying why (%q): %v", what, message, err)
	}
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func waitGone(t *testing.T, get func() error) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !apierrors.IsNotFound(get()) {
		require.True(t, time.Now().Before(deadline), "object not deleted")
		time.Sleep(100 * time.Millisecond)
	}
}

func qty(s string) *resource.Quantity {
	q := resource.MustParse(s)
	return &q
}

// coreDNSRow is CoreDNS's operator in the attacker's table, deployed by the package's kops cluster.
func coreDNSRow() confinedOperator {
	return confinedOperator{name: "coredns", descriptor: corednsmodel.Descriptor, holes: map[string]bool{"spec.replicas": true},
		deploy: func(t *testing.T) map[string]map[string]interface{} {
			setup(t)
			builtIn(t)
			ensureRendered(t)
			return rendered.objects
		}}
}
