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
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/util/pkg/vfs"
)

func TestCreateClusterLayoutAndReadBack(t *testing.T) {
	const name = "layout.example.com"
	cases := []struct {
		name      string
		cluster   client.NewCluster
		wantFiles []string
	}{
		{
			name:    "instance groups and addons",
			cluster: testNewCluster(name, true),
			wantFiles: []string{
				name + "/clusteraddons/default",
				name + "/config",
				name + "/instancegroup/control-plane-us-east-2a",
				name + "/instancegroup/nodes-a",
				name + "/instancegroup/nodes-b",
			},
		},
		{
			name:    "no addons writes no addons file",
			cluster: testNewCluster(name, false),
			wantFiles: []string{
				name + "/config",
				name + "/instancegroup/control-plane-us-east-2a",
				name + "/instancegroup/nodes-a",
				name + "/instancegroup/nodes-b",
			},
		},
		{
			name:      "cluster alone",
			cluster:   client.NewCluster{Cluster: testCluster(name)},
			wantFiles: []string{name + "/config"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
				cs := client.New(base)
				require.NoError(t, cs.CreateCluster(tc.cluster))

				files := snapshot(t, base)
				assert.ElementsMatch(t, tc.wantFiles, fileNames(files), "files in the store")
				wantConfig, err := kopscodecs.EncodeCluster(tc.cluster.Cluster)
				require.NoError(t, err)
				assert.Equal(t, string(wantConfig), files[name+"/config"], "config holds the encoded cluster")
				if mem != nil {
					writes, removes := mem.Stats()
					assert.Equal(t, len(tc.wantFiles), writes, "one write per file")
					assert.Zero(t, removes)
				}

				exists, err := cs.ClusterExists(name)
				require.NoError(t, err)
				assert.True(t, exists)

				got, warnings, err := cs.GetCluster(name)
				require.NoError(t, err)
				assert.Empty(t, warnings)
				assert.Equal(t, tc.cluster.Cluster, got)

				groups, warnings, err := cs.ListInstanceGroups(name)
				require.NoError(t, err)
				assert.Empty(t, warnings)
				var gotNames, wantNames []string
				for _, g := range groups {
					gotNames = append(gotNames, g.Name)
				}
				want := map[string]*kops.InstanceGroup{}
				for _, g := range tc.cluster.InstanceGroups {
					want[g.Name] = g
					wantNames = append(wantNames, g.Name)
				}
				assert.IsNonDecreasing(t, gotNames, "ListInstanceGroups is sorted by name")
				assert.ElementsMatch(t, wantNames, gotNames)
				for _, g := range groups {
					assert.Equal(t, want[g.Name], g, "listed group %s", g.Name)
				}

				for _, g := range tc.cluster.InstanceGroups {
					got, warnings, err := cs.GetInstanceGroup(name, g.Name)
					require.NoError(t, err, "GetInstanceGroup %s", g.Name)
					assert.Empty(t, warnings)
					assert.Equal(t, g, got)
				}
				_, _, err = cs.GetInstanceGroup(name, "no-such-group")
				assert.ErrorContains(t, err, `no instance group "no-such-group"`)

				addons, err := cs.GetAddons(name)
				require.NoError(t, err)
				if len(tc.cluster.Addons) == 0 {
					assert.Empty(t, addons)
				} else {
					assert.Equal(t, tc.cluster.Addons, addons, "addons equal and in the order given")
				}
			})
		})
	}
}

