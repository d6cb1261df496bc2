package apply

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/blang/semver/v4"
)

// NotForThisVersion is the outcome of an addon whose kubernetesVersion range does not admit the
// cluster's version: it is not applied, and, being in the channel, not retired either.
const NotForThisVersion Outcome = "not for this version"

// kopsFieldsReason says why the kops fields of an addon keep it from being applied here ("" when
// they do not): needsPKI asks for a CA that only kops's channels creates, and a kubernetesVersion
// range may not admit the cluster. refused is true for a failure, false for an addon that is
// simply not meant for this cluster.
func (a *Applier) kopsFieldsReason(ctx context.Context, addon *Addon) (reason string, refused bool, err error) {
	if addon.Spec.NeedsPKI {
		return "needsPKI: this channels does not create an addon's CA (kops's channels does); apply this addon with kops's channels", true, nil
	}
	if addon.Spec.KubernetesVersion == "" {
		return "", false, nil
	}
	admits, err := semver.ParseRange(addon.Spec.KubernetesVersion)
	if err != nil {
		return "", true, fmt.Errorf("kubernetesVersion %q: %w", addon.Spec.KubernetesVersion, err)
	}
	version, err := a.serverVersion(ctx)
	if err != nil {
		return "", true, err
	}
	if !admits(version) {
		return fmt.Sprintf("kubernetesVersion %q does not admit the cluster's %s", addon.Spec.KubernetesVersion, version), false, nil
	}
	return "", false, nil
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
