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

package apply

import (
	"fmt"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The API server checks an object's metadata only when it is sent, after earlier addons were
// applied. ReadChannel checks every object's name and scope beforehand, so a channel with a name
// the server would refuse is not applied at all.

type kindRule struct {
	namespaced bool
	name       apivalidation.ValidateNameFunc
}

type kindRules map[schema.GroupKind]kindRule

var (
	namespacedSubdomain = kindRule{namespaced: true, name: apivalidation.NameIsDNSSubdomain}
	clusterSubdomain    = kindRule{namespaced: false, name: apivalidation.NameIsDNSSubdomain}
	// The API server checks every name as a path segment; for some kinds that is the only rule.
	namespacedSegment = kindRule{namespaced: true, name: path.ValidatePathSegmentName}
	clusterSegment    = kindRule{namespaced: false, name: path.ValidatePathSegmentName}
)

// builtinKinds are built-in kinds with their scope and name rule (k8s.io/kubernetes
// pkg/apis/<group>/validation). Where servers differ the looser rule is taken: refusing a channel a
// cluster would accept is worse than leaving a rare name to the server.
var builtinKinds = kindRules{
	{Kind: "Namespace"}: {namespaced: false, name: apivalidation.ValidateNamespaceName},
	// A DNS-1123 label, the looser rule servers with RelaxedServiceNameValidation apply.
	{Kind: "Service"}:               {namespaced: true, name: apivalidation.NameIsDNSLabel},
	{Kind: "ConfigMap"}:             namespacedSubdomain,
	{Kind: "Secret"}:                namespacedSubdomain,
	{Kind: "ServiceAccount"}:        namespacedSubdomain,
	{Kind: "Pod"}:                   namespacedSubdomain,
	{Kind: "PersistentVolumeClaim"}: namespacedSubdomain,
	{Kind: "Endpoints"}:             namespacedSubdomain,
	{Kind: "LimitRange"}:            namespacedSubdomain,
	{Kind: "ResourceQuota"}:         namespacedSubdomain,
	{Kind: "ReplicationController"}: namespacedSubdomain,
	{Kind: "PersistentVolume"}:      clusterSubdomain,
	{Kind: "Node"}:                  clusterSubdomain,

	{Group: "apps", Kind: "Deployment"}:         namespacedSubdomain,
	{Group: "apps", Kind: "DaemonSet"}:          namespacedSubdomain,
	{Group: "apps", Kind: "StatefulSet"}:        {namespaced: true, name: apivalidation.NameIsDNSLabel},
	{Group: "apps", Kind: "ReplicaSet"}:         namespacedSubdomain,
	{Group: "apps", Kind: "ControllerRevision"}: namespacedSubdomain,

	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:               namespacedSegment,
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:        namespacedSegment,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:        clusterSegment,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}: clusterSegment,

	{Group: "policy", Kind: "PodDisruptionBudget"}:                                    namespacedSegment,
	{Group: "coordination.k8s.io", Kind: "Lease"}:                                     namespacedSubdomain,
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}:                               namespacedSubdomain,
	{Group: "networking.k8s.io", Kind: "Ingress"}:                                     namespacedSubdomain,
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                                clusterSubdomain,
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}:                                namespacedSubdomain,
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}:                           namespacedSubdomain,
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                               clusterSubdomain,
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                                   clusterSubdomain,
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}:                 clusterSubdomain,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:        clusterSubdomain,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: clusterSubdomain,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}:   clusterSubdomain,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:     clusterSubdomain,
	// The server also requires <version>.<group>.
	{Group: "apiregistration.k8s.io", Kind: "APIService"}: clusterSegment,
}

