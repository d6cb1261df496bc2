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
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// The node has one CoreDNS build (nodecluster.CoreDNSImage). A new CoreDNS release is stood for by
// the same build imported again under a new release's name, in a repository of its own: channels
// refuses to move an image to a lower version of the same repository, and the tests move back.
const (
	newCoreDNSImage   = "kops.local/rollout/coredns:v1.14.3"
	newCoreDNSVersion = "1.14.3"
)

// dnsRelease is which CoreDNS the cluster runs and how: the mode, and the old (the stable
// channel's, kops's default) or the new release. A user picks the new release in built-in mode
// with spec.kubeDNS.coreDNSImage, and through the operator with a channel whose coredns package
// names it (spec.channel): exactly what each mode reads.
type dnsRelease struct {
	mode dnsMode
	new  bool
}

func (r dnsRelease) String() string {
	if r.new {
		return r.mode.name + " (CoreDNS " + newCoreDNSVersion + ")"
	}
	return r.mode.name
}

// image is the CoreDNS image the release runs.
func (r dnsRelease) image() string {
	if r.new {
		return newCoreDNSImage
	}
	return nodecluster.CoreDNSImage
}

// rollouts are the changes that replace CoreDNS's pods: a new release in either mode, and the
// switches between the modes when the image changes with them.
var rollouts = []struct {
	name     string
	from, to dnsRelease
}{
	{"image change built-in", dnsRelease{builtIn, false}, dnsRelease{builtIn, true}},
	{"version and image change ServerSide", dnsRelease{serverSide, false}, dnsRelease{serverSide, true}},
	{"built-in to ServerSide with an image change", dnsRelease{builtIn, false}, dnsRelease{serverSide, true}},
	{"ServerSide to built-in with an image change", dnsRelease{serverSide, true}, dnsRelease{builtIn, false}},
	// Client-side mode is applied as the built-in addon: the same hand-back from the operator.
	{"ServerSide to ClientSide with an image change", dnsRelease{serverSide, true}, dnsRelease{clientSide, false}},
}

// rolloutQPS is the resolving client's rate: a lookup every 40ms, so that even a window of a few
// tens of milliseconds in which a lookup would go nowhere is hit.
const rolloutQPS = 25

// TestRolloutsLoseNoLookup proves that a change that replaces CoreDNS's pods (a new CoreDNS
// release, or a mode switch that changes the image) loses no lookup of a pod resolving through
// kube-dns all the while: the old pods are replaced one by one (maxUnavailable 0), each new pod
// takes traffic only once it is ready, and each old one leaves the Service before it stops
// answering (lameduck). It checks that the pods were in fact replaced, not left as they were.
func TestRolloutsLoseNoLookup(t *testing.T) {
	flow := newRolloutFlow(t)
	for _, tc := range rollouts {
		t.Run(tc.name, func(t *testing.T) {
			flow.runTo(t, tc.from)
			m := flow.measureRollout(t, "dns-rollout", tc.to)
			t.Logf("%s → %s: pods replaced in %.1fs (%s → %s); %d lookups in %.1fs, %d failed, p50 %.1fms p99 %.1fms max %.1fms",
				tc.from, tc.to, m.took.Seconds(), m.before, m.after, m.report.Lookups, m.report.Elapsed, m.report.Failed, m.report.P50, m.report.P99, m.report.Max)
			assert.Zero(t, m.report.Failed, "failed lookups (the last: %s)", m.report.LastError)
			assert.GreaterOrEqual(t, float64(m.report.Lookups), 0.9*rolloutQPS*m.report.Elapsed, "the client kept its rate of %d lookups a second", rolloutQPS)
			for uid := range m.after {
				assert.NotContains(t, m.before, uid, "a CoreDNS pod outlived the rollout: it was not replaced")
			}
		})
	}
}

// rolloutFlow is a kopsFlow that can also run the new CoreDNS release.
type rolloutFlow struct {
	*kopsFlow
	// stableChannel is the cluster's channel as created; newChannel a copy whose coredns package
	// is the new release.
	stableChannel, newChannel string
}

// newRolloutFlow imports the new release's image into the node, writes its channel and creates
// the cluster, built-in, with the node's stub server as stub domain and upstream nameserver (so
// lookups forwarded out of the cluster are measured too); the cluster goes back to built-in with
// the stable channel when the test ends.
func newRolloutFlow(t testing.TB) *rolloutFlow {
	t.Helper()
	importNewCoreDNS(t)
	startStubDNS(t)
	f := &rolloutFlow{kopsFlow: newKopsFlow(t, "")}
	f.withStubResolvers(t)
	f.stableChannel = "file://channels/stable"
	f.newChannel = "file://" + writeNewReleaseChannel(t, f.root)
	f.runTo(t, dnsRelease{builtIn, false})
	t.Cleanup(func() { f.runTo(t, dnsRelease{builtIn, false}) })
	return f
}