func TestListClusters(t *testing.T) {
	cases := []struct {
		name   string
		create []string
		strays []string // files written below the store that are not cluster configs
		want   []string
	}{
		{name: "store that does not exist yet"},
		{
			name:   "sorted regardless of creation order",
			create: []string{"c.example.com", "a.example.com", "b.k8s.local"},
			want:   []string{"a.example.com", "b.k8s.local", "c.example.com"},
		},
		{
			name:   "directories without a config are not clusters",
			create: []string{"real.example.com"},
			strays: []string{"orphan.example.com/instancegroup/nodes", "half.example.com/clusteraddons/default"},
			want:   []string{"real.example.com"},
		},
		{
			name:   "files at the root are not clusters",
			create: []string{"real.example.com"},
			strays: []string{"README", "config"},
			want:   []string{"real.example.com"},
		},
		{
			name:   "a folder named as no cluster is, with a config, is listed (and fails to read)",
			create: []string{"real.example.com"},
			strays: []string{"Not_A_Name/config", "Nor_This/instancegroup/nodes"},
			want:   []string{"Not_A_Name", "real.example.com"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, base vfs.Path, _ *vfs.MemFS) {
				cs := client.New(base)
				for _, name := range tc.create {
					require.NoError(t, cs.CreateCluster(testNewCluster(name, false)))
				}
				for _, stray := range tc.strays {
					require.NoError(t, base.Join(stray).WriteFile([]byte("not a cluster\n")))
				}
				got, err := cs.ListClusters()
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)

				// GetAllClusters lists the same clusters, each with its read.
				all, reads, err := cs.GetAllClusters()
				require.NoError(t, err)
				assert.Equal(t, tc.want, all)
				for i, r := range reads {
					if client.ValidateClusterName(all[i]) != nil {
						assert.ErrorIs(t, r.Err, client.ErrInvalidName)
						continue
					}
					require.NoError(t, r.Err)
					assert.Equal(t, all[i], r.Cluster.Name)
				}
			})
		})
	}
}

func TestCreateClusterRefusesExisting(t *testing.T) {
	const name = "taken.example.com"
	changed := testNewCluster(name, true)
	changed.Cluster.Spec.KubernetesVersion = "1.35.0"
	changed.InstanceGroups = append(changed.InstanceGroups, testInstanceGroup(name, "nodes-extra", kops.RoleNode, 9))

	cases := []struct {
		name   string
		second client.NewCluster
	}{
		{name: "identical", second: testNewCluster(name, false)},
		{name: "changed spec, extra group and addons", second: changed},
		{name: "cluster alone", second: client.NewCluster{Cluster: testCluster(name)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
				cs := client.New(base)
				require.NoError(t, cs.CreateCluster(testNewCluster(name, false)))
				before := snapshot(t, base)
				require.NotEmpty(t, before)
				var writes, removes int
				if mem != nil {
					writes, removes = mem.Stats()
				}

				err := cs.CreateCluster(tc.second)
				require.Error(t, err)
				assert.Contains(t, err.Error(), `"`+name+`"`, "names the cluster")
				assert.Contains(t, err.Error(), base.String(), "names the store")
				assert.Contains(t, err.Error(), "already exists")

				assert.Equal(t, before, snapshot(t, base), "stored bytes unchanged")
				if mem != nil {
					w, r := mem.Stats()
					assert.Equal(t, writes, w, "no writes")
					assert.Equal(t, removes, r, "no removals")
				}
			})
		})
	}
}

func TestCreateClusterFailedWriteLeavesNoCluster(t *testing.T) {
	const name = "broken.example.com"
	// CreateCluster writes the groups in the order given, then the addons, then the config.
	cases := []struct {
		name          string
		failOn        string
		writtenBefore int
	}{
		{name: "first instance group", failOn: "/instancegroup/nodes-b", writtenBefore: 0},
		{name: "last instance group", failOn: "/instancegroup/nodes-a", writtenBefore: 2},
		{name: "addons", failOn: "/clusteraddons/default", writtenBefore: 3},
		{name: "config", failOn: name + "/config", writtenBefore: 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
				require.NoError(t, client.New(base).CreateCluster(testNewCluster("other.example.com", true)))
				othersBefore := snapshot(t, base.Join("other.example.com"))
				var writes, removes int
				if mem != nil {
					writes, removes = mem.Stats()
				}

				cs := client.New(failingPath{Path: base, failOn: tc.failOn})
				err := cs.CreateCluster(testNewCluster(name, true))
				require.Error(t, err)
				assert.ErrorIs(t, err, errInjected)
				assert.Contains(t, err.Error(), name)

				exists, err := base.Join(name, "config").Exists()
				require.NoError(t, err)
				assert.False(t, exists, "no config left behind")
				assert.Empty(t, snapshot(t, base.Join(name)), "files written before the failure are removed")
				folder, err := base.Join(name).Exists()
				require.NoError(t, err)
				assert.False(t, folder, "and the folders the create made (a full disk left empty instancegroup/ folders once)")
				if mem != nil {
					w, r := mem.Stats()
					assert.Equal(t, tc.writtenBefore, w-writes, "writes before the failure")
					assert.GreaterOrEqual(t, r-removes, tc.writtenBefore, "each of them undone, and the folders they made")
				}

				plain := client.New(base)
				exists, err = plain.ClusterExists(name)
				require.NoError(t, err)
				assert.False(t, exists)
				names, err := plain.ListClusters()
				require.NoError(t, err)
				assert.Equal(t, []string{"other.example.com"}, names)
				_, _, err = plain.GetCluster(name)
				assert.ErrorIs(t, err, client.ErrClusterNotFound)
				assert.Equal(t, othersBefore, snapshot(t, base.Join("other.example.com")), "other cluster untouched")

				// Nothing left over stands in the way of trying again.
				retry := testNewCluster(name, true)
				require.NoError(t, plain.CreateCluster(retry))
				got, _, err := plain.GetCluster(name)
				require.NoError(t, err)
				assert.Equal(t, retry.Cluster, got)
			})
		})
	}
}

