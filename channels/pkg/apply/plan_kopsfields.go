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
	"encoding/json"
	"fmt"
	"strings"

	"github.com/blang/semver/v4"
)

// kopsFields says what kops's fields of an addon make of it here: "" to go on; Failed when its
// kubernetesVersion cannot be checked; NotForThisVersion when the range does not admit the
// cluster's version. needsPKI is planned apart (planPKI).
func (a *Applier) kopsFields(ctx context.Context, addon *Addon) (Outcome, string, error) {
	failed := func(err error) (Outcome, string, error) { return Failed, err.Error(), err }
	if addon.Spec.KubernetesVersion == "" {
		return "", "", nil
	}
	admits, err := semver.ParseRange(addon.Spec.KubernetesVersion)
	if err != nil {
		return failed(fmt.Errorf("kubernetesVersion %q: %w", addon.Spec.KubernetesVersion, err))
	}
	version, err := a.serverVersion(ctx)
	if err != nil {
		return failed(err)
	}
	if !admits(version) {
		return NotForThisVersion, fmt.Sprintf("kubernetesVersion %q does not admit the cluster's %s", addon.Spec.KubernetesVersion, version), nil
	}
	return "", "", nil
}

// serverVersion reads the API server's version once per run.
func (a *Applier) serverVersion(ctx context.Context) (semver.Version, error) {
	if a.version != nil {
		return *a.version, nil
	}
	body, err := a.resources.client.Get().AbsPath("/version").Do(ctx).Raw()
	if err != nil {
		return semver.Version{}, fmt.Errorf("reading the API server's version: %w", err)
	}
	var info struct {
		GitVersion string `json:"gitVersion"`
	}
	if err := json.Unmarshal(body, &info); err != nil {
		return semver.Version{}, fmt.Errorf("reading the API server's version: %w", err)
	}
	// Only major.minor.patch is compared: a cluster at v1.33.2-eks-1 is a 1.33.2 cluster.
	core, _, _ := strings.Cut(strings.TrimPrefix(info.GitVersion, "v"), "-")
	core, _, _ = strings.Cut(core, "+")
	v, err := semver.Parse(core)
	if err != nil {
		return semver.Version{}, fmt.Errorf("the API server's version %q: %w", info.GitVersion, err)
	}
	a.version = &v
	return v, nil
}
