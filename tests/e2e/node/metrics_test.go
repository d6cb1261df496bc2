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

package node

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/pkg/addons/metricsserver"
	"k8s.io/kops/pkg/validation"
	"k8s.io/kops/tests/e2e/nodecluster"
)

// metrics-server for real: kops's rendering of spec.metricsServer (insecure: true, the variant
// that needs no cert-manager) runs on the node from the image hack/build-test-node.sh built, the
// API server proxies metrics.k8s.io to it through its Service, and it answers with the kubelets'
// resource metrics. kops's secure mode needs cert-manager, which this cluster does not run.

var (
	metricsServerObjects = schema.GroupVersionResource{Group: "addons.x-k8s.io", Version: "v1alpha1", Resource: "metricsservers"}
	apiServices          = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
)

// metricsWait bounds every wait for metrics: metrics-server reports ready only after its first
// scrape (its readiness probe starts 20s in), and a pod's CPU needs two scrapes 15s apart
// (--metric-resolution=15s, as kops renders it).
const metricsWait = 3 * time.Minute

// The metrics API's answers, the fields the tests read (k8s.io/metrics's types, which this module
// does not otherwise need).
type nodeMetricsList struct {
	Items []struct {
		Metadata metav1.ObjectMeta            `json:"metadata"`
		Window   metav1.Duration              `json:"window"`
		Usage    map[string]resource.Quantity `json:"usage"`
	} `json:"items"`
}

type podMetricsList struct {
	Items []struct {
		Metadata   metav1.ObjectMeta `json:"metadata"`
		Containers []struct {
			Name  string                       `json:"name"`
			Usage map[string]resource.Quantity `json:"usage"`
		} `json:"containers"`
	} `json:"items"`
}

// setMetricsServer turns spec.metricsServer on, in its insecure mode, or removes it.
func (f *kopsFlow) setMetricsServer(t testing.TB, enabled bool) {
	t.Helper()
	f.editCluster(t, func(doc map[string]any) {
		spec, _ := doc["spec"].(map[string]any)
		require.NotNil(t, spec, "the cluster document has a spec")
		if enabled {
			spec["metricsServer"] = map[string]any{"enabled": true, "insecure": true}
		} else {
			delete(spec, "metricsServer")
		}
	})
}

// removeMetricsServerAtEnd turns metrics-server off again, built in, when the test ends, and waits
// until its APIService and Deployment are gone: an APIService left without a backend would fail
// the API discovery of the package's later tests.
func (f *kopsFlow) removeMetricsServerAtEnd(t *testing.T) {
	t.Cleanup(func() {
		f.setFeatureFlags("")
		f.setMetricsServer(t, false)
		f.updateAndApply(t)
		dyn, err := dynamic.NewForConfig(cluster.Config)
		require.NoError(t, err)
		var last string
		err = wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			_, errAPI := dyn.Resource(apiServices).Get(ctx, metricsserver.APIServiceName, metav1.GetOptions{})
			_, errDeploy := cluster.Clientset.AppsV1().Deployments(metricsserver.Namespace).Get(ctx, metricsserver.Deployment, metav1.GetOptions{})
			last = fmt.Sprintf("APIService: %v; Deployment: %v", errAPI, errDeploy)
			return apierrors.IsNotFound(errAPI) && apierrors.IsNotFound(errDeploy), nil
		})
		require.NoError(t, err, "metrics-server is not gone after it was turned off (%s)", last)
	})
}

// TestMetricsServerBuiltIn turns the built-in addon on and proves it serves node and pod metrics
// through the API server, that kops validate cluster passes, and that it fails naming the
// APIService when metrics-server has no pod. It turns metrics-server off again at the end.
func TestMetricsServerBuiltIn(t *testing.T) {
	require.Equal(t, metricsserver.DefaultImage, nodecluster.MetricsServerImage, "the node has the image kops renders")
	flow := newKopsFlow(t, "")
	flow.removeMetricsServerAtEnd(t)
	flow.setMetricsServer(t, true)
	start := time.Now()
	flow.updateAndApply(t)
	assertMetricsServed(t, start)
	flow.assertValidatePassesWithMetricsServer(t)

	t.Run("validate names the APIService when metrics-server has no pod", func(t *testing.T) {
		scaleMetricsServer(t, 0)
		t.Cleanup(func() { scaleMetricsServer(t, 2) })
		waitAPIServiceAvailable(t, false)
		flow.assertValidateNames(t, metricsserver.APIServiceName)
	})
	flow.assertValidatePassesWithMetricsServer(t)
}

