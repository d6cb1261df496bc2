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
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/blang/semver/v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kops/pkg/imageref"
)

// podSpecPaths are where each workload kind keeps its pod spec.
var podSpecPaths = map[schema.GroupKind][]string{
	{Kind: "Pod"}:                        {"spec"},
	{Group: "apps", Kind: "Deployment"}:  {"spec", "template", "spec"},
	{Group: "apps", Kind: "DaemonSet"}:   {"spec", "template", "spec"},
	{Group: "apps", Kind: "StatefulSet"}: {"spec", "template", "spec"},
	{Group: "apps", Kind: "ReplicaSet"}:  {"spec", "template", "spec"},
	{Group: "batch", Kind: "Job"}:        {"spec", "template", "spec"},
	{Group: "batch", Kind: "CronJob"}:    {"spec", "jobTemplate", "spec", "template", "spec"},
}

// Downgrade is one container whose image an apply would move to a lower version.
type Downgrade struct {
	// Object is "Kind namespace/name", Container "containers[coredns]" or "initContainers[x]".
	Object, Container string
	Running, Wanted   string
}

func (d Downgrade) String() string {
	return fmt.Sprintf("%s %s runs %s; the channel would replace it with %s, a lower version", d.Object, d.Container, d.Running, d.Wanted)
}

// DowngradeError lists every downgrade an addon's apply would make; nothing of the addon is applied.
type DowngradeError struct{ Downgrades []Downgrade }

func (e *DowngradeError) Error() string {
	lines := make([]string, 0, len(e.Downgrades))
	for _, d := range e.Downgrades {
		lines = append(lines, d.String())
	}
	return "refusing to downgrade (pass --allow-downgrade to apply anyway): " + strings.Join(lines, "; ")
}

// checkDowngrades compares every workload of the addon with the object running under its name and
// fails with a *DowngradeError if any container (init containers too, matched by name) would move
// to a lower version of the same image repository. Objects not on the cluster yet, containers
// that are new, images of another repository and tags that are not versions are not compared:
// only an order between two versions of one repository is known to be a downgrade.
func (a *Applier) checkDowngrades(ctx context.Context, addon *Addon) error {
	if a.opts.AllowDowngrade {
		return nil
	}
	var found []Downgrade
	for _, obj := range addon.Objects {
		path, ok := podSpecPaths[obj.GroupVersionKind().GroupKind()]
		if !ok {
			continue
		}
		client, err := a.resourceFor(ctx, obj)
		if err != nil {
			return fmt.Errorf("%s %s: %w", obj.GetKind(), objectName(obj), err)
		}
		live, err := client.Get(ctx, obj.GetName(), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("reading %s %s to compare its images: %w", obj.GetKind(), objectName(obj), err)
		}
		found = append(found, downgrades(obj.GetKind()+" "+objectName(obj), live, obj, path)...)
	}
	if len(found) > 0 {
		return &DowngradeError{Downgrades: found}
	}
	return nil
}

// downgrades compares the images of live and wanted, container by container.
func downgrades(object string, live, wanted *unstructured.Unstructured, path []string) []Downgrade {
	var out []Downgrade
	for _, list := range []string{"initContainers", "containers"} {
		running := containerImages(live, append(append([]string(nil), path...), list))
		for _, c := range containerImagesOrdered(wanted, append(append([]string(nil), path...), list)) {
			if old, ok := running[c.name]; ok && IsDowngrade(old, c.image) {
				out = append(out, Downgrade{Object: object, Container: list + "[" + c.name + "]", Running: old, Wanted: c.image})
			}
		}
	}
	return out
}

type namedImage struct{ name, image string }

func containerImagesOrdered(u *unstructured.Unstructured, path []string) []namedImage {
	items, _, _ := unstructured.NestedSlice(u.Object, path...)
	var out []namedImage
	for _, item := range items {
		m, _ := item.(map[string]interface{})
		name, _ := m["name"].(string)
		image, _ := m["image"].(string)
		out = append(out, namedImage{name, image})
	}
	return out
}

func containerImages(u *unstructured.Unstructured, path []string) map[string]string {
	out := map[string]string{}
	for _, c := range containerImagesOrdered(u, path) {
		out[c.name] = c.image
	}
	return out
}

// IsDowngrade says whether replacing image running with wanted lowers the version: both name the
// same repository and both tags read as versions (v1.14.2, 1.14.2, 1.8 and prereleases such as
// v1.10.1-eks-1; a digest after the tag is ignored), and wanted's is lower. A digest-only
// reference, a tag that is not a version (latest, 20240101-abc) or another repository gives no
// order, and is not a downgrade.
func IsDowngrade(running, wanted string) bool {
	repoA, tagA := splitImage(running)
	repoB, tagB := splitImage(wanted)
	if repoA != repoB || tagA == "" || tagB == "" {
		return false
	}
	va, errA := parseVersionTag(tagA)
	vb, errB := parseVersionTag(tagB)
	if errA != nil || errB != nil {
		return false
	}
	return vb.LT(va)
}

// splitImage splits an image reference into its normalised repository and its tag, dropping any
// digest; a reference that does not parse has neither, and so no order.
func splitImage(image string) (repo, tag string) {
	ref, err := imageref.Parse(image)
	if err != nil {
		return "", ""
	}
	return ref.Registry + "/" + ref.Repository, ref.Tag
}

// parseVersionTag reads a tag as a version: an optional "v", then major.minor[.patch] and any
// prerelease or build suffix.
// A tag of one number (a date, a build number) is not read as a version: it has no order with
// versions.
func parseVersionTag(tag string) (semver.Version, error) {
	if !versionTag().MatchString(tag) {
		return semver.Version{}, fmt.Errorf("tag %q is not a version", tag)
	}
	return semver.ParseTolerant(strings.TrimPrefix(tag, "v"))
}

var versionTag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^v?[0-9]+\.[0-9]+(\.[0-9]+)?([-+][0-9A-Za-z.+-]*)?$`)
})
