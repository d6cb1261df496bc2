package validation

import (
	"context"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/model/components/corednsoperator"
	"k8s.io/kops/pkg/model/components/kube2iam"
)

// Check is one thing validated on the cluster.
type Check struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	OK      bool   `json:"ok"`
	Message string `json:"message"`
}

// Result is one validation of a cluster.
type Result struct {
	Cluster string  `json:"cluster"`
	Channel string  `json:"channel"`
	DNS     DNSMode `json:"dns"`
	Checks  []Check `json:"checks"`
}

// Healthy says whether every check passed.
func (r *Result) Healthy() bool {
	for _, c := range r.Checks {
		if !c.OK {
			return false
		}
	}
	return true
}

// Failures are the checks that did not pass.
func (r *Result) Failures() []Check {
	var out []Check
	for _, c := range r.Checks {
		if !c.OK {
			out = append(out, c)
		}
	}
	return out
}

// coreDNSResource is the CoreDNS custom resource of the cluster-addons operator.
var coreDNSResource = schema.GroupVersionResource{Group: corednsoperator.CRDGroup, Version: "v1alpha1", Resource: corednsoperator.CRDResource}

// Validator reads the cluster; it never writes. It reads through the dynamic client alone and
// converts the few built-in objects it checks: client-go's typed clientset would link every API
// group into kops and double the start-up time of every kops command.
type Validator struct {
	Dynamic dynamic.Interface
}

var (
	namespaceResource  = corev1.SchemeGroupVersion.WithResource("namespaces")
	serviceResource    = corev1.SchemeGroupVersion.WithResource("services")
	deploymentResource = appsv1.SchemeGroupVersion.WithResource("deployments")
)

// get reads one object (namespace "" for a cluster-scoped one) into its typed form.
func (v *Validator) get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, into interface{}) error {
	u, err := v.Dynamic.Resource(gvr).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, into); err != nil {
		return fmt.Errorf("reading %s %s/%s: %w", gvr.Resource, namespace, name, err)
	}
	return nil
}

// Validate checks the cluster once against what is expected. A request that fails (other than
// "not found") fails its check with the reason, so that --wait keeps trying through a server
// that is not up yet.
func (v *Validator) Validate(ctx context.Context, e *Expected) *Result {
	r := &Result{Cluster: e.Cluster, Channel: e.Channel, DNS: e.DNS, Checks: []Check{}}
	r.Checks = append(r.Checks, v.checkAddons(ctx, e.Addons)...)
	switch e.DNS {
	case DNSBuiltIn:
		r.Checks = append(r.Checks,
			v.checkDeployment(ctx, "kube-system", corednsoperator.CoreDNSDeployment),
			v.checkService(ctx, corednsoperator.WatchNamespace, corednsoperator.CoreDNSService, e.DNSServerIP))
	case DNSOperator:
		r.Checks = append(r.Checks,
			v.checkDeployment(ctx, corednsoperator.Namespace, corednsoperator.DeploymentName),
			v.checkCoreDNS(ctx, corednsoperator.WatchNamespace, corednsoperator.CoreDNSResource))
	}
	if e.Kube2IAM {
		r.Checks = append(r.Checks, v.checkDaemonSet(ctx, kube2iam.Namespace, kube2iam.Name))
	}
	return r
}

// checkAddons compares each addon's record on its namespace with the channel's id and hash.
func (v *Validator) checkAddons(ctx context.Context, want []Addon) []Check {
	namespaces := map[string]*corev1.Namespace{}
	nsErrors := map[string]error{}
	var checks []Check
	for _, a := range want {
		c := Check{Kind: "Addon", Name: a.Name}
		ns, seen := namespaces[a.Namespace]
		if !seen && nsErrors[a.Namespace] == nil {
			var err error
			ns = &corev1.Namespace{}
			err = v.get(ctx, namespaceResource, "", a.Namespace, ns)
			switch {
			case apierrors.IsNotFound(err):
				ns = nil
			case err != nil:
				nsErrors[a.Namespace] = err
			}
			namespaces[a.Namespace] = ns
		}
		annotation := apply.AnnotationPrefix + a.Name
		switch {
		case nsErrors[a.Namespace] != nil:
			c.Message = fmt.Sprintf("reading namespace %s: %v", a.Namespace, nsErrors[a.Namespace])
		case ns == nil:
			c.Message = fmt.Sprintf("not applied: namespace %s does not exist", a.Namespace)
		case ns.Annotations[annotation] == "":
			c.Message = fmt.Sprintf("not applied: no record %s on namespace %s", annotation, a.Namespace)
		default:
			c.OK, c.Message = compareRecord(ns.Annotations[annotation], a)
		}
		checks = append(checks, c)
	}
	return checks
}