func TestMissingCluster(t *testing.T) {
	const missing = "missing.example.com"
	cases := []struct {
		name string
		op   func(cs *client.Clientset) error
	}{
		{name: "GetCluster", op: func(cs *client.Clientset) error {
			_, _, err := cs.GetCluster(missing)
			return err
		}},
		{name: "UpdateCluster", op: func(cs *client.Clientset) error {
			return cs.UpdateCluster(testCluster(missing))
		}},
		{name: "DeleteCluster", op: func(cs *client.Clientset) error {
			return cs.DeleteCluster(missing, client.DeleteOptions{})
		}},
		{name: "UpdateInstanceGroup", op: func(cs *client.Clientset) error {
			return cs.UpdateInstanceGroup(missing, testInstanceGroup(missing, "nodes", kops.RoleNode, 1))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
				cs := client.New(base)
				require.NoError(t, cs.CreateCluster(testNewCluster("present.example.com", true)))
				before := snapshot(t, base)
				var writes, removes int
				if mem != nil {
					writes, removes = mem.Stats()
				}

				err := tc.op(cs)
				require.Error(t, err)
				assert.True(t, errors.Is(err, client.ErrClusterNotFound), "errors.Is(%v, ErrClusterNotFound)", err)
				assert.Contains(t, err.Error(), `"`+missing+`"`)
				assert.Contains(t, err.Error(), base.String())

				assert.Equal(t, before, snapshot(t, base), "store unchanged")
				if mem != nil {
					w, r := mem.Stats()
					assert.Equal(t, writes, w)
					assert.Equal(t, removes, r)
				}
			})
		})
	}
}

func TestUpdateExistingCluster(t *testing.T) {
	const name = "update.example.com"
	forEachStore(t, func(t *testing.T, base vfs.Path, _ *vfs.MemFS) {
		cs := client.New(base)
		require.NoError(t, cs.CreateCluster(testNewCluster(name, false)))

		c, _, err := cs.GetCluster(name)
		require.NoError(t, err)
		c.Spec.KubernetesVersion = "1.35.0"
		require.NoError(t, cs.UpdateCluster(c))

		g, _, err := cs.GetInstanceGroup(name, "nodes-a")
		require.NoError(t, err)
		g.Spec.MaxSize = int32Ptr(10)
		require.NoError(t, cs.UpdateInstanceGroup(name, g))
		added := testInstanceGroup(name, "nodes-c", kops.RoleNode, 1)
		require.NoError(t, cs.UpdateInstanceGroup(name, added))

		got, _, err := cs.GetCluster(name)
		require.NoError(t, err)
		assert.Equal(t, c, got)
		gotG, _, err := cs.GetInstanceGroup(name, "nodes-a")
		require.NoError(t, err)
		assert.Equal(t, g, gotG)
		groups, _, err := cs.ListInstanceGroups(name)
		require.NoError(t, err)
		var names []string
		for _, g := range groups {
			names = append(names, g.Name)
		}
		assert.Equal(t, []string{"control-plane-us-east-2a", "nodes-a", "nodes-b", "nodes-c"}, names)
	})
}

