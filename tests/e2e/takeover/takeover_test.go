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

package takeover

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

var env *framework.Env

func TestMain(m *testing.M) { framework.Main(m, func(e *framework.Env) { env = e }) }

// identity of the DNS objects that must survive a takeover.
type identity struct {
	deployment, service types.UID
	clusterIP           string
}

func current(t *testing.T) identity {
	ctx := framework.Context(t)
	d, err := env.Clientset.AppsV1().Deployments("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	s, err := env.Clientset.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
	require.NoError(t, err)
	return identity{deployment: d.UID, service: s.UID, clusterIP: s.Spec.ClusterIP}
}

// outcomes are a run's outcomes without the addon that locks the default ServiceAccounts, which
// every channel carries and which has nothing to do with CoreDNS; it must not fail either.
func outcomes(t *testing.T, run *kopsenv.Applied) map[string]apply.Outcome {
	t.Helper()
	out := run.Outcomes()
	assert.NotEqual(t, apply.Failed, out[accountsAddon], run.Output)
	delete(out, accountsAddon)
	return out
}

const accountsAddon = "serviceaccount-defaults.addons.k8s.io"

func TestBuiltInTakesOverKopsCoreDNS(t *testing.T) {
	reset(t)
	s := kopsenv.NewStore(t, "minimal")
	location := s.Update(t, "")
	kopsRecords := kopsInstalls(t, location, kopsCoreDNSImage)
	before := current(t)

	dry := kopsenv.Apply(t, env, location, s.Mem, false)
	require.NoError(t, dry.Err, dry.Output)
	assert.Zero(t, dry.Requests.Mutating())
	assert.Equal(t, map[string]apply.Outcome{builtInAddon: apply.WouldApply, notOurs: apply.LeftAlone}, outcomes(t, dry), dry.Output)

	run := kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	t.Log(run.Output)
	assert.Equal(t, map[string]apply.Outcome{builtInAddon: apply.Applied, notOurs: apply.LeftAlone}, outcomes(t, run), run.Output)
	assert.Contains(t, run.Output, "taking over: another tool recorded it", "says why it applies over kops's record")
	assert.Contains(t, run.Output, "managed by another tool")
	for _, replaced := range []string{"ClusterRole coredns-autoscaler", "PodDisruptionBudget kube-system/kube-dns", "Service kube-system/kube-dns"} {
		assert.Contains(t, dry.Output, replaced, "the dry run names the kops objects it would replace")
		assert.Contains(t, run.Output, replaced, "the output names the kops objects it replaced")
	}
	assert.Contains(t, run.Output, "also taking, without its label: ConfigMap kube-system/coredns-autoscaler")

	assert.Equal(t, before, current(t), "Deployment coredns and Service kube-dns keep their identity and cluster IP")
	assertOnePDB(t, builtInAddon)
	assertImage(t, "coredns", "coredns", coredns.DefaultImage)
	assertImage(t, "coredns-autoscaler", "autoscaler", coredns.DefaultAutoscalerImage)
	assertAutoscalerConfined(t)
	assertNothingUnlisted(t)
	assertRecordReadableByBoth(t, location, builtInAddon, s)
	assertNotOursUntouched(t, kopsRecords[notOurs])

	again := kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, again.Err)
	assert.Zero(t, again.Requests.Mutating(), "a second apply changes nothing")
}

func TestDowngradeIsRefusedUnlessAllowed(t *testing.T) {
	reset(t)
	// A file:// store, so that the channels binary reads the channel too.
	s := kopsenv.NewStoreAt(t, "minimal", "file://"+t.TempDir())
	location := s.Update(t, "")
	const newer = "registry.k8s.io/coredns/coredns:v1.15.0"
	kopsRecords := kopsInstalls(t, location, newer)
	want := "Deployment kube-system/coredns containers[coredns] runs " + newer +
		"; the channel would replace it with " + coredns.DefaultImage + ", a lower version"

	// The first run also applies the addon that locks the default ServiceAccounts; after it, every
	// refused run sends nothing that changes anything.
	for i, yes := range []bool{true, false, true} {
		run := kopsenv.Apply(t, env, location, s.Mem, yes)
		require.Error(t, run.Err, "yes=%v", yes)
		assert.Contains(t, run.Err.Error(), want)
		assert.Contains(t, run.Output, "pass --allow-downgrade")
		assert.Equal(t, apply.Failed, run.Outcomes()[builtInAddon])
		if i > 0 {
			assert.Zero(t, run.Requests.Mutating(), "nothing of the addon is applied, its record included (yes=%v)", yes)
		}
		assertImage(t, "coredns", "coredns", newer)
		assertRecord(t, builtInAddon, kopsRecords[builtInAddon])
	}

	// The command a user runs: refused with a non-zero exit, then applied with --allow-downgrade.
	channels := kopsenv.Build(t, "./cmd/channels")
	kubeconfig := "--kubeconfig=" + kopsenv.Kubeconfig(t, env)
	stdout, stderr, err := kopsenv.Exec(channels, nil, "apply", "channel", location, "--yes", kubeconfig)
	require.Error(t, err, stdout)
	assert.Contains(t, stderr, want)
	assertImage(t, "coredns", "coredns", newer)
	stdout, stderr, err = kopsenv.Exec(channels, nil, "apply", "channel", location, "--yes", "--allow-downgrade", kubeconfig)
	require.NoError(t, err, stdout+stderr)
	assert.Contains(t, stdout, "coredns.addons.k8s.io (k8s-1.12)")
	assertImage(t, "coredns", "coredns", coredns.DefaultImage)
	assertOnePDB(t, builtInAddon)
	assertAutoscalerConfined(t)

	again := kopsenv.ApplyWith(t, env, location, s.Mem, apply.Options{Yes: true})
	require.NoError(t, again.Err, again.Output)
	assert.Zero(t, again.Requests.Mutating(), "once applied, nothing is left to downgrade or apply")
}

