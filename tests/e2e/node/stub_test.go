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
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/wait"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// The names the node's stub server answers, and their addresses (TEST-NET-1, never routed).
const (
	stubDomain      = "stub.test"
	stubName        = "answer.stub.test."
	stubAddress     = "192.0.2.53"
	upstreamName    = "answer.upstream.test."
	upstreamAddress = "192.0.2.54"
	stubDomainPort  = 5353
	upstreamDNSPort = 53
	// extraDomain is served by the stub server too, but only a Corefile that forwards it there
	// (corefileChangeServed) gets its answer.
	extraDomain  = "extra.test"
	extraName    = "answer.extra.test."
	extraAddress = "192.0.2.55"
)

// startStubDNS runs a small DNS server on the node, as a site's own resolver would be: CoreDNS's
// binary (not the cluster's image), outside every pod, on the node's address. It answers
// stubName on stubDomainPort, for spec.kubeDNS.stubDomains, and upstreamName on port 53, for
// spec.kubeDNS.upstreamNameservers (which takes addresses only); any other name is not found.
// It is stopped, by its PID, when the test ends.
func startStubDNS(t testing.TB) {
	t.Helper()
	root, err := nodecluster.RepoRoot(".")
	require.NoError(t, err)
	nodeBin, _ := nodecluster.BinDirs(root)
	dir := t.TempDir()
	corefile := filepath.Join(dir, "Corefile")
	require.NoError(t, os.WriteFile(corefile, []byte(fmt.Sprintf(`%[1]s:%[2]d {
    bind %[3]s
    hosts {
        %[4]s %[5]s
    }
}
%[9]s:%[2]d {
    bind %[3]s
    hosts {
        %[10]s %[11]s
    }
}
.:%[6]d {
    bind %[3]s
    hosts {
        %[7]s %[8]s
    }
}
`, stubDomain, stubDomainPort, cluster.NodeIP, stubAddress, stubName, upstreamDNSPort, upstreamAddress, upstreamName, extraDomain, extraAddress, extraName)), 0o644))
	log, err := os.Create(filepath.Join(dir, "stub.log"))
	require.NoError(t, err)
	cmd := cluster.NodeCommand(context.Background(), filepath.Join(nodeBin, "coredns"), "-conf", corefile)
	cmd.Stdout, cmd.Stderr = log, log
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = log.Close()
	})
	// Ready when it answers: the host reaches the node's address through the veth.
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, net.JoinHostPort(cluster.NodeIP, strconv.Itoa(stubDomainPort)))
	}}
	err = wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		ctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		addrs, err := r.LookupHost(ctx, stubName)
		return err == nil && len(addrs) == 1 && addrs[0] == stubAddress, nil
	})
	if err != nil {
		data, _ := os.ReadFile(log.Name())
		require.NoError(t, err, "the stub DNS server does not answer %s on %s:%d:\n%s", stubName, cluster.NodeIP, stubDomainPort, data)
	}
}
