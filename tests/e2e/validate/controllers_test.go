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

package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/client-go/util/retry"

	"k8s.io/kops/tests/e2e/kopsenv"
)

// cluster is one kops cluster in a file:// state store of its own, with the binaries and a
// kubeconfig for the test server.
type cluster struct {
	name, bin, dir, state string
	env                   []string
}

func newCluster(t *testing.T, bin, name string, flags string, sets ...string) *cluster {
	return newClusterTB(t, bin, name, flags, sets...)
}

// newClusterTB creates the cluster, sets each of sets on its spec as `kops edit cluster --set`
// does, writes it and applies its channel.
func newClusterTB(t testing.TB, bin, name string, flags string, sets ...string) *cluster {
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	kopsenv.WriteKubeconfig(t, env, kubeconfig)
	nameContextAfter(t, kubeconfig, name, false)
	c := &cluster{name: name, bin: bin, dir: dir, state: "file://" + filepath.Join(dir, "state")}
	c.env = []string{"KOPS_STATE_STORE=" + c.state, "KUBECONFIG=" + kubeconfig, "HOME=" + dir, "KOPS_FEATURE_FLAGS=" + flags}
	c.mustKops(t, "create", "cluster", name, "--zones", "us-east-2a")
	for _, set := range sets {
		c.mustKops(t, "edit", "cluster", name, "--set", set)
	}
	c.mustKops(t, "update", "cluster", name, "--yes")
	r := c.run(t, "channels", "apply", "channel", c.channel(), "--yes")
	require.Equal(t, 0, r.Code, "channels apply:\n%s%s", r.Stdout, r.Stderr)
	return c
}

func (c *cluster) channel() string { return c.state + "/" + c.name + "/addons/bootstrap-channel.yaml" }

func (c *cluster) run(t testing.TB, command string, args ...string) kopsenv.Run {
	t.Helper()
	return kopsenv.Command(t, c.dir, c.env, filepath.Join(c.bin, command), args...)
}

func (c *cluster) mustKops(t testing.TB, args ...string) kopsenv.Run {
	t.Helper()
	r := c.run(t, "kops", args...)
	require.Equal(t, 0, r.Code, "kops %s:\n%s%s", strings.Join(args, " "), r.Stdout, r.Stderr)
	return r
}

// setDeploymentAvailable plays the Deployment controller: the latest generation observed and the
// Available condition set as given.
func setDeploymentAvailable(t testing.TB, namespace, name string, available bool) {
	kopsenv.SetDeploymentStatus(t, env, namespace, name, &available)
}

// createDeployment plays an operator: it creates a Deployment of one pod, as the admin.
func createDeployment(t *testing.T, namespace, name string) {
	kopsenv.CreateDeployment(t, env, namespace, name, map[string]string{"k8s-app": name})
}

// setDeploymentStatus sets the Available condition as given, or none when available is nil.
func setDeploymentStatus(t testing.TB, namespace, name string, available *bool) {
	kopsenv.SetDeploymentStatus(t, env, namespace, name, available)
}

// setCoreDNSStatus plays the CoreDNS operator: status.healthy and status.errors as it reports them.
func setCoreDNSStatus(t *testing.T, healthy bool, errs ...string) {
	kopsenv.SetCoreDNSStatus(t, env, healthy, errs...)
}

// setRecord sets (or, with value "", removes) an addon's record on a namespace.
func setRecord(t *testing.T, namespace, addon, value string) {
	t.Helper()
	ctx := context.Background()
	namespaces := env.Clientset.CoreV1().Namespaces()
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		ns, err := namespaces.Get(ctx, namespace, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if ns.Annotations == nil {
			ns.Annotations = map[string]string{}
		}
		if value == "" {
			delete(ns.Annotations, "addons.k8s.io/"+addon)
		} else {
			ns.Annotations["addons.k8s.io/"+addon] = value
		}
		_, err = namespaces.Update(ctx, ns, metav1.UpdateOptions{})
		return err
	}))
}

func record(t *testing.T, namespace, addon string) string {
	t.Helper()
	ns, err := env.Clientset.CoreV1().Namespaces().Get(context.Background(), namespace, metav1.GetOptions{})
	require.NoError(t, err)
	value := ns.Annotations["addons.k8s.io/"+addon]
	require.NotEmpty(t, value, "record of %s on %s", addon, namespace)
	return value
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o600) }

// nameContextAfter gives the kubeconfig a context named after the cluster, as kops names it, next
// to its current one (channels, which knows no cluster name, uses that); with elsewhere, the
// current context becomes one of a server where nothing listens, so that only the cluster's own
// context reaches the cluster.
func nameContextAfter(t testing.TB, kubeconfig, name string, elsewhere bool) {
	config, err := clientcmd.LoadFromFile(kubeconfig)
	require.NoError(t, err)
	config.Contexts[name] = config.Contexts[config.CurrentContext].DeepCopy()
	if elsewhere {
		config.Clusters["nowhere"] = &clientcmdapi.Cluster{Server: "https://127.0.0.1:1"}
		config.Contexts["nowhere"] = &clientcmdapi.Context{Cluster: "nowhere", AuthInfo: config.Contexts[name].AuthInfo}
		config.CurrentContext = "nowhere"
	}
	require.NoError(t, clientcmd.WriteToFile(*config, kubeconfig))
}

// setDeploymentRollingOut plays the Deployment controller half way through a rollout: every
// replica available, none yet on the new template.
func setDeploymentRollingOut(t *testing.T, namespace, name string) {
	t.Helper()
	ctx := context.Background()
	deployments := env.Clientset.AppsV1().Deployments(namespace)
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d, err := deployments.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		d.Status.UpdatedReplicas = 0
		d.Status.Conditions = []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable"},
			{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "ReplicaSetUpdated"},
		}
		_, err = deployments.UpdateStatus(ctx, d, metav1.UpdateOptions{})
		return err
	}))
}