// TestMetricsServerThroughItsOperator turns metrics-server on with the operator flags (ServerSide,
// CoreDNS's too): the operator creates metrics-server from its MetricsServer object, and it serves
// as the built-in addon does. It puts CoreDNS back built in and turns metrics-server off at the end;
// it leaves the operator's Namespace and the MetricsServer CRD, which channels never deletes.
func TestMetricsServerThroughItsOperator(t *testing.T) {
	flow := newKopsFlow(t, "")
	flow.removeMetricsServerAtEnd(t)
	flow.setMetricsServer(t, true)
	start := time.Now()
	flow.switchTo(t, serverSide)
	t.Cleanup(func() { flow.switchTo(t, builtIn) })
	waitDeploymentAvailable(t, "metrics-server-operator-system", "metrics-server-operator")
	waitMetricsServerHealthy(t)

	d, err := cluster.Clientset.AppsV1().Deployments(metricsserver.Namespace).Get(context.Background(), metricsserver.Deployment, metav1.GetOptions{})
	require.NoError(t, err)
	var managers []string
	for _, m := range d.ManagedFields {
		managers = append(managers, m.Manager)
	}
	// metrics-server was off before: the operator, not channels, made the Deployment.
	assert.Contains(t, managers, "metrics-server-operator", "the operator applied the Deployment")

	assertMetricsServed(t, start)
	flow.assertValidatePassesWithMetricsServer(t)
}

// assertMetricsServed proves metrics-server serves: its pods run as uid 1000 as kops's pod spec
// says; GET /apis/metrics.k8s.io/v1beta1/nodes through the API server lists every node of the
// cluster; the pod metrics of a namespace list a pod started for the test, with its container's
// memory. since is when metrics-server was turned on, for the time to the first node metrics.
func assertMetricsServed(t *testing.T, since time.Time) {
	t.Helper()
	ctx := context.Background()
	probe := nodecluster.TestClientPod("default", "metrics-probe")
	_, err := cluster.RunPod(ctx, probe)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, cluster.DeletePod(context.Background(), "default", "metrics-probe")) })

	waitDeploymentAvailable(t, metricsserver.Namespace, metricsserver.Deployment)
	t.Run("metrics-server runs as uid 1000", assertMetricsServerUID)

	t.Run("node metrics list every node", func(t *testing.T) {
		nodes, err := cluster.Clientset.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		require.NoError(t, err)
		var want []string
		for _, n := range nodes.Items {
			want = append(want, n.Name)
		}
		slices.Sort(want)
		require.NotEmpty(t, want)
		var got nodeMetricsList
		var last string
		err = wait.PollUntilContextTimeout(ctx, time.Second, metricsWait, true, func(ctx context.Context) (bool, error) {
			body, err := cluster.Clientset.Discovery().RESTClient().Get().AbsPath("/apis/metrics.k8s.io/v1beta1/nodes").DoRaw(ctx)
			if err != nil {
				last = err.Error()
				return false, nil
			}
			last = string(body)
			got = nodeMetricsList{}
			if err := json.Unmarshal(body, &got); err != nil {
				return false, err
			}
			var names []string
			for _, item := range got.Items {
				names = append(names, item.Metadata.Name)
			}
			slices.Sort(names)
			return slices.Equal(names, want), nil
		})
		require.NoError(t, err, "the node metrics do not list the nodes %v (last answer: %s)", want, last)
		t.Logf("node metrics of %v %.1fs after metrics-server was turned on", want, time.Since(since).Seconds())
		for _, item := range got.Items {
			memory, cpu := item.Usage["memory"], item.Usage["cpu"]
			assert.Positive(t, memory.Value(), "node %s uses memory", item.Metadata.Name)
			assert.Positive(t, cpu.MilliValue(), "node %s uses CPU (the daemons run on it)", item.Metadata.Name)
			assert.Positive(t, item.Window.Duration, "node %s: metrics over a window", item.Metadata.Name)
		}
	})

	t.Run("pod metrics list a running pod", func(t *testing.T) {
		var last string
		err := wait.PollUntilContextTimeout(ctx, time.Second, metricsWait, true, func(ctx context.Context) (bool, error) {
			body, err := cluster.Clientset.Discovery().RESTClient().Get().AbsPath("/apis/metrics.k8s.io/v1beta1/namespaces/default/pods").DoRaw(ctx)
			if err != nil {
				last = err.Error()
				return false, nil
			}
			last = string(body)
			var got podMetricsList
			if err := json.Unmarshal(body, &got); err != nil {
				return false, err
			}
			for _, item := range got.Items {
				if item.Metadata.Name != probe.Name || item.Metadata.Namespace != probe.Namespace {
					continue
				}
				for _, c := range item.Containers {
					memory := c.Usage["memory"]
					if c.Name == "client" && memory.Value() > 0 {
						return true, nil
					}
				}
			}
			return false, nil
		})
		require.NoError(t, err, "no metrics of pod default/%s with its container's memory (last answer: %s)", probe.Name, last)
	})
}

