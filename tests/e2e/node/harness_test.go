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
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/wait"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// TestHarnessNodeListener proves the harness's node side, on which the metadata tests build: a
// process started with StartOnNode (the AWS metadata mock, on the node's address) is in the
// node's network namespace, so NodeCommand sees its socket there, and a real pod reaches it
// through the pods' bridge.
func TestHarnessNodeListener(t *testing.T) {
	ctx := context.Background()
	addr := net.JoinHostPort(cluster.NodeIP, "1338")
	mock, err := cluster.StartOnNode("ec2-metadata-mock", filepath.Join(cluster.NodeBinDir, "ec2-metadata-mock"),
		"--hostname", cluster.NodeIP, "--port", "1338")
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = mock.Process.Kill()
		_ = mock.Wait()
	})
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		out, err := cluster.NodeCommand(ctx, "ss", "-Htln", "sport", "= :1338").CombinedOutput()
		return err == nil && strings.Contains(string(out), addr), nil
	})
	require.NoError(t, err, "the mock never listened on %s in the node's namespace; its log: %s", addr, cluster.LogFile("ec2-metadata-mock"))

	_, err = cluster.RunPod(ctx, nodecluster.TestClientPod("default", "harness-client"))
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, cluster.DeletePod(context.Background(), "default", "harness-client")) })
	r, err := cluster.Exec(ctx, "default", "harness-client", "client", "/testclient", "http", "--url", "http://"+addr+"/latest/meta-data/instance-id")
	require.NoError(t, err)
	require.Equal(t, 0, r.ExitCode, "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
	var got struct {
		Status int    `json:"status"`
		Body   string `json:"body"`
	}
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(r.Stdout)), &got), r.Stdout)
	assert.Equal(t, 200, got.Status)
	assert.True(t, strings.HasPrefix(got.Body, "i-"), "an instance ID from the mock, got %q", got.Body)
}