// withCRDs adds the kinds the given CRDs define; a CRD cannot redefine a built-in kind.
func withCRDs(objs []*unstructured.Unstructured) kindRules {
	rules := kindRules{}
	for gk, r := range builtinKinds {
		rules[gk] = r
	}
	for _, o := range objs {
		if o.GroupVersionKind().GroupKind() != crdKind {
			continue
		}
		group, _, _ := unstructured.NestedString(o.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(o.Object, "spec", "names", "kind")
		scope, _, _ := unstructured.NestedString(o.Object, "spec", "scope")
		gk := schema.GroupKind{Group: group, Kind: kind}
		if _, builtin := builtinKinds[gk]; builtin || kind == "" || (scope != "Namespaced" && scope != "Cluster") {
			continue // the API server refuses such a CRD; that is its message to give
		}
		rules[gk] = kindRule{namespaced: scope == "Namespaced", name: apivalidation.NameIsDNSSubdomain}
	}
	return rules
}

// checkMetadata reports what the API server would refuse in o's metadata. A kind without a known
// rule gets the rules every kind has.
func checkMetadata(o *unstructured.Unstructured, rules kindRules) field.ErrorList {
	meta := field.NewPath("metadata")
	var errs field.ErrorList
	for _, f := range []string{"name", "generateName", "namespace"} {
		// The getters read a value that is not a string as empty.
		if v, found, _ := unstructured.NestedFieldNoCopy(o.Object, "metadata", f); found && v != nil {
			if _, ok := v.(string); !ok {
				errs = append(errs, field.Invalid(meta.Child(f), v, "must be a string"))
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	rule, known := rules[o.GroupVersionKind().GroupKind()]
	if !known {
		rule = kindRule{namespaced: o.GetNamespace() != "", name: path.ValidatePathSegmentName}
	}
	if o.GetGenerateName() != "" {
		errs = append(errs, field.Forbidden(meta.Child("generateName"), "server-side apply needs a fixed metadata.name; a generated one would make a new object on every run"))
	}
	if name := o.GetName(); name == "" {
		errs = append(errs, field.Required(meta.Child("name"), "server-side apply needs a name"))
	} else {
		for _, msg := range rule.name(name, false) {
			errs = append(errs, field.Invalid(meta.Child("name"), name, msg))
		}
	}
	if o.GroupVersionKind().GroupKind() == crdKind {
		errs = append(errs, checkCRDName(o, meta.Child("name"))...)
	}
	switch ns := o.GetNamespace(); {
	case !rule.namespaced && ns != "":
		// The API server would drop it quietly; the record would keep it, and prune look there.
		errs = append(errs, field.Forbidden(meta.Child("namespace"), fmt.Sprintf("%s is cluster-scoped: it has no namespace", o.GetKind())))
	case rule.namespaced && ns == "":
		errs = append(errs, field.Required(meta.Child("namespace"), fmt.Sprintf("%s is namespaced: channels does not pick a namespace for it", o.GetKind())))
	case ns != "":
		for _, msg := range apivalidation.ValidateNamespaceName(ns, false) {
			errs = append(errs, field.Invalid(meta.Child("namespace"), ns, msg))
		}
	}
	errs = append(errs, metav1validation.ValidateLabels(o.GetLabels(), meta.Child("labels"))...)
	errs = append(errs, apivalidation.ValidateAnnotations(o.GetAnnotations(), meta.Child("annotations"))...)
	return errs
}

// checkCRDName requires a CRD to be named <spec.names.plural>.<spec.group>, as the API server does.
func checkCRDName(o *unstructured.Unstructured, p *field.Path) field.ErrorList {
	group, _, _ := unstructured.NestedString(o.Object, "spec", "group")
	plural, _, _ := unstructured.NestedString(o.Object, "spec", "names", "plural")
	if group == "" || plural == "" || o.GetName() == plural+"."+group {
		return nil // a CRD without them is refused by the API server with its own message
	}
	return field.ErrorList{field.Invalid(p, o.GetName(), fmt.Sprintf("a CustomResourceDefinition is named <spec.names.plural>.<spec.group>, here %s.%s", plural, group))}
}