// Last: the operator's namespace and CRD stay behind on a test server.
func TestOperatorTakesOverKopsCoreDNS(t *testing.T) {
	reset(t)
	s := kopsenv.NewStore(t, "minimal")
	location := s.Update(t, "ClusterAddons,UseAddonOperators")
	kopsRecords := kopsInstalls(t, location, kopsCoreDNSImage)
	before := current(t)

	dry := kopsenv.Apply(t, env, location, s.Mem, false)
	require.NoError(t, dry.Err, dry.Output)
	assert.Zero(t, dry.Requests.Mutating())
	assert.Equal(t, apply.WouldApply, dry.Outcomes()[builtInAddon], dry.Output)
	assert.Contains(t, dry.Output, "its objects are taken over, then retired")

	kopsScaling := scalingUIDs(t)
	run := kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	t.Log(run.Output)
	assert.Equal(t, map[string]apply.Outcome{
		builtInAddon: apply.Retired, "coredns-rbac.addons.k8s.io": apply.Applied, scalingAddon: apply.Applied,
		"operator.coredns.addons.x-k8s.io": apply.Applied, operatorAddon: apply.Applied, notOurs: apply.LeftAlone,
	}, outcomes(t, run), run.Output)
	assert.Contains(t, run.Output, string(apply.TakenOver))
	assert.Contains(t, run.Output, "handed over to coredns.addons.x-k8s.io: ")
	assert.NotContains(t, run.Output, "deleted:", "the takeover deletes nothing of kops's: the operator's addon or kops's own takes each object")

	// kops's autoscaler and budget are kept in place, now in kops's addon beside the operator (the
	// operator may write neither), with our narrower rights: kops's broader rules are gone.
	ctx := framework.Context(t)
	after := scalingUIDs(t)
	for key, uid := range kopsScaling {
		assert.Equal(t, uid, after[key], "kops's %s is the same object", key)
	}
	for kind, name := range map[string]string{"Deployment": "coredns-autoscaler", "ServiceAccount": "coredns-autoscaler", "ConfigMap": "coredns-autoscaler",
		"Role": "coredns-autoscaler", "RoleBinding": "coredns-autoscaler", "PodDisruptionBudget": "kube-dns"} {
		o, err := client(t, kind, "kube-system").Get(ctx, name, metav1.GetOptions{})
		require.NoError(t, err, "%s %s", kind, name)
		assert.Equal(t, scalingAddon, o.GetLabels()[channelsapi.LabelAddonName], "%s %s", kind, name)
	}
	for _, kind := range []string{"ClusterRole", "ClusterRoleBinding"} {
		o, err := client(t, kind, "").Get(ctx, "coredns-autoscaler", metav1.GetOptions{})
		require.NoError(t, err, kind)
		assert.Equal(t, scalingAddon, o.GetLabels()[channelsapi.LabelAddonName], kind)
	}
	assertImage(t, "coredns-autoscaler", "autoscaler", coredns.DefaultAutoscalerImage)
	assertAutoscalerConfined(t)
	// The autoscaler made its ConfigMap itself, without kops's label: the takeover of the built-in
	// addon leaves it, and kops's addon beside the operator, which lists it, takes it with our
	// parameters, bounded by the replicas the operator's policy admits.
	assert.Contains(t, run.Output, "not touched, without its label: ConfigMap kube-system/coredns-autoscaler")
	cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns-autoscaler", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, `{"coresPerReplica":256,"nodesPerReplica":16,"min":1,"max":50,"preventSinglePointFailure":true}`, cm.Data["linear"])

	assert.Equal(t, before, current(t), "Deployment coredns and Service kube-dns keep their identity and cluster IP")
	assertOnePDB(t, scalingAddon)
	assertImage(t, "coredns", "coredns", coredns.DefaultImage)
	assertNothingUnlisted(t)
	ns, err := env.Clientset.CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{})
	require.NoError(t, err)
	assert.NotContains(t, ns.Annotations, channelsapi.RecordKeyPrefix+builtInAddon, "the built-in addon's record is retired with it")
	assertRecordReadableByBoth(t, location, operatorAddon, s)
	assertNotOursUntouched(t, kopsRecords[notOurs])

	again := kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, again.Err)
	assert.Zero(t, again.Requests.Mutating(), "a second apply changes nothing")
}
