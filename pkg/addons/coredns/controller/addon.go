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

package controller

import (
	"fmt"
	"net/netip"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/addons/coredns/corefile"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/manager"
)

// FieldManager is the operator's server-side apply field manager.
func FieldManager() string { return coredns.Names().DeploymentName }

// Addon is the CoreDNS operator for the shared runtime, rendering with facts.
func Addon(facts Facts) manager.Addon[Spec] {
	return manager.Addon[Spec]{
		Descriptor: coredns.Descriptor(),
		Render:     func(spec Spec) ([]byte, error) { return renderObjects(spec, facts) },
		Check:      checkSpec,
		CheckApply: checkClusterIP,
	}
}

// checkSpec refuses a spec whose checksum is not its Corefile's, and a Corefile checkCorefile
// refuses. The admission policy lets the pod template's annotation be only spec.corefileChecksum;
// this check makes that the new Corefile's, so whoever edits spec.corefile without the checksum is
// told so in the status and an event, and nothing is applied, rather than a ConfigMap that running
// pods would take a minute to reload.
func checkSpec(spec Spec) error {
	if err := coredns.CheckCorefileChecksum(spec); err != nil {
		return fmt.Errorf("%w; nothing was applied", err)
	}
	return checkCorefile(spec)
}

// checkCorefile refuses a Corefile that could reach a credential, naming every problem. kops
// validates the Corefile it writes, but anyone else who may write the object could hand CoreDNS
// one that reaches its token, so it is checked again before apply.
func checkCorefile(spec Spec) error {
	problems, err := corefile.Check(spec.Corefile)
	if err != nil {
		return fmt.Errorf("spec.corefile: %w", err)
	}
	if len(problems) == 0 {
		return nil
	}
	msgs := make([]string, len(problems))
	for i, p := range problems {
		msgs[i] = p.String()
	}
	return fmt.Errorf("spec.corefile is refused, nothing was applied: %s", strings.Join(msgs, "; "))
}

// checkClusterIP refuses to apply a Service whose cluster IP would change: Kubernetes cannot
// change it in place, and the operator never deletes the Service (another could take the IP).
func checkClusterIP(spec Spec, m operator.Managed, svc *unstructured.Unstructured) error {
	if m.Kind != "Service" || svc == nil {
		return nil
	}
	current, _, _ := unstructured.NestedString(svc.Object, "spec", "clusterIP")
	want, errWant := netip.ParseAddr(spec.DNSIP)
	have, errHave := netip.ParseAddr(current)
	if errWant == nil && errHave == nil && want == have {
		return nil
	}
	return fmt.Errorf("spec.dnsIP %q differs from the clusterIP %q of Service %s/%s, which cannot change in place; the operator never deletes the Service: delete it yourself to move DNS to the new address", spec.DNSIP, current, coredns.WatchNamespace, m.Name)
}
