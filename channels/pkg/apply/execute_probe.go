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
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"k8s.io/kops/channels/pkg/api"
)

// proveEnforced runs the probe of a policy binding until the API server denies it by that policy
// and binding: from then on the policy confines the probe's user, and what it confines may be
// applied. A dry-run create persists nothing. The first tries come within milliseconds (a single
// API server picks a new policy up in a fraction of a second) and then ever less often; the wait
// ends with the run's context or after EnforceTimeout.
func (a *Applier) proveEnforced(ctx context.Context, binding *unstructured.Unstructured) error {
	probe, err := api.ParseEnforcementProbe(binding.GetAnnotations()[api.EnforcementProbeAnnotation])
	if err != nil {
		return err
	}
	policy, _, _ := unstructured.NestedString(binding.Object, "spec", "policyName")
	what := fmt.Sprintf("admission policy %s (binding %s)", policy, binding.GetName())
	client, err := a.probeClient(ctx, probe)
	if err != nil {
		return fmt.Errorf("%s: probe: %w", what, err)
	}
	obj := &unstructured.Unstructured{Object: probe.Object}
	deadline := time.Now().Add(a.opts.EnforceTimeout)
	for delay := 2 * time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		_, err := client.Create(ctx, obj.DeepCopy(), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldManager: a.opts.FieldManager})
		var last string
		switch {
		case err == nil:
			last = "admitted"
		case deniedBy(err, policy, binding.GetName()):
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case apierrors.IsForbidden(err):
			// Not the policy: the request never reached admission, and waiting will not change that.
			return fmt.Errorf("%s: the dry-run probe as %s was refused before admission (channels needs the right to impersonate users and groups to prove the policy enforced): %w", what, probe.User, err)
		default:
			last = err.Error()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s is not enforced after %s: a dry-run create of %s as %s was %s, not denied by it", what, a.opts.EnforceTimeout, manifestKeyOf(obj), probe.User, last)
		}
		if err := sleep(ctx, delay); err != nil {
			return err
		}
	}
}

func deniedBy(err error, policy, binding string) bool {
	d, ok := api.AsPolicyDenial(err)
	return ok && d.Policy == policy && d.Binding == binding
}

// probeClient acts as the probe's user with the group system:masters, so that RBAC lets the request
// through to admission: the policy matches the user by name, and the user holds no rights yet.
func (a *Applier) probeClient(ctx context.Context, probe *api.EnforcementProbe) (dynamic.ResourceInterface, error) {
	obj := &unstructured.Unstructured{Object: probe.Object}
	gvk := obj.GroupVersionKind()
	mapping, err := a.resources.RESTMapping(ctx, gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, fmt.Errorf("finding the API resource of %s: %w", gvk, err)
	}
	if mapping.Scope.Name() != meta.RESTScopeNameNamespace {
		return nil, errors.New("the probe object must be of a namespaced kind")
	}
	config := rest.CopyConfig(a.config)
	config.Impersonate = rest.ImpersonationConfig{UserName: probe.User, Groups: []string{"system:masters"}}
	dyn, err := dynamic.NewForConfig(config)
	if err != nil {
		return nil, err
	}
	return dyn.Resource(mapping.Resource).Namespace(obj.GetNamespace()), nil
}
