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
	"context"
	"fmt"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/addons/kube2iam"
	"k8s.io/kops/pkg/health"
	"k8s.io/kops/pkg/operator"
)

type Check struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	OK      bool   `json:"ok"`
	Message string `json:"message"`
}

type Result struct {
	Cluster string  `json:"cluster"`
	Channel string  `json:"channel"`
	DNS     DNSMode `json:"dns"`
	Checks  []Check `json:"checks"`
}

func (r *Result) Healthy() bool {
	for _, c := range r.Checks {
		if !c.OK {
			return false
		}
	}
	return true
}

func (r *Result) Failures() []Check {
	var out []Check
	for _, c := range r.Checks {
		if !c.OK {
			out = append(out, c)
		}
	}
	return out
}

// Validator only reads, through the dynamic client: client-go's typed clientset would link every
// API group into kops and slow every command's start-up.
type Validator struct {
	Dynamic        dynamic.Interface
	Discovery      rest.Interface
	Server         string
	RequestTimeout time.Duration
}

var (
	namespaceResource  = corev1.SchemeGroupVersion.WithResource("namespaces")
	serviceResource    = corev1.SchemeGroupVersion.WithResource("services")
	deploymentResource = appsv1.SchemeGroupVersion.WithResource("deployments")
)

// attempt remembers the first read that got no answer in lost; later reads fail the same way without
// a request, so a lost server costs one deadline, not one per check.
type attempt struct {
	v    *Validator
	ctx  context.Context
	lost error
}

func (a *attempt) read(gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error) {
	if a.lost != nil {
		return nil, a.lost
	}
	u, err := a.v.Dynamic.Resource(gvr).Namespace(namespace).Get(a.ctx, name, metav1.GetOptions{})
	if err != nil && !answered(err) {
		what := gvr.Resource + "/" + name
		if namespace != "" {
			what = gvr.Resource + " " + namespace + "/" + name
		}
		a.lost = a.v.unreachable(a.ctx, "get "+what, err)
		return nil, a.lost
	}
	return u, err
}

func (a *attempt) get(gvr schema.GroupVersionResource, namespace, name string, into interface{}) error {
	u, err := a.read(gvr, namespace, name)
	if err != nil {
		return err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, into); err != nil {
		return fmt.Errorf("reading %s %s/%s: %w", gvr.Resource, namespace, name, err)
	}
	return nil
}

// Validate checks the cluster once within ctx's deadline. A failed read fails its check, except that
// an unreachable server is one *UnreachableError and no result.
func (v *Validator) Validate(ctx context.Context, e *Expected) (*Result, error) {
	if err := v.probe(ctx); err != nil {
		return nil, err
	}
	a := &attempt{v: v, ctx: ctx}
	r := &Result{Cluster: e.Cluster, Channel: e.Channel, DNS: e.DNS, Checks: []Check{}}
	r.Checks = append(r.Checks, a.checkAddons(e.Addons)...)
	if e.DNS == DNSBuiltIn {
		r.Checks = append(r.Checks,
			a.checkDeployment(coredns.WatchNamespace, coredns.CoreDNSDeployment),
			a.checkService(coredns.WatchNamespace, coredns.CoreDNSService, e.DNSServerIP))
	}
	for _, d := range e.Operators {
		r.Checks = append(r.Checks,
			a.checkDeployment(d.Namespace, d.DeploymentName),
			a.checkInstructions(d))
	}
	if e.Kube2IAM {
		r.Checks = append(r.Checks, a.checkDaemonSet(kube2iam.Namespace, kube2iam.Name))
	}
	for _, d := range e.Runs.Deployments {
		r.Checks = append(r.Checks, a.checkDeployment(d.Namespace, d.Name))
	}
	var certManager certManagerNeeds
	for _, addon := range e.PKI {
		certManager.issuers = append(certManager.issuers, addon)
		certManager.needers = append(certManager.needers, addon+" (needsPKI)")
	}
	for _, name := range e.Runs.APIServices {
		c, caFrom := a.checkAPIService(name)
		r.Checks = append(r.Checks, c)
		if caFrom != "" {
			certManager.certificates = append(certManager.certificates, caFrom)
			certManager.needers = append(certManager.needers, "APIService "+name)
		}
	}
	r.Checks = append(r.Checks, a.checkCertManager(certManager)...)
	if a.lost != nil {
		return nil, a.lost
	}
	return r, nil
}