// assertMetricsServerUID reads the uid of every metrics-server container's process from the
// kernel: 1000, the rendered securityContext's, on an image whose own user is 65532.
func assertMetricsServerUID(t *testing.T) {
	pods, err := cluster.Clientset.CoreV1().Pods(metricsserver.Namespace).List(context.Background(), metav1.ListOptions{LabelSelector: "k8s-app=metrics-server"})
	require.NoError(t, err)
	running := 0
	for _, p := range pods.Items {
		if p.Status.Phase != corev1.PodRunning || p.DeletionTimestamp != nil {
			continue
		}
		for _, status := range p.Status.ContainerStatuses {
			if status.Name != "metrics-server" || status.State.Running == nil {
				continue
			}
			running++
			assert.Equal(t, []string{"1000", "1000", "1000", "1000"}, processUIDs(t, containerProcess(t, status)), "pod %s", p.Name)
		}
	}
	assert.Equal(t, 2, running, "kops renders two replicas: %s", podStates(t, metricsserver.Namespace))
}

// assertValidatePassesWithMetricsServer runs kops validate cluster until it passes, then once
// more as JSON to see that it checked the APIService and found it available.
func (f *kopsFlow) assertValidatePassesWithMetricsServer(t *testing.T) {
	t.Helper()
	f.must(t, "kops", "validate", "cluster", "--wait=3m")
	r := f.must(t, "kops", "validate", "cluster", "-o", "json")
	var result validation.Result
	require.NoError(t, json.Unmarshal([]byte(r.Stdout), &result), r.Stdout)
	want := validation.Check{Kind: "APIService", Name: metricsserver.APIServiceName, OK: true, Message: "available"}
	assert.Contains(t, result.Checks, want, "validate checked the APIService: %s", r.Stdout)
}

// scaleMetricsServer sets the Deployment's replicas (the built-in addon: nothing puts them back).
func scaleMetricsServer(t *testing.T, replicas int32) {
	t.Helper()
	ctx := context.Background()
	deployments := cluster.Clientset.AppsV1().Deployments(metricsserver.Namespace)
	scale, err := deployments.GetScale(ctx, metricsserver.Deployment, metav1.GetOptions{})
	require.NoError(t, err)
	scale.Spec.Replicas = replicas
	_, err = deployments.UpdateScale(ctx, metricsserver.Deployment, scale, metav1.UpdateOptions{})
	require.NoError(t, err)
	if replicas > 0 {
		waitDeploymentAvailable(t, metricsserver.Namespace, metricsserver.Deployment)
		waitAPIServiceAvailable(t, true)
	}
}

// waitAPIServiceAvailable waits until the API server reports the APIService's Available
// condition as want.
func waitAPIServiceAvailable(t *testing.T, want bool) {
	t.Helper()
	dyn, err := dynamic.NewForConfig(cluster.Config)
	require.NoError(t, err)
	wantStatus := string(metav1.ConditionFalse)
	if want {
		wantStatus = string(metav1.ConditionTrue)
	}
	var last string
	err = wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, metricsWait, true, func(ctx context.Context) (bool, error) {
		u, err := dyn.Resource(apiServices).Get(ctx, metricsserver.APIServiceName, metav1.GetOptions{})
		if err != nil {
			last = err.Error()
			return false, nil
		}
		conditions, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
		last = toJSON(conditions)
		for _, c := range conditions {
			m, _ := c.(map[string]any)
			if m["type"] == "Available" {
				return m["status"] == wantStatus, nil
			}
		}
		return false, nil
	})
	require.NoError(t, err, "APIService %s: Available is not %s (conditions: %s)", metricsserver.APIServiceName, wantStatus, last)
}

// waitMetricsServerHealthy waits until the operator reports the MetricsServer object healthy for
// its latest generation.
func waitMetricsServerHealthy(t testing.TB) {
	t.Helper()
	dyn, err := dynamic.NewForConfig(cluster.Config)
	require.NoError(t, err)
	var last *unstructured.Unstructured
	err = wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, metricsWait, true, func(ctx context.Context) (bool, error) {
		u, err := dyn.Resource(metricsServerObjects).Namespace(metricsserver.Namespace).Get(ctx, metricsserver.Name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		last = u
		healthy, _, _ := unstructured.NestedBool(u.Object, "status", "healthy")
		observed, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
		return healthy && observed >= u.GetGeneration(), nil
	})
	if err != nil {
		status := "never seen"
		if last != nil {
			status = toJSON(last.Object["status"])
		}
		require.NoError(t, err, "the MetricsServer object is not healthy: status %s; the operator's pods: %s", status, podStates(t, "metrics-server-operator-system"))
	}
}
