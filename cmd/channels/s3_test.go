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

package main

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// TestChannelFromS3: the channel kops update cluster --yes writes to an s3:// store is read by
// channels apply with the same S3 settings (S3_ENDPOINT, S3_REGION, S3_* keys): the whole channel
// is read and checked from the bucket, and the run goes on to the cluster (here a kubeconfig that
// does not exist, so it stops there, past every S3 read).
func TestChannelFromS3(t *testing.T) {
	srv := s3test.Shared(t)
	base, err := vfs.NewContext(nil).WithS3(s3store.New(srv.Settings())).ParsePath("s3://" + srv.NewBucket(t) + "/state/c.k8s.local/addons")
	require.NoError(t, err)
	manifest := []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: kube-system\n")
	require.NoError(t, base.Join("a.addons.k8s.io", "v1.yaml").WriteFile(manifest))
	channel := api.NewAddons("bootstrap")
	channel.Spec.Addons = append(channel.Spec.Addons, api.AddonSpec{
		Name: "a.addons.k8s.io", ID: "v1", Manifest: "a.addons.k8s.io/v1.yaml", ManifestHash: api.ManifestHash(manifest),
		Selector: map[string]string{"k8s-addon": "a.addons.k8s.io"},
	})
	data, err := channel.Encode()
	require.NoError(t, err)
	require.NoError(t, base.Join("bootstrap-channel.yaml").WriteFile(data))

	env := srv.Env()
	missing := filepath.Join(t.TempDir(), "no-kubeconfig")
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"apply", "channel", base.Join("bootstrap-channel.yaml").String(), "--kubeconfig", missing}, env, &out, &errOut)
	assert.Equal(t, 1, code)
	assert.NotContains(t, errOut.String(), "needs S3 settings", "channels reads S3 settings as kops does")
	assert.Contains(t, errOut.String(), missing, "the channel was read from the bucket; the run stopped at the kubeconfig")
}

// TestChannelFromS3WithinTimeout: reading the channel from an S3 endpoint that holds its answers
// back ends at --timeout, naming that limit, not at the store's own 30s per read. The endpoint
// gives in after 20s, so the code before the bound ends too; --timeout is generous.
func TestChannelFromS3WithinTimeout(t *testing.T) {
	srv := s3test.Shared(t)
	bucket := srv.NewBucket(t)
	dripping := srv.Proxy(t, func(w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodGet {
			select {
			case <-r.Context().Done():
				return true
			case <-time.After(20 * time.Second):
			}
		}
		return false
	})
	env := srv.Env()
	env["S3_ENDPOINT"] = dripping.Endpoint
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"apply", "channel", "s3://" + bucket + "/state/c/addons/bootstrap-channel.yaml", "--timeout", "2s",
		"--kubeconfig", filepath.Join(t.TempDir(), "no-kubeconfig")}, env, &out, &errOut)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut.String(), "at S3_ENDPOINT "+dripping.Endpoint+" gave no answer before the command's time limit")
}
