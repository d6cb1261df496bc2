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

package kube2iam

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

// controllerManager is who creates default ServiceAccounts on a real cluster; channelsFieldManager
// is channels's default field manager.
const (
	controllerManager    = "kube-controller-manager"
	channelsFieldManager = "kops-channels"
)

// createdBy is a field of the account's creator, so that its managedFields entry shows.
var createdBy = map[string]string{"e2e.kops.k8s.io/created-by": controllerManager}

// defaultAccounts (re)creates the default ServiceAccounts of namespaces the way the
// controller-manager does (no test server runs one), and returns their UIDs.
func defaultAccounts(t *testing.T, namespaces ...string) map[string]types.UID {
	ctx := framework.Context(t)
	uids := map[string]types.UID{}
	for _, ns := range namespaces {
		err := env.Clientset.CoreV1().ServiceAccounts(ns).Delete(ctx, "default", metav1.DeleteOptions{})
		require.True(t, err == nil || apierrors.IsNotFound(err), "%v", err)
		sa, err := env.Clientset.CoreV1().ServiceAccounts(ns).Create(ctx,
			&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: ns, Annotations: createdBy}},
			metav1.CreateOptions{FieldManager: controllerManager})
		require.NoError(t, err)
		uids[ns] = sa.UID
	}
	return uids
}

// account is a default ServiceAccount as the server has it: its UID, its field, and the fields
// channels's manager owns (JSON of managedFields, "" when it owns none).
type account struct {
	uid       types.UID
	automount *bool
	ours      string
	labels    map[string]string
}

func getAccount(t *testing.T, ns string) account {
	sa, err := env.Clientset.CoreV1().ServiceAccounts(ns).Get(framework.Context(t), "default", metav1.GetOptions{})
	require.NoError(t, err, "ServiceAccount %s/default exists", ns)
	a := account{uid: sa.UID, automount: sa.AutomountServiceAccountToken, labels: sa.Labels}
	assert.Equal(t, createdBy, sa.Annotations, "the creator's fields are left alone")
	managers := map[string]bool{}
	for _, m := range sa.ManagedFields {
		managers[m.Manager] = true
		if m.Manager == channelsFieldManager && m.Operation == metav1.ManagedFieldsOperationApply && m.FieldsV1 != nil {
			a.ours = string(m.FieldsV1.Raw)
		}
	}
	assert.True(t, managers[controllerManager], "the controller-manager's entry stays: %v", managers)
	return a
}

func isFalse(b *bool) bool { return b != nil && !*b }

// kops applies one field over the controller-manager's default ServiceAccounts, releases it when
// the setting is turned back, and never deletes them, not even when their addon is retired.
func TestDefaultServiceAccounts(t *testing.T) {
	uids := defaultAccounts(t, "kube-system", "default")
	s := kopsenv.NewStore(t, "serviceaccount-tokens")
	location := s.Update(t, "")
	run := kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	require.Equal(t, apply.Applied, run.Outcomes()[addons.ServiceAccountDefaultsAddonName], run.Output)

	var field map[string]interface{}
	for _, ns := range []string{"kube-system", "default"} {
		a := getAccount(t, ns)
		assert.Equal(t, uids[ns], a.uid, "%s/default is the controller-manager's account, not a new one", ns)
		assert.True(t, isFalse(a.automount), "%s/default mounts no token", ns)
		require.NoError(t, json.Unmarshal([]byte(a.ours), &field))
		assert.Equal(t, map[string]interface{}{"f:automountServiceAccountToken": map[string]interface{}{}}, field,
			"%s/default: kops owns exactly the one field", ns)
		assert.Empty(t, a.labels, "no addon label: nothing ever retires or prunes it")
	}

	// automountDefault turned back on: the default namespace's field is released, kube-system's stays.
	s.EditCluster(t, func(c *kops.Cluster) { c.Spec.ServiceAccountTokens = nil })
	run = kopsenv.Apply(t, env, s.Update(t, ""), s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Nil(t, getAccount(t, "default").automount, "released: the default namespace's pods get tokens again")
	assert.True(t, isFalse(getAccount(t, "kube-system").automount))

	// The addon leaves the channel (a channel written by another kops, say): it is retired, and
	// the accounts are not deleted.
	withoutAccounts(t, location, s.Mem)
	run = kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, apply.Retired, run.Outcomes()[addons.ServiceAccountDefaultsAddonName], run.Output)
	for _, ns := range []string{"kube-system", "default"} {
		assert.Equal(t, uids[ns], getAccount(t, ns).uid, "%s/default survives its addon's retirement", ns)
	}
}

// withoutAccounts rewrites the channel at location without the default ServiceAccounts' addon.
func withoutAccounts(t *testing.T, location string, mem *vfs.MemFS) {
	p, err := vfs.ParsePath(location, mem)
	require.NoError(t, err)
	data, err := p.ReadFile()
	require.NoError(t, err)
	channel, err := channelsapi.ParseAddons(data)
	require.NoError(t, err)
	var kept []channelsapi.AddonSpec
	for _, a := range channel.Spec.Addons {
		if a.Name != addons.ServiceAccountDefaultsAddonName {
			kept = append(kept, a)
		}
	}
	require.Len(t, kept, len(channel.Spec.Addons)-1)
	channel.Spec.Addons = kept
	data, err = channel.Encode()
	require.NoError(t, err)
	require.NoError(t, p.WriteFile(data))
}
