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
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/wait"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// The instance metadata addresses AWS serves, bound on the node for the mock.
const (
	imdsIPv4 = "169.254.169.254"
	imdsIPv6 = "fd00:ec2::254"
	// imdsOtherPort is a second port the mock listens on, which Forward must not let pods reach.
	imdsOtherPort = 8080
	// proxyPort is forward.port's default, where kube2iam would listen on the node's address.
	proxyPort = 8181
	// standInBody is what the proxy's stand-in answers every request with.
	standInBody = "kube2iam stand-in"
)

// startOnNode starts a long-running command on the node and stops it, by its PID, when the test
// ends; its output goes to a file of the test's, shown when it fails to start.
func startOnNode(t testing.TB, name string, args ...string) {
	t.Helper()
	log, err := os.Create(filepath.Join(t.TempDir(), filepath.Base(name)+".log"))
	require.NoError(t, err)
	cmd := cluster.NodeCommand(context.Background(), name, args...)
	cmd.Stdout, cmd.Stderr = log, log
	require.NoError(t, cmd.Start(), "starting %s on the node", name)
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = log.Close()
	})
}

// onNode runs a command on the node that must succeed.
func onNode(t testing.TB, name string, args ...string) string {
	t.Helper()
	out, err := cluster.NodeCommand(context.Background(), name, args...).CombinedOutput()
	require.NoError(t, err, "%s %s on the node: %s", name, strings.Join(args, " "), out)
	return string(out)
}

// startIMDS binds AWS's metadata addresses on the node (on lo, as a metadata service the node
// itself reaches) and runs the real AWS IMDS mock on them, port 80 and imdsOtherPort; and a
// stand-in for kube2iam on the node's address at proxyPort (its image cannot be had offline),
// answering standInBody. Everything is removed when the test ends.
func startIMDS(t testing.TB) {
	t.Helper()
	root, err := nodecluster.RepoRoot(".")
	require.NoError(t, err)
	nodeBin, _ := nodecluster.BinDirs(root)
	mock := filepath.Join(nodeBin, "ec2-metadata-mock")
	_, err = os.Stat(mock)
	require.NoError(t, err, "the IMDS mock is built by hack/build-test-node.sh")

	onNode(t, "ip", "addr", "add", imdsIPv4+"/32", "dev", "lo")
	t.Cleanup(func() {
		_ = cluster.NodeCommand(context.Background(), "ip", "addr", "del", imdsIPv4+"/32", "dev", "lo").Run()
	})
	onNode(t, "ip", "-6", "addr", "add", imdsIPv6+"/128", "dev", "lo", "nodad")
	t.Cleanup(func() {
		_ = cluster.NodeCommand(context.Background(), "ip", "-6", "addr", "del", imdsIPv6+"/128", "dev", "lo").Run()
	})
	startOnNode(t, mock, "--hostname", imdsIPv4, "--port", "80")
	startOnNode(t, mock, "--hostname", imdsIPv4, "--port", fmt.Sprint(imdsOtherPort))
	// The mock joins host and port as they are: an IPv6 address needs its brackets.
	startOnNode(t, mock, "--hostname", "["+imdsIPv6+"]", "--port", "80")
	// socat answers each connection with the script's output, a whole HTTP response.
	answer := filepath.Join(t.TempDir(), "stand-in.sh")
	require.NoError(t, os.WriteFile(answer, []byte(fmt.Sprintf("#!/bin/sh\nprintf 'HTTP/1.0 200 OK\\r\\nContent-Type: text/plain\\r\\n\\r\\n%s'\n", standInBody)), 0o755))
	startOnNode(t, "socat", fmt.Sprintf("TCP-LISTEN:%d,bind=%s,reuseaddr,fork", proxyPort, cluster.NodeIP), "EXEC:"+answer)
}

// httpAnswer is the test client's answer to `testclient http`.
type httpAnswer struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
	Error  string `json:"error"`
}

// get asks for url from a pod; it returns the answer, or the error the client met.
func get(t testing.TB, pod, url string) httpAnswer {
	t.Helper()
	r, err := cluster.Exec(context.Background(), "default", pod, "client", "/testclient", "http", "--url", url, "--timeout", "2s")
	require.NoError(t, err)
	var a httpAnswer
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(r.Stdout)), &a), "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
	return a
}

