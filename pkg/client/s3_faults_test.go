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

package client_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/client"
	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// TestS3CreateFailedMidwayIsRedone: on the real S3 server behind a fault-injecting endpoint, a
// create whose second object write is refused (403) and whose undoing is refused too (every
// delete 403) leaves an instance group behind. The next create removes that leftover and
// succeeds; or, first, a delete removes it and says the cluster was not there.
func TestS3CreateFailedMidwayIsRedone(t *testing.T) {
	const name = "midway.example.com"
	for _, next := range []string{"create", "delete, then create"} {
		t.Run(next, func(t *testing.T) {
			srv := s3test.Shared(t)
			bucket := srv.NewBucket(t)
			var puts atomic.Int32
			faulty := srv.Proxy(t, func(w http.ResponseWriter, r *http.Request) bool {
				lockObject := strings.HasSuffix(r.URL.Path, vfs.LockSuffix)
				switch {
				case r.Method == http.MethodPut && !lockObject && puts.Add(1) == 2,
					r.Method == http.MethodDelete && !lockObject:
					s3test.WriteError(w, http.StatusForbidden, "AccessDenied")
					return true
				}
				return false
			})
			open := func(settings s3store.Settings) *client.Clientset {
				base, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://" + bucket + "/kops")
				require.NoError(t, err)
				return client.New(base)
			}
			err := open(faulty).CreateCluster(testNewCluster(name, true))
			require.ErrorIs(t, err, s3store.ErrAccessDenied)
			plain := open(srv.Settings())
			left, err := plain.Base().Join(name, "instancegroup").ReadDir()
			require.NoError(t, err)
			require.NotEmpty(t, left, "the fault left the first instance group behind")

			if next == "delete, then create" {
				err := plain.DeleteCluster(name, client.DeleteOptions{})
				assert.ErrorIs(t, err, client.ErrClusterNotFound)
				assert.ErrorContains(t, err, "removed the files a create of it that did not finish had left")
				exists, err := plain.Base().Join(name).Exists()
				require.NoError(t, err)
				assert.False(t, exists, "nothing left of the cluster's folder")
			}
			retry := testNewCluster(name, true)
			require.NoError(t, plain.CreateCluster(retry))
			got, _, err := plain.GetCluster(name)
			require.NoError(t, err)
			assert.Equal(t, retry.Cluster, got)
			names, err := plain.ListClusters()
			require.NoError(t, err)
			assert.Equal(t, []string{name}, names)
		})
	}
}