func TestDeleteCluster(t *testing.T) {
	const name = "doomed.example.com"
	const keep = "kept.example.com"
	// What `kops update cluster --yes` writes under the cluster's configBase.
	updated := []string{"addons/bootstrap-channel.yaml", "addons/coredns.addons.k8s.io/k8s-1.12.yaml"}
	forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
		cs := client.New(base)
		require.NoError(t, cs.CreateCluster(testNewCluster(keep, true)))
		require.NoError(t, cs.CreateCluster(testNewCluster(name, true)))
		for _, f := range updated {
			require.NoError(t, base.Join(name, f).WriteFile([]byte("x")))
		}
		kept := snapshot(t, base.Join(keep))

		require.NoError(t, cs.DeleteCluster(name, client.DeleteOptions{}))

		exists, err := base.Join(name).Exists()
		require.NoError(t, err)
		assert.False(t, exists, "cluster directory removed")
		names, err := cs.ListClusters()
		require.NoError(t, err)
		assert.Equal(t, []string{keep}, names)
		assert.Equal(t, kept, snapshot(t, base.Join(keep)), "other cluster untouched")

		err = cs.DeleteCluster(name, client.DeleteOptions{})
		assert.ErrorIs(t, err, client.ErrClusterNotFound, "deleting again")
		assert.ErrorContains(t, err, name)
	})
}

// TestDeleteClusterRefusesUnknownFiles: kops keeps pki, secrets and more next to the config; a
// delete that does not know them must not remove them silently.
func TestDeleteClusterRefusesUnknownFiles(t *testing.T) {
	const name = "doomed.example.com"
	extras := []string{"pki/issued/ca/keyset.yaml", "secrets/admin", "cluster-completed.spec", "instancegroup/NOTES", "addons/a/b/deep.yaml", "clusteraddons/other"}
	forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
		cs := client.New(base)
		require.NoError(t, cs.CreateCluster(testNewCluster(name, true)))
		for _, extra := range extras {
			require.NoError(t, base.Join(name, extra).WriteFile([]byte("x")))
		}
		before := snapshot(t, base)

		err := cs.DeleteCluster(name, client.DeleteOptions{})
		require.ErrorIs(t, err, client.ErrUnknownFiles)
		for _, want := range []string{"unknown file found", "/pki", "/secrets", "/cluster-completed.spec", "/instancegroup/NOTES", "/addons/a/b", "/clusteraddons/other", "nothing was deleted"} {
			assert.ErrorContains(t, err, want)
		}
		assert.Equal(t, before, snapshot(t, base), "nothing deleted")

		require.NoError(t, cs.DeleteCluster(name, client.DeleteOptions{Unknown: true}))
		exists, err := base.Join(name).Exists()
		require.NoError(t, err)
		assert.False(t, exists, "everything deleted when asked")
	})
}

// TestDeleteClusterFailureKeepsTheCluster: the config goes last, so a delete that fails midway
// leaves a cluster that still exists (and still has its config) and can be deleted again.
func TestDeleteClusterFailureKeepsTheCluster(t *testing.T) {
	const name = "doomed.example.com"
	for _, failOn := range []string{"/instancegroup/nodes-b", "/clusteraddons/default", "/instancegroup", "/addons/bootstrap-channel.yaml"} {
		t.Run(failOn, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
				cs := client.New(base)
				require.NoError(t, cs.CreateCluster(testNewCluster(name, true)))
				require.NoError(t, base.Join(name, "addons/bootstrap-channel.yaml").WriteFile([]byte("x")))

				failing := client.New(failingPath{Path: base, failRemoveOn: failOn})
				err := failing.DeleteCluster(name, client.DeleteOptions{})
				require.ErrorIs(t, err, errInjected)
				assert.ErrorContains(t, err, "the cluster is still in the store, run the delete again")

				_, _, err = cs.GetCluster(name)
				assert.NoError(t, err, "the config is still there")
				names, err := cs.ListClusters()
				require.NoError(t, err)
				assert.Equal(t, []string{name}, names)

				require.NoError(t, cs.DeleteCluster(name, client.DeleteOptions{}), "a second delete finishes the job")
				assert.Empty(t, snapshot(t, base.Join(name)))
			})
		})
	}
}