// dial opens a TCP connection from a pod; it says whether it was accepted.
func dial(t testing.TB, pod, addr string) bool {
	t.Helper()
	r, err := cluster.Exec(context.Background(), "default", pod, "client", "/testclient", "dial", "--addr", addr, "--timeout", "2s")
	require.NoError(t, err)
	return r.ExitCode == 0
}

// runMetadataScript runs the script `kops update cluster` stored for the nodes' instance group
// on the node, as its unit does: the unit's ExecStart, as root, with no argument, in the node's
// namespaces. The metadata address is bound on this node, so the node address the script would
// take from the route is given the way the documented drop-in does (KOPS_METADATA_NODE_IP).
func (f *kopsFlow) runMetadataScript(t testing.TB, mode string) {
	t.Helper()
	dir := filepath.Join(f.dir, "state", cluster.Name, "igconfig", "node", "nodes-us-east-2a")
	unit, err := os.ReadFile(filepath.Join(dir, "kops-pod-metadata-access.service"))
	require.NoError(t, err)
	require.Contains(t, string(unit), "(mode "+mode+")", "the stored unit is the one for mode %s", mode)
	require.Contains(t, string(unit), "\nExecStart=/opt/kops/bin/kops-pod-metadata-access\n")
	script, err := os.ReadFile(filepath.Join(dir, "kops-pod-metadata-access.sh"))
	require.NoError(t, err)
	// The machine gets the stored bytes at /opt/kops/bin; here a file of the test's.
	path := filepath.Join(t.TempDir(), "kops-pod-metadata-access")
	require.NoError(t, os.WriteFile(path, script, 0o755))
	cmd := cluster.NodeCommand(context.Background(), path)
	cmd.Env = append(cmd.Env, "KOPS_METADATA_NODE_IP="+cluster.NodeIP, "KOPS_METADATA_WAIT_SECONDS=5")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the mode %s script failed on the node: %s", mode, out)
}

// setMetadataMode sets spec.podMetadataAccess for mode (Forward to kube2iam on its default port).
func setMetadataMode(doc map[string]any, mode string) {
	access := map[string]any{"mode": mode}
	if mode == "Forward" {
		access["forward"] = map[string]any{"proxy": "kube2iam", "defaultRole": "pods-default", "baseRoleARN": "arn:aws:iam::123456789012:role/"}
	}
	doc["spec"].(map[string]any)["podMetadataAccess"] = access
}

