package apply

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/util/pkg/vfs"
)

// Channel is a bootstrap channel and its addons' manifests, read from the channel's location.
type Channel struct {
	Location string
	Addons   []*Addon
}

// Addon is one addon of the channel with its objects, or the reason they could not be read.
type Addon struct {
	Spec    api.AddonSpec
	Objects []*unstructured.Unstructured
	// Err says why the manifest cannot be applied (unreadable, hash mismatch, malformed).
	Err error
}

// Namespace is where the addon's record is kept.
func (a *Addon) Namespace() string {
	if a.Spec.Namespace != "" {
		return a.Spec.Namespace
	}
	return DefaultNamespace
}

// ReadChannel reads a bootstrap channel (file://, a plain path, or memfs:// with mem) and every
// manifest it names, relative to the channel file. A manifest that cannot be read, or whose bytes
// do not match the recorded hash, fails its addon only.
func ReadChannel(location string, mem *vfs.MemFS) (*Channel, error) {
	p, err := vfs.ParsePath(location, mem)
	if err != nil {
		return nil, err
	}
	data, err := p.ReadFile()
	if err != nil {
		return nil, fmt.Errorf("reading channel %s: %w", location, err)
	}
	addons, err := api.ParseAddons(data)
	if err != nil {
		return nil, fmt.Errorf("channel %s: %w", location, err)
	}
	dir := p.String()[:strings.LastIndex(p.String(), "/")]
	base, err := vfs.ParsePath(dir, mem)
	if err != nil {
		return nil, err
	}
	ch := &Channel{Location: p.String()}
	for _, spec := range addons.Spec.Addons {
		a := &Addon{Spec: spec}
		a.Objects, a.Err = readManifest(base, spec)
		ch.Addons = append(ch.Addons, a)
	}
	return ch, nil
}

func readManifest(base vfs.Path, spec api.AddonSpec) ([]*unstructured.Unstructured, error) {
	if spec.Manifest == "" || strings.HasPrefix(spec.Manifest, "/") || strings.Contains(spec.Manifest, "..") {
		return nil, fmt.Errorf("manifest %q must be a path relative to the channel", spec.Manifest)
	}
	data, err := base.Join(spec.Manifest).ReadFile()
	if err != nil {
		return nil, fmt.Errorf("reading manifest: %w", err)
	}
	if got := api.ManifestHash(data); got != spec.ManifestHash {
		return nil, fmt.Errorf("manifest %s has hash %s, the channel records %s: the state store changed under the channel", spec.Manifest, got, spec.ManifestHash)
	}
	docs, err := kubemanifest.Split(data)
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", spec.Manifest, err)
	}
	var objs []*unstructured.Unstructured
	for i, doc := range docs {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &u.Object); err != nil {
			return nil, fmt.Errorf("manifest %s, document %d: %w", spec.Manifest, i+1, err)
		}
		if u.GetAPIVersion() == "" || u.GetKind() == "" || u.GetName() == "" {
			return nil, fmt.Errorf("manifest %s, document %d: apiVersion, kind and metadata.name are required", spec.Manifest, i+1)
		}
		objs = append(objs, u)
	}
	return objs, nil
}

// providedKinds are the custom kinds an addon's CRDs define.
func (a *Addon) providedKinds() []schema.GroupKind {
	var out []schema.GroupKind
	for _, o := range a.Objects {
		if o.GroupVersionKind().GroupKind() != crdKind {
			continue
		}
		group, _, _ := unstructured.NestedString(o.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(o.Object, "spec", "names", "kind")
		out = append(out, schema.GroupKind{Group: group, Kind: kind})
	}
	return out
}

var (
	crdKind       = schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}
	namespaceKind = schema.GroupKind{Kind: "Namespace"}
)