func (a *attempt) checkAddons(want []Addon) []Check {
	namespaces := map[string]*corev1.Namespace{}
	nsErrors := map[string]error{}
	var checks []Check
	for _, addon := range want {
		c := Check{Kind: "Addon", Name: addon.Name}
		ns, seen := namespaces[addon.Namespace]
		if !seen && nsErrors[addon.Namespace] == nil {
			ns = &corev1.Namespace{}
			err := a.get(namespaceResource, "", addon.Namespace, ns)
			switch {
			case apierrors.IsNotFound(err):
				ns = nil
			case err != nil:
				nsErrors[addon.Namespace] = err
			}
			namespaces[addon.Namespace] = ns
		}
		annotation := channelsapi.RecordKeyPrefix + addon.Name
		switch {
		case nsErrors[addon.Namespace] != nil:
			c.Message = fmt.Sprintf("reading namespace %s: %v", addon.Namespace, nsErrors[addon.Namespace])
		case ns == nil:
			c.Message = fmt.Sprintf("not applied: namespace %s does not exist", addon.Namespace)
		case ns.Annotations[annotation] == "":
			c.Message = fmt.Sprintf("not applied: no record %s on namespace %s", annotation, addon.Namespace)
		default:
			c.OK, c.Message = compareRecord(ns.Annotations[annotation], addon)
		}
		checks = append(checks, c)
	}
	return checks
}

func compareRecord(value string, a Addon) (bool, string) {
	recorded, err := channelsapi.ParseChannelVersion(value)
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

// checkDeployment names what is missing in the Deployment's own terms where it can.
func (a *attempt) checkDeployment(namespace, name string) Check {
	c := Check{Kind: "Deployment", Name: namespace + "/" + name}
	d := &appsv1.Deployment{}
	h, ok := a.judge(deploymentResource, namespace, name, d, &c)
	if !ok {
		return c
	}
	var available *appsv1.DeploymentCondition
	for i, cond := range d.Status.Conditions {
		if cond.Type == appsv1.DeploymentAvailable {
			available = &d.Status.Conditions[i]
		}
	}
	switch {
	case !h.Observed:
		c.Message = "not available: " + h.Message
	case h.Current():
		c.OK = true
		c.Message = fmt.Sprintf("available, %d/%d replicas ready", d.Status.ReadyReplicas, replicas(d))
	case h.Status == kstatus.FailedStatus:
		c.Message = "failed: " + h.Message
	case available == nil:
		c.Message = fmt.Sprintf("not available: no Available condition yet, %d/%d replicas ready", d.Status.ReadyReplicas, replicas(d))
	case available.Status != corev1.ConditionTrue:
		c.Message = fmt.Sprintf("not available: %s %s", available.Reason, available.Message)
	default:
		c.Message = "not ready: " + h.Message
	}
	return c
}

func (a *attempt) judge(gvr schema.GroupVersionResource, namespace, name string, into any, c *Check) (health.Result, bool) {
	u, err := a.read(gvr, namespace, name)
	if fetchFailed(err, c) {
		return health.Result{}, false
	}
	h, err := health.Of(u)
	if err == nil {
		err = runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, into)
	}
	if err != nil {
		c.Message = err.Error()
		return health.Result{}, false
	}
	return h, true
}

func replicas(d *appsv1.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

func (a *attempt) checkService(namespace, name, clusterIP string) Check {
	c := Check{Kind: "Service", Name: namespace + "/" + name}
	s := &corev1.Service{}
	err := a.get(serviceResource, namespace, name, s)
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

// checkInstructions requires status.healthy of the operator's custom resource.
func (a *attempt) checkInstructions(d *operator.Descriptor) Check {
	c := Check{Kind: d.CRD.Kind, Name: d.WatchNamespace + "/" + d.Instructions}
	gvr := schema.GroupVersionResource{Group: d.CRD.Group, Version: d.CRD.Version, Resource: d.CRD.Resource}
	u, err := a.read(gvr, d.WatchNamespace, d.Instructions)
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