// runTo puts the cluster on release r (moveTo) and waits until every CoreDNS pod runs r's image
// and no other pod is left.
func (f *rolloutFlow) runTo(t testing.TB, r dnsRelease) {
	t.Helper()
	f.moveTo(t, r)
	waitCoreDNSPodsRun(t, r.image(), nil, nil)
}

// moveTo puts the cluster on release r as a user does (kops edit cluster, update --yes, channels
// apply) and returns once the Deployment is available (switchTo): old pods may still be stopping.
func (f *rolloutFlow) moveTo(t testing.TB, r dnsRelease) {
	t.Helper()
	f.editCluster(t, func(doc map[string]any) {
		spec := doc["spec"].(map[string]any)
		spec["channel"] = f.stableChannel
		if r.new {
			spec["channel"] = f.newChannel
		}
		// Only built-in mode reads coreDNSImage; the operator's modes run the channel's image.
		if r.new && r.mode == builtIn {
			setKubeDNS(doc, "coreDNSImage", newCoreDNSImage)
		} else {
			setKubeDNS(doc, "coreDNSImage", nil)
		}
	})
	f.switchTo(t, r.mode)
}

// rolloutMeasure is what one rollout did: the CoreDNS pods before and after (by UID, with their
// names), how long from the edit until the last old pod was gone, and the resolving client's
// report over the whole of it.
type rolloutMeasure struct {
	before, after podSet
	took          time.Duration
	report        dnsReport
}

// measureRollout starts a pod resolving a cluster name, a stub-domain's and an upstream one
// through kube-dns at rolloutQPS, moves the cluster to release to and waits until every old
// CoreDNS pod is gone and every new one runs to's image, lets the client run a few seconds more
// and reads its report. The client pod is deleted when it returns.
func (f *rolloutFlow) measureRollout(t testing.TB, client string, to dnsRelease) rolloutMeasure {
	t.Helper()
	before := coreDNSPodSet(t)
	require.NotEmpty(t, before, "no CoreDNS pod runs before the rollout")
	resolverPod(t, client, rolloutQPS, "kubernetes.default.svc.cluster.local.", stubName, upstreamName)
	defer func() { assert.NoError(t, cluster.DeletePod(context.Background(), "default", client)) }()
	start := time.Now()
	f.moveTo(t, to)
	var lastOld time.Duration
	waitCoreDNSPodsRun(t, to.image(), before, func() { lastOld = time.Since(start) })
	took := time.Since(start)
	// Lookups sent to an old pod in its last moments are answered, or time out, within this.
	time.Sleep(3 * time.Second)
	m := rolloutMeasure{before: before, after: coreDNSPodSet(t), took: took, report: readReport(t, client)}
	if m.report.Failed > 0 {
		// When they failed tells why: at the old pod's end (routing), or all along (a slow node).
		sinceEdit := m.report.Elapsed - time.Since(start).Seconds()
		t.Logf("failed lookups, when each ended (a 2s timeout after it was sent), in seconds since the edit; an old pod was last seen at %.1fs: %s", lastOld.Seconds(), failureTimes(t, client, sinceEdit))
	}
	return m
}

// failureTimes lists the failures the client pod logged (testclient dns prints each at once),
// shifted by offset seconds, with their errors.
func failureTimes(t testing.TB, client string, offset float64) string {
	logs, err := cluster.Clientset.CoreV1().Pods("default").GetLogs(client, &corev1.PodLogOptions{}).Do(context.Background()).Raw()
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, line := range strings.Split(string(logs), "\n") {
		var f struct {
			Kind  string  `json:"kind"`
			At    float64 `json:"at_s"`
			Error string  `json:"error"`
		}
		if json.Unmarshal([]byte(line), &f) == nil && f.Kind == "dns-failure" {
			out = append(out, fmt.Sprintf("%.2f (%s)", f.At+offset, f.Error))
		}
	}
	return strings.Join(out, ", ")
}

// podSet names pods by UID.
type podSet map[types.UID]string

func (s podSet) String() string {
	names := make([]string, 0, len(s))
	for _, n := range s {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func coreDNSPodSet(t testing.TB) podSet {
	t.Helper()
	pods, err := cluster.Clientset.CoreV1().Pods("kube-system").List(context.Background(), metav1.ListOptions{LabelSelector: "k8s-app=kube-dns"})
	require.NoError(t, err)
	s := podSet{}
	for _, p := range pods.Items {
		s[p.UID] = p.Name
	}
	return s
}

// waitCoreDNSPodsRun waits until every CoreDNS pod runs image and is ready, none is terminating
// and none is one of old: the rollout is over, the old pods' lameduck included. oldSeen, when
// not nil, is called each time an old pod is still seen.
func waitCoreDNSPodsRun(t testing.TB, image string, old podSet, oldSeen func()) {
	t.Helper()
	var last string
	err := wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		pods, err := cluster.Clientset.CoreV1().Pods("kube-system").List(ctx, metav1.ListOptions{LabelSelector: "k8s-app=kube-dns"})
		if err != nil {
			return false, nil
		}
		var states []string
		done := len(pods.Items) > 0
		for _, p := range pods.Items {
			_, isOld := old[p.UID]
			if isOld && oldSeen != nil {
				oldSeen()
			}
			ok := !isOld && p.DeletionTimestamp == nil && podReady(p) && len(p.Spec.Containers) == 1 && p.Spec.Containers[0].Image == image
			done = done && ok
			states = append(states, fmt.Sprintf("%s (%s, ready %t, terminating %t, old %t)", p.Name, p.Spec.Containers[0].Image, podReady(p), p.DeletionTimestamp != nil, isOld))
		}
		last = strings.Join(states, "; ")
		return done, nil
	})
	require.NoError(t, err, "CoreDNS's pods do not all run %s: %s", image, last)
}

