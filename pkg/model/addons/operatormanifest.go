package addons

import (
	"bytes"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model/components/corednsoperator"
)

// buildOperatorManifest takes the expected objects from the operator package (operatorPackageObjects;
// anything else is refused), sets the operator's image (the channel's override, if any), remaps
// every image like any other kops image, checks that the operator runs as the identity its rights
// are granted to, and adds the generated rights and the admission policy that confines them, the
// policy's binding carrying the probe channels runs to prove it enforced before any right is bound.
func buildOperatorManifest(p *channels.Package, remapper *assets.Remapper) ([]byte, error) {
	where := fmt.Sprintf("channel %q, package %s version %s", p.Channel, p.Name, p.Version)
	docs, err := kubemanifest.Split(p.Manifest)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	rbac, err := corednsoperator.RBACManifest()
	if err != nil {
		return nil, err
	}
	policy, err := policyWithProbe()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	var problems []string
	seen := map[*packageObject]bool{}
	for _, doc := range docs {
		obj := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &obj.Object); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		want, err := expectedPackageObject(obj)
		switch {
		case err != nil:
			problems = append(problems, err.Error())
			continue
		case seen[want]:
			problems = append(problems, fmt.Sprintf("object %s appears more than once", describeObject(obj)))
			continue
		}
		seen[want] = true
		if want.check != nil {
			if err := want.check(obj); err != nil {
				problems = append(problems, fmt.Sprintf("object %s: %v", describeObject(obj), err))
				continue
			}
		}
		// Every object of an addon carries its name, so channels can find what it put on the cluster.
		labels := obj.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[LabelAddonName] = corednsoperator.AddonName
		labels[LabelManagedBy] = "kops"
		obj.SetLabels(labels)
		if isOperatorDeployment(obj) {
			if err := setImages(obj, p.Image, remapper); err != nil {
				problems = append(problems, fmt.Sprintf("object %s: %v", describeObject(obj), err))
				continue
			}
			writeDoc(&out, rbac)
			writeDoc(&out, policy)
		}
		data, err := yaml.Marshal(obj.Object)
		if err != nil {
			return nil, err
		}
		writeDoc(&out, data)
	}
	if !seen[operatorDeploymentEntry] {
		problems = append(problems, fmt.Sprintf("no Deployment %s/%s", corednsoperator.Namespace, corednsoperator.DeploymentName))
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s is refused:\n  %s", where, strings.Join(problems, "\n  "))
	}
	return out.Bytes(), nil
}

// policyWithProbe is the admission policy and its binding, the binding annotated with the probe
// channels runs before it applies what the policy confines.
func policyWithProbe() ([]byte, error) {
	manifest, err := corednsoperator.PolicyManifest()
	if err != nil {
		return nil, err
	}
	probe, err := (&channelsapi.EnforcementProbe{User: corednsoperator.Username, Object: corednsoperator.ProbeObject()}).Encode()
	if err != nil {
		return nil, err
	}
	docs, err := kubemanifest.Split(manifest)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	found := false
	for _, doc := range docs {
		obj := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &obj.Object); err != nil {
			return nil, err
		}
		if obj.GetKind() == "ValidatingAdmissionPolicyBinding" && obj.GetName() == corednsoperator.PolicyName {
			annotations := obj.GetAnnotations()
			if annotations == nil {
				annotations = map[string]string{}
			}
			annotations[channelsapi.EnforcementProbeAnnotation] = probe
			obj.SetAnnotations(annotations)
			found = true
		}
		data, err := yaml.Marshal(obj.Object)
		if err != nil {
			return nil, err
		}
		writeDoc(&out, data)
	}
	if !found {
		return nil, fmt.Errorf("the admission policy manifest has no ValidatingAdmissionPolicyBinding %s", corednsoperator.PolicyName)
	}
	return out.Bytes(), nil
}

func isOperatorDeployment(obj *unstructured.Unstructured) bool {
	return obj.GetAPIVersion() == "apps/v1" && obj.GetKind() == "Deployment" &&
		obj.GetNamespace() == corednsoperator.Namespace && obj.GetName() == corednsoperator.DeploymentName
}

// checkOperatorIdentity makes sure the rights kops grants reach the operator and nothing else.
func checkOperatorIdentity(obj *unstructured.Unstructured) error {
	sa, _, _ := unstructured.NestedString(obj.Object, "spec", "template", "spec", "serviceAccountName")
	if sa != corednsoperator.ServiceAccount {
		return fmt.Errorf("the operator Deployment runs as service account %q, want %q", sa, corednsoperator.ServiceAccount)
	}
	return nil
}

// setImages overrides the first container's image with the channel's, then remaps and checks every
// container image: each must be pinned by tag or digest.
func setImages(obj *unstructured.Unstructured, override string, remapper *assets.Remapper) error {
	for _, field := range []string{"initContainers", "containers"} {
		containers, _, err := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", field)
		if err != nil {
			return err
		}
		for i, c := range containers {
			container, ok := c.(map[string]interface{})
			if !ok {
				return fmt.Errorf("%s[%d] is not an object", field, i)
			}
			image, _ := container["image"].(string)
			if field == "containers" && i == 0 && override != "" {
				image = override
			}
			if err := channelsapi.ValidatePinnedImage(image); err != nil {
				return fmt.Errorf("%s[%d]: %w", field, i, err)
			}
			remapped, err := remapper.RemapImage(image)
			if err != nil {
				return fmt.Errorf("%s[%d]: %w", field, i, err)
			}
			container["image"] = remapped
		}
		if len(containers) > 0 {
			if err := unstructured.SetNestedSlice(obj.Object, containers, "spec", "template", "spec", field); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeDoc(out *bytes.Buffer, doc []byte) {
	if out.Len() > 0 {
		out.WriteString("---\n")
	}
	out.Write(bytes.TrimLeft(doc, "\n"))
	if !bytes.HasSuffix(doc, []byte("\n")) {
		out.WriteByte('\n')
	}
}
