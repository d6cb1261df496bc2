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
	"archive/tar"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// containerProcess finds the PID of a running container's first process on this machine (the node
// shares the host's PID namespace): the process whose cgroup path names the container's ID.
func containerProcess(t testing.TB, status corev1.ContainerStatus) int {
	t.Helper()
	_, id, ok := strings.Cut(status.ContainerID, "://")
	require.True(t, ok && id != "", "container %s has no ID: %q", status.Name, status.ContainerID)
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	best := 0
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		cgroup, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cgroup"))
		if err != nil || !strings.Contains(string(cgroup), id) {
			continue
		}
		// The lowest PID in the container's cgroup is its first process.
		if best == 0 || pid < best {
			best = pid
		}
	}
	require.NotZero(t, best, "no process in the cgroup of container %s (%s)", status.Name, id)
	return best
}

// processUIDs reads a process's real, effective, saved and filesystem uids.
func processUIDs(t testing.TB, pid int) []string {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "Uid:"); ok {
			return strings.Fields(rest)
		}
	}
	t.Fatalf("no Uid line in /proc/%d/status", pid)
	return nil
}

// rootMountOptions are the options of the mount a process sees as its root ("/").
func rootMountOptions(t testing.TB, pid int) []string {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/mountinfo", pid))
	require.NoError(t, err)
	var opts []string
	for _, line := range strings.Split(string(data), "\n") {
		// ID parent major:minor root mountpoint options ...; the last "/" mount is the one seen.
		if f := strings.Fields(line); len(f) > 5 && f[4] == "/" {
			opts = strings.Split(f[5], ",")
		}
	}
	require.NotEmpty(t, opts, "no root mount in /proc/%d/mountinfo", pid)
	return opts
}

// tarballImages are the image tarballs under _output/images (`make images`) when the package's
// cluster started, by tag: their file and config digest, the image ID containerd gives an image
// once imported. Read at once after the import, since _output may be shared with other checkouts
// that rebuild the tarballs later.
var tarballImages map[string]tarballImage

type tarballImage struct{ file, config string }

// readTarballImages reads every docker-archive tarball's manifest.json under _output/images.
func readTarballImages() (map[string]tarballImage, error) {
	root, err := nodecluster.RepoRoot(".")
	if err != nil {
		return nil, err
	}
	tarballs, err := filepath.Glob(filepath.Join(root, "_output", "images", "*.tar"))
	if err != nil {
		return nil, err
	}
	images := map[string]tarballImage{}
	for _, path := range tarballs {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		tr := tar.NewReader(f)
		for {
			h, err := tr.Next()
			if err != nil {
				break
			}
			if h.Name != "manifest.json" {
				continue
			}
			var manifest []struct {
				Config   string
				RepoTags []string
			}
			data, err := io.ReadAll(tr)
			if err == nil {
				err = json.Unmarshal(data, &manifest)
			}
			if err != nil {
				_ = f.Close()
				return nil, fmt.Errorf("%s: manifest.json: %w", path, err)
			}
			for _, m := range manifest {
				for _, tag := range m.RepoTags {
					images[tag] = tarballImage{file: path, config: m.Config}
				}
			}
			break
		}
		_ = f.Close()
	}
	return images, nil
}

// assertOperatorContainer proves that the operator runs from the make images tarball, as uid 65532
// with a read-only root, from what the kernel says of its process, not from its pod spec.
func assertOperatorContainer(t *testing.T) {
	ctx := context.Background()
	pods, err := cluster.Clientset.CoreV1().Pods("coredns-operator-system").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	var running []corev1.Pod
	for _, p := range pods.Items {
		if p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil {
			running = append(running, p)
		}
	}
	require.Len(t, running, 1, "one operator pod runs: %s", podStates(t, "coredns-operator-system"))
	pod := running[0]
	require.Len(t, pod.Status.ContainerStatuses, 1)
	status := pod.Status.ContainerStatuses[0]
	require.True(t, status.Ready, "the operator's container is ready")

	image := pod.Spec.Containers[0].Image
	tarball, ok := tarballImages[strings.TrimPrefix(image, "docker.io/")]
	require.True(t, ok, "no tarball under _output/images is tagged %s: was it built by make images?", image)
	assert.Contains(t, status.ImageID, tarball.config, "the image is the one in %s (nothing is pulled on this node)", tarball.file)

	pid := containerProcess(t, status)
	assert.Equal(t, []string{"65532", "65532", "65532", "65532"}, processUIDs(t, pid), "the operator's process runs as uid 65532")
	assert.Contains(t, rootMountOptions(t, pid), "ro", "the operator's root filesystem is read-only")
}

