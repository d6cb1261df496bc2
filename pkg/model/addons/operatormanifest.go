package addons

import (
	"bytes"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model/components/corednsoperator"
)

// buildOperatorManifest takes the operator package from the channel, sets the operator's image
// (the channel's override, if any), remaps every image like any other kops image, checks that the
// operator runs as the identity its rights are granted to, and places the generated rights and the
// admission policy that confines them before the operator's Deployment.
func buildOperatorManifest(p *channels.Package, remapper *assets.Remapper) ([]byte, error) {
	where := fmt.Sprintf("package %s version %s", p.Name, p.Version)
	docs, err := kubemanifest.Split(p.Manifest)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	rbac, err := corednsoperator.RBACManifest()
	if err != nil {
		return nil, err
	}
	policy, err := corednsoperator.PolicyManifest()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	foundOperator := false
	for _, doc := range docs {
		obj := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &obj.Object); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
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
			if foundOperator {
				return nil, fmt.Errorf("%s: more than one operator Deployment", where)
			}
			foundOperator = true
			if err := checkOperatorIdentity(obj); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			if err := setImages(obj, p.Image, remapper); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
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
	if !foundOperator {
		return nil, fmt.Errorf("%s: no Deployment %s/%s", where, corednsoperator.Namespace, corednsoperator.DeploymentName)
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