func podReady(p corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// importNewCoreDNS imports the node's CoreDNS image tarball again under newCoreDNSImage: the same
// layers and config, so the same image ID, under a second name.
func importNewCoreDNS(t testing.TB) {
	t.Helper()
	root, err := nodecluster.RepoRoot(".")
	require.NoError(t, err)
	retagged := filepath.Join(t.TempDir(), "coredns-new.tar")
	require.NoError(t, retagDockerArchive(filepath.Join(root, "_output", "images", "node", "coredns.tar"), retagged, newCoreDNSImage))
	require.NoError(t, cluster.ImportImage(context.Background(), retagged))
}

// retagDockerArchive copies the docker-archive tarball src to dst with every image of its
// manifest.json named tag instead.
func retagDockerArchive(src, dst, tag string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	tr, tw := tar.NewReader(in), tar.NewWriter(out)
	renamed := false
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", src, h.Name, err)
		}
		if h.Name == "manifest.json" {
			var manifest []map[string]any
			if err := json.Unmarshal(data, &manifest); err != nil {
				return fmt.Errorf("%s: manifest.json: %w", src, err)
			}
			for _, m := range manifest {
				m["RepoTags"] = []string{tag}
			}
			if data, err = json.Marshal(manifest); err != nil {
				return err
			}
			h.Size = int64(len(data))
			renamed = true
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if !renamed {
		return fmt.Errorf("%s has no manifest.json: not a docker-archive tarball", src)
	}
	return tw.Close()
}

// writeNewReleaseChannel copies the repository's stable channel, and the operator packages next
// to it, into a folder of the test's with the coredns package moved to the new release, as a site
// publishing its own channel does; it returns the channel file's path.
func writeNewReleaseChannel(t testing.TB, repoRoot string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(repoRoot, "channels", "stable"))
	require.NoError(t, err)
	doc := map[string]any{}
	require.NoError(t, yaml.Unmarshal(data, &doc))
	spec, _ := doc["spec"].(map[string]any)
	packages, _ := spec["packages"].([]any)
	found := false
	for _, p := range packages {
		if p, _ := p.(map[string]any); p["name"] == "coredns" {
			p["version"], p["image"], found = newCoreDNSVersion, newCoreDNSImage, true
		}
	}
	require.True(t, found, "channels/stable has no coredns package")
	data, err = yaml.Marshal(doc)
	require.NoError(t, err)
	channel := filepath.Join(dir, "stable")
	require.NoError(t, os.WriteFile(channel, data, 0o644))
	require.NoError(t, os.CopyFS(filepath.Join(dir, "packages"), os.DirFS(filepath.Join(repoRoot, "channels", "packages"))))
	return channel
}

// BenchmarkRolloutWithLookups reports what a CoreDNS rollout costs the pods resolving through it:
// the time from the edit (kops edit cluster, update --yes, channels apply) until every old pod is
// gone, and the lookups of a client at rolloutQPS over the whole of it: failed ones (any is a
// bug: TestRolloutsLoseNoLookup), p99 and max latency in ms. Each iteration rolls built-in CoreDNS
// to the new release and back, two rollouts.
//
//	go test ./node/ -run '^$' -bench BenchmarkRolloutWithLookups -benchtime 1x
func BenchmarkRolloutWithLookups(b *testing.B) {
	flow := newRolloutFlow(b)
	var took time.Duration
	var failed, rollouts int
	var p99, maxLatency float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, to := range []dnsRelease{{builtIn, true}, {builtIn, false}} {
			m := flow.measureRollout(b, "dns-rollout-bench", to)
			took += m.took
			failed += m.report.Failed
			p99 += m.report.P99
			maxLatency = max(maxLatency, m.report.Max)
			rollouts++
		}
	}
	b.ReportMetric(took.Seconds()/float64(rollouts), "s/rollout")
	b.ReportMetric(float64(failed)/float64(rollouts), "failed/rollout")
	b.ReportMetric(p99/float64(rollouts), "p99-ms")
	b.ReportMetric(maxLatency, "max-ms")
	b.ReportMetric(0, "ns/op")
}
