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

package operatorrun

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/operator/manager"
	"k8s.io/kops/tests/e2e/framework"
)

// corefileSpec is the spec change kops writes for a new Corefile: the Corefile and its checksum.
func corefileSpec(corefile string) map[string]any {
	return map[string]any{"corefile": corefile, "corefileChecksum": coredns.CorefileChecksum(corefile)}
}

// A Corefile edited by hand without its checksum is refused before anything is applied: the
// status and an InvalidSpec event name the field, and the ConfigMap keeps the Corefile the
// running pods have. Putting the checksum right applies it. On a server of its own.
func TestOperatorRefusesAStaleChecksum(t *testing.T) {
	shared := env
	t.Cleanup(func() { env = shared })
	env = framework.Start(t)
	applyOperatorAddons(t, "addon-operators", true)
	startOperator(t, operatorConfig(t, &statusCounter{}), "checksum")
	ctx := framework.Context(t)
	before := coreDNS(t).Spec
	edited := before.Corefile + "# edited by hand\n"
	patchSpec(t, map[string]any{"corefile": edited})
	eventually(t, "status", statusIs(t, manager.PhaseDegraded, false))
	st := coreDNS(t).Status
	require.NotEmpty(t, st.Errors)
	assert.Contains(t, st.Errors[0], "spec.corefileChecksum "+before.CorefileChecksum+" is not the SHA-256 of spec.corefile ("+coredns.CorefileChecksum(edited)+")")
	assert.True(t, meta.IsStatusConditionTrue(st.Conditions, manager.ConditionDegraded))
	eventually(t, "InvalidSpec event", hasEvent(t, "kube-system", "CoreDNS", "coredns", "Warning", manager.ReasonInvalidSpec, "spec.corefileChecksum"))
	cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, before.Corefile, cm.Data["Corefile"], "nothing was applied")

	patchSpec(t, corefileSpec(edited))
	eventually(t, "ConfigMap coredns", func() string {
		cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		if cm.Data["Corefile"] != edited {
			return "the old Corefile"
		}
		return ""
	})
}