func TestCorruptStoredObjects(t *testing.T) {
	const name = "corrupt.example.com"
	const header = "apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: " + name + "\n"
	const igHeader = "apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata:\n  name: nodes\n"
	cases := []struct {
		name  string
		file  string // below the cluster directory
		data  string
		read  func(cs *client.Clientset) error
		wants []string // besides the file's path
	}{
		{
			name:  "subnets is not a list",
			file:  "config",
			data:  header + "spec:\n  subnets: us-east-2a\n",
			wants: []string{"spec.subnets", "must be a list"},
		},
		{
			name:  "kubernetesVersion is a list",
			file:  "config",
			data:  header + "spec:\n  kubernetesVersion:\n  - 1.34.2\n",
			wants: []string{"spec.kubernetesVersion", "must be a string"},
		},
		{
			name:  "nested field has the wrong type",
			file:  "config",
			data:  header + "spec:\n  kubeDNS:\n    upstreamNameservers: 8.8.8.8\n  subnets:\n  - name: a\n    cidr: [10.0.0.0/24]\n",
			wants: []string{"spec.kubeDNS.upstreamNameservers", "spec.subnets[0].cidr"},
		},
		{
			name:  "malformed YAML",
			file:  "config",
			data:  header + "spec: [\n",
			wants: []string{"malformed YAML"},
		},
		{
			name:  "config holds an instance group",
			file:  "config",
			data:  igHeader + "spec:\n  role: Node\n",
			wants: []string{"does not hold exactly one Cluster"},
		},
		{
			name: "instance group with wrong types, listed",
			file: "instancegroup/nodes",
			data: igHeader + "spec:\n  minSize: two\n",
			read: func(cs *client.Clientset) error {
				_, _, err := cs.ListInstanceGroups(name)
				return err
			},
			wants: []string{"spec.minSize", "must be an integer"},
		},
		{
			name: "instance group with wrong types, read alone",
			file: "instancegroup/nodes",
			data: igHeader + "spec:\n  subnets: us-east-2a\n",
			read: func(cs *client.Clientset) error {
				_, _, err := cs.GetInstanceGroup(name, "nodes")
				return err
			},
			wants: []string{"spec.subnets", "must be a list"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, base vfs.Path, _ *vfs.MemFS) {
				cs := client.New(base)
				require.NoError(t, cs.CreateCluster(client.NewCluster{Cluster: testCluster(name)}))
				p := base.Join(name, tc.file)
				require.NoError(t, p.WriteFile([]byte(tc.data)))

				read := tc.read
				if read == nil {
					read = func(cs *client.Clientset) error {
						c, _, err := cs.GetCluster(name)
						assert.Nil(t, c)
						return err
					}
				}
				err := read(cs)
				require.Error(t, err)
				assert.NotErrorIs(t, err, client.ErrClusterNotFound)
				assert.Contains(t, err.Error(), p.String(), "names the file")
				for _, want := range tc.wants {
					assert.Contains(t, err.Error(), want)
				}
			})
		})
	}
}

// A create that crashed before writing the config leaves groups, addon objects or SSH keys
// behind; the next create of that name must not adopt any of them (a stranger's key would let its
// owner into the new cluster).
func TestCreateClusterRemovesStrayFiles(t *testing.T) {
	forEachStore(t, func(t *testing.T, base vfs.Path, _ *vfs.MemFS) {
		const name = "stray.example.com"
		group := base.Join(name, "instancegroup", "left-over")
		addons := base.Join(name, "clusteraddons", "default")
		key := base.Join(name, "pki", "ssh", "public", "admin", "0123456789abcdef0123456789abcdef")
		for _, p := range []vfs.Path{group, addons, key} {
			require.NoError(t, p.WriteFile([]byte("left by a create that did not finish")))
		}

		cs := client.New(base)
		require.NoError(t, cs.CreateCluster(testNewCluster(name, false)))
		groups, _, err := cs.ListInstanceGroups(name)
		require.NoError(t, err)
		var names []string
		for _, g := range groups {
			names = append(names, g.Name)
		}
		assert.Equal(t, []string{"control-plane-us-east-2a", "nodes-a", "nodes-b"}, names)
		for _, p := range []vfs.Path{addons, key} {
			ok, err := p.Exists()
			require.NoError(t, err)
			assert.False(t, ok, "%s is not adopted", p)
		}
	})
}

func TestNewClusterFromObjects(t *testing.T) {
	stream := "apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata:\n  name: nodes\n---\n" +
		"apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: a.example.com\n---\n" +
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n"
	objs, _, err := kopscodecs.Decode("in.yaml", []byte(stream), true)
	require.NoError(t, err)
	n, err := client.NewClusterFromObjects(objs)
	require.NoError(t, err)
	assert.Equal(t, "a.example.com", n.Cluster.Name)
	require.Len(t, n.InstanceGroups, 1)
	require.Len(t, n.Addons, 1)

	_, err = client.NewClusterFromObjects(objs[:1])
	assert.ErrorContains(t, err, "no Cluster")
	_, err = client.NewClusterFromObjects(append(objs, objs[1]))
	assert.ErrorContains(t, err, "a second Cluster")
}