// setStubDomain adds (or, with server "", removes) a stub domain of spec.kubeDNS.
func (f *kopsFlow) setStubDomain(t testing.TB, domain, server string) {
	t.Helper()
	f.editCluster(t, func(doc map[string]any) {
		dns, _ := doc["spec"].(map[string]any)["kubeDNS"].(map[string]any)
		stubs, _ := dns["stubDomains"].(map[string]any)
		if stubs == nil {
			stubs = map[string]any{}
		}
		if server == "" {
			delete(stubs, domain)
		} else {
			stubs[domain] = []any{server}
		}
		setKubeDNS(doc, "stubDomains", stubs)
	})
}

// corefileChangeServed adds extraDomain to spec.kubeDNS.stubDomains, runs update --yes and
// channels apply, and waits until the pod's lookup of extraName through kube-dns gets the node's
// stub server's answer (before, the upstream nameserver says it does not exist). It returns the
// time from the edit to the first answer.
func (f *kopsFlow) corefileChangeServed(t testing.TB, pod string) time.Duration {
	t.Helper()
	start := time.Now()
	f.setStubDomain(t, extraDomain, cluster.NodeIP+":"+itoa(stubDomainPort))
	f.updateAndApply(t)
	waitAnswer(t, pod, extraName, extraAddress)
	return time.Since(start)
}

// TestOperatorRunsAndServesCorefileChange turns the operator on (ServerSide, the default with the
// flags) and proves that its container runs from the `make images` tarball as uid 65532 with a
// read-only root and reports the CoreDNS object healthy; then that a Corefile change in the cluster
// spec (a new stub domain) is served by CoreDNS after update --yes and channels apply. It leaves
// CoreDNS built in, as the package's other tests expect it.
func TestOperatorRunsAndServesCorefileChange(t *testing.T) {
	startStubDNS(t)
	flow := newKopsFlow(t, "")
	flow.withStubResolvers(t)
	flow.switchTo(t, serverSide)
	t.Cleanup(func() { flow.switchTo(t, builtIn) })

	t.Run("the operator runs from the image tarball as uid 65532 with a read-only root", assertOperatorContainer)

	_, err := cluster.RunPod(context.Background(), nodecluster.TestClientPod("default", "corefile-probe"))
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, cluster.DeletePod(context.Background(), "default", "corefile-probe")) })
	waitAnswer(t, "corefile-probe", upstreamName, upstreamAddress)
	t.Run("a new stub domain is served after update and apply", func(t *testing.T) {
		r, err := cluster.Exec(context.Background(), "default", "corefile-probe", "client", "/testclient", "resolve", extraName)
		require.NoError(t, err)
		require.Equal(t, 1, r.ExitCode, "before the change the upstream nameserver does not know %s: %s", extraName, r.Stdout)
		took := flow.corefileChangeServed(t, "corefile-probe")
		t.Logf("Corefile change served %.1fs after the edit", took.Seconds())
		waitCoreDNSHealthy(t)
	})
}

// removeExtraDomain takes extraDomain out of the cluster spec again and waits until CoreDNS no
// longer answers for it, so that the next corefileChangeServed measures a change.
func (f *kopsFlow) removeExtraDomain(t testing.TB, pod string) {
	t.Helper()
	f.setStubDomain(t, extraDomain, "")
	f.updateAndApply(t)
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		r, err := cluster.Exec(ctx, "default", pod, "client", "/testclient", "resolve", extraName, "--timeout", "1s")
		return err == nil && r.ExitCode == 1, nil
	})
	require.NoError(t, err, "%s is still answered after the stub domain was removed", extraName)
}

// waitAnswer waits until a lookup of name from the pod, through kube-dns, gets address: a new
// Corefile is served once CoreDNS has rolled out for its checksum, seconds after the apply.
func waitAnswer(t testing.TB, pod, name, address string) {
	t.Helper()
	var last string
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		r, err := cluster.Exec(ctx, "default", pod, "client", "/testclient", "resolve", name, "--timeout", "1s")
		if err != nil {
			last = err.Error()
			return false, nil
		}
		last = r.Stdout
		return r.ExitCode == 0 && strings.Contains(r.Stdout, address), nil
	})
	require.NoError(t, err, "%s is not answered %s (last: %s)", name, address, last)
}