func compareRecord(value string, a Addon) (bool, string) {
	recorded, err := apply.ParseChannelVersion(value)
	switch {
	case err != nil:
		return false, err.Error()
	case recorded.ID != a.ID:
		return false, fmt.Sprintf("stale: applied version %q, the channel has %q", recorded.ID, a.ID)
	case recorded.ManifestHash != a.Hash:
		return false, fmt.Sprintf("stale: applied manifest %s, the channel has %s", short(recorded.ManifestHash), short(a.Hash))
	}
	return true, fmt.Sprintf("applied at version %q, manifest %s", a.ID, short(a.Hash))
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	if hash == "" {
		return "(none)"
	}
	return hash
}

// checkDeployment requires the Deployment's controller to have seen its latest spec and to report
// it Available.
func (v *Validator) checkDeployment(ctx context.Context, namespace, name string) Check {
	c := Check{Kind: "Deployment", Name: namespace + "/" + name}
	d := &appsv1.Deployment{}
	if fetchFailed(v.get(ctx, deploymentResource, namespace, name, d), &c) {
		return c
	}
	if d.Status.ObservedGeneration < d.Generation {
		c.Message = fmt.Sprintf("not available: generation %d not yet observed by its controller", d.Generation)
		return c
	}
	for _, cond := range d.Status.Conditions {
		if cond.Type != appsv1.DeploymentAvailable {
			continue
		}
		if cond.Status == corev1.ConditionTrue {
			c.OK = true
			c.Message = fmt.Sprintf("available, %d/%d replicas ready", d.Status.ReadyReplicas, replicas(d))
			return c
		}
		c.Message = fmt.Sprintf("not available: %s %s", cond.Reason, cond.Message)
		return c
	}
	c.Message = fmt.Sprintf("not available: no Available condition yet, %d/%d replicas ready", d.Status.ReadyReplicas, replicas(d))
	return c
}

func replicas(d *appsv1.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

// checkService requires the Service to exist at the cluster's DNS address.
func (v *Validator) checkService(ctx context.Context, namespace, name, clusterIP string) Check {
	c := Check{Kind: "Service", Name: namespace + "/" + name}
	s := &corev1.Service{}
	err := v.get(ctx, serviceResource, namespace, name, s)
	switch {
	case apierrors.IsNotFound(err):
		c.Message = "missing"
	case err != nil:
		c.Message = err.Error()
	case s.Spec.ClusterIP != clusterIP:
		c.Message = fmt.Sprintf("clusterIP is %s, spec.kubeDNS.serverIP is %s: pods would not reach DNS", orNone(s.Spec.ClusterIP), clusterIP)
	default:
		c.OK, c.Message = true, "clusterIP "+clusterIP
	}
	return c
}

// fetchFailed reports a failed read of the object c checks on c: "missing" when it does not exist,
// else the error.
func fetchFailed(err error, c *Check) bool {
	switch {
	case apierrors.IsNotFound(err):
		c.Message = "missing"
	case err != nil:
		c.Message = err.Error()
	default:
		return false
	}
	return true
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// checkCoreDNS requires the operator to report the CoreDNS object healthy, as the cluster-addons
// operators do in status.healthy (with status.errors when not).
func (v *Validator) checkCoreDNS(ctx context.Context, namespace, name string) Check {
	c := Check{Kind: "CoreDNS", Name: namespace + "/" + name}
	u, err := v.Dynamic.Resource(coreDNSResource).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if fetchFailed(err, &c) {
		return c
	}
	healthy, found, err := unstructured.NestedBool(u.Object, "status", "healthy")
	if err != nil {
		c.Message = "status.healthy: " + err.Error()
		return c
	}
	errs, _, _ := unstructured.NestedStringSlice(u.Object, "status", "errors")
	switch {
	case !found:
		c.Message = "not healthy: the operator has not reported status yet"
	case !healthy && len(errs) > 0:
		c.Message = "not healthy: " + strings.Join(errs, "; ")
	case !healthy:
		c.Message = "not healthy"
	default:
		c.OK, c.Message = true, "healthy"
	}
	return c
}
