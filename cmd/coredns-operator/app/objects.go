package app

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model/components/corednsoperator"
)

// managed is one object the operator writes, in the order it applies them: what the Deployment
// mounts and runs as first.
type managed struct {
	gvr  schema.GroupVersionResource
	kind string
	name string
}

var (
	deploymentsGVR     = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	servicesGVR        = schema.GroupVersionResource{Version: "v1", Resource: "services"}
	configMapsGVR      = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	serviceAccountsGVR = schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}
	corednsGVR         = schema.GroupVersionResource{Group: corednsoperator.CRDGroup, Version: "v1alpha1", Resource: corednsoperator.CRDResource}
)

var managedObjects = []managed{
	{serviceAccountsGVR, "ServiceAccount", corednsoperator.CoreDNSServiceAccount},
	{configMapsGVR, "ConfigMap", corednsoperator.CoreDNSConfigMap},
	{servicesGVR, "Service", corednsoperator.CoreDNSService},
	{deploymentsGVR, "Deployment", corednsoperator.CoreDNSDeployment},
}

// Metadata the built-in rendering sets for kops's channels, which the operator leaves to channels:
// the addon label says which kops addon applied an object, and the handover annotation is read
// when the built-in addon is retired. Applying them would flip the label back after a handover.
const (
	addonNameLabel     = "addon.kops.k8s.io/name"
	handoverAnnotation = "addon.kops.k8s.io/handover-to"
)

// desiredObjects renders spec and returns the managed objects, each as the operator applies it.
// The rest of the built-in addon (its RBAC, kops pre-creates it; the autoscaler and the
// PodDisruptionBudget) is outside the operator's scope and rights.
func desiredObjects(spec Spec, facts Facts) ([]*unstructured.Unstructured, error) {
	manifest, err := Render(spec, facts)
	if err != nil {
		return nil, err
	}
	// The same checks the policy's derivation makes, strict decoding included: a rendering the
	// policy could not be derived from is not applied.
	if _, err := corednsoperator.ScopeFromManifest(manifest); err != nil {
		return nil, err
	}
	docs, err := kubemanifest.Split(manifest)
	if err != nil {
		return nil, fmt.Errorf("reading the rendered CoreDNS manifest: %w", err)
	}
	byKey := map[string]*unstructured.Unstructured{}
	for i, doc := range docs {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &u.Object); err != nil {
			return nil, fmt.Errorf("reading rendered document %d: %w", i+1, err)
		}
		if u.GetNamespace() == corednsoperator.WatchNamespace {
			byKey[u.GetKind()+"/"+u.GetName()] = u
		}
	}
	out := make([]*unstructured.Unstructured, 0, len(managedObjects))
	for _, m := range managedObjects {
		u := byKey[m.kind+"/"+m.name]
		if u == nil {
			return nil, fmt.Errorf("the rendered CoreDNS manifest has no %s %s/%s", m.kind, corednsoperator.WatchNamespace, m.name)
		}
		labels := u.GetLabels()
		delete(labels, addonNameLabel)
		u.SetLabels(labels)
		annotations := u.GetAnnotations()
		delete(annotations, handoverAnnotation)
		u.SetAnnotations(annotations)
		out = append(out, u)
	}
	return out, nil
}
