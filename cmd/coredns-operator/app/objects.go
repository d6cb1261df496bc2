package app

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model/components/corednsoperator"
	"k8s.io/kops/pkg/model/components/operator"
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

// desiredObjects renders spec and returns the managed objects, each as the operator applies it.
// The rest of the built-in addon (its RBAC, kops pre-creates it; the autoscaler and the
// PodDisruptionBudget) is outside the operator's scope and rights.
func desiredObjects(spec Spec, facts Facts) ([]*unstructured.Unstructured, error) {
	manifest, err := renderObjects(spec, facts)
	if err != nil {
		return nil, err
	}
	// The same checks the policy's derivation makes, strict decoding included: a rendering the
	// policy could not be derived from is not applied.
	if err := corednsoperator.CheckRendering(manifest); err != nil {
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
		// The metadata kops's channels sets (the addon label, the handover annotation) is left to
		// channels: applying it would flip the label back after a handover.
		labels, annotations := u.GetLabels(), u.GetAnnotations()
		for _, k := range operator.ChannelsLabels {
			delete(labels, k)
		}
		for _, k := range operator.ChannelsAnnotations {
			delete(annotations, k)
		}
		u.SetLabels(labels)
		u.SetAnnotations(annotations)
		out = append(out, u)
	}
	return out, nil
}