// TestPodMetadataAccess runs the node script kops renders for each mode of
// spec.podMetadataAccess on the node, with the real AWS IMDS mock listening on the node's
// metadata addresses, and proves from a real pod that it is blocked in Block, reaches metadata in
// Allow and reaches only the proxy's port in Forward, and over IPv6 (pods are dual-stack) reaches
// metadata in Allow only; and from the node itself (a host-network
// pod, whose traffic leaves through OUTPUT like kubelet's) that metadata stays reachable, over
// IPv4 and IPv6, in every mode.
func TestPodMetadataAccess(t *testing.T) {
	ctx := context.Background()
	startIMDS(t)
	flow := newKopsFlow(t, "")
	// kops create cluster sets the groups' hop limit to 1, which Allow refuses (pods could never
	// get an IMDSv2 token); unset, each mode picks its own default.
	for _, group := range []string{"control-plane-us-east-2a", "nodes-us-east-2a"} {
		flow.editInstanceGroup(t, group, func(doc map[string]any) {
			if md, ok := doc["spec"].(map[string]any)["instanceMetadata"].(map[string]any); ok {
				delete(md, "httpPutResponseHopLimit")
			}
		})
	}
	// The rules end as Allow leaves them: none.
	t.Cleanup(func() {
		flow.editCluster(t, func(doc map[string]any) { setMetadataMode(doc, "Allow") })
		flow.must(t, "kops", "update", "cluster", "--yes")
		flow.runMetadataScript(t, "Allow")
	})

	for _, p := range []struct {
		name        string
		hostNetwork bool
	}{{"metadata-pod", false}, {"metadata-node", true}} {
		// On the first node: the metadata mock and the rules are there (startIMDS, runMetadataScript).
		pod := nodecluster.OnNode(nodecluster.TestClientPod("default", p.name), nodecluster.NodeName)
		pod.Spec.HostNetwork = p.hostNetwork
		_, err := cluster.RunPod(ctx, pod)
		require.NoError(t, err)
		t.Cleanup(func() { assert.NoError(t, cluster.DeletePod(context.Background(), "default", p.name)) })
	}
	metadataURL := "http://" + imdsIPv4 + "/latest/meta-data/instance-id"
	metadataURL6 := "http://[" + imdsIPv6 + "]/latest/meta-data/instance-id"
	// What the mock answers, asked before any rule is in place.
	var instanceID string
	require.NoError(t, wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		a := get(t, "metadata-node", metadataURL)
		instanceID = a.Body
		return a.Status == 200 && strings.HasPrefix(a.Body, "i-"), nil
	}), "the IMDS mock answers on the node")

	for _, tc := range []struct {
		mode string
		// podGets is what the pod's metadata request gets: the mock's instance ID, the proxy's
		// answer, or nothing ("").
		podGets string
		// podReachesOtherPort says whether the pod reaches another port of the metadata address.
		podReachesOtherPort bool
		// podReachesIPv6 says whether the pod (dual-stack) reaches metadata over IPv6: only in
		// Allow, since an IPv4 cluster holds Block over IPv6 even in Forward (kube2iam listens on
		// IPv4 only; docs/metadata-access-node.md).
		podReachesIPv6 bool
	}{
		{"Block", "", false, false},
		{"Allow", "metadata", true, true},
		{"Forward", "proxy", false, false},
		{"Block", "", false, false}, // from Forward back to Block: the DNAT is gone too.
	} {
		t.Run(tc.mode, func(t *testing.T) {
			flow.editCluster(t, func(doc map[string]any) { setMetadataMode(doc, tc.mode) })
			flow.must(t, "kops", "update", "cluster", "--yes")
			flow.runMetadataScript(t, tc.mode)

			// An answer that should come is asked for a few times: a connection the stand-in's
			// socat accepts while it forks its answer may close empty once on a loaded machine.
			answered := func(want httpAnswer) httpAnswer {
				var a httpAnswer
				_ = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
					a = get(t, "metadata-pod", metadataURL)
					return a == want, nil
				})
				return a
			}
			switch tc.podGets {
			case "":
				a := get(t, "metadata-pod", metadataURL)
				assert.NotEmpty(t, a.Error, "the pod's metadata request gets no answer: %+v", a)
			case "metadata":
				want := httpAnswer{Status: 200, Body: instanceID}
				assert.Equal(t, want, answered(want), "the pod reaches instance metadata")
			case "proxy":
				want := httpAnswer{Status: 200, Body: standInBody}
				assert.Equal(t, want, answered(want), "the pod's metadata request goes to the proxy on the node")
			}
			assert.Equal(t, tc.podReachesOtherPort, dial(t, "metadata-pod", fmt.Sprintf("%s:%d", imdsIPv4, imdsOtherPort)),
				"the pod reaches metadata's port %d", imdsOtherPort)
			if tc.podReachesIPv6 {
				assert.Equal(t, httpAnswer{Status: 200, Body: instanceID}, get(t, "metadata-pod", metadataURL6), "the pod reaches instance metadata over IPv6")
			} else {
				a := get(t, "metadata-pod", metadataURL6)
				assert.NotEmpty(t, a.Error, "the pod's metadata request over IPv6 gets no answer: %+v", a)
			}

			assert.Equal(t, httpAnswer{Status: 200, Body: instanceID}, get(t, "metadata-node", metadataURL), "the node reaches instance metadata over IPv4")
			assert.Equal(t, httpAnswer{Status: 200, Body: instanceID}, get(t, "metadata-node", metadataURL6), "the node reaches instance metadata over IPv6")
			assert.True(t, dial(t, "metadata-node", fmt.Sprintf("%s:%d", imdsIPv4, imdsOtherPort)), "the node reaches every port of metadata")
		})
	}
}
