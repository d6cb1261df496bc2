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
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/util/pkg/vfs"
)

var badNames = []string{
	"../victim/x", "../victim", "..", ".", "", "a/b", "/tmp/victim", "UPPER.example.com",
	"a..b", "-a", "a_b", strings.Repeat("a", 254), strings.Repeat("a.", 150) + "a",
}

// TestNamesAreNotPaths is the store half of the defence: every method that takes a name refuses
// one that is not a DNS-1123 subdomain, and a cluster folder outside the store (../victim/x, with
// a config and a group, as `kops delete cluster ../victim/x --yes` found) is never touched.
func TestNamesAreNotPaths(t *testing.T) {
	ops := map[string]func(cs *client.Clientset, name string) error{
		"ClusterExists": func(cs *client.Clientset, name string) error { _, err := cs.ClusterExists(name); return err },
		"GetCluster":    func(cs *client.Clientset, name string) error { _, _, err := cs.GetCluster(name); return err },
		"ListInstanceGroups": func(cs *client.Clientset, name string) error {
			_, _, err := cs.ListInstanceGroups(name)
			return err
		},
		"GetInstanceGroup of the cluster": func(cs *client.Clientset, name string) error {
			_, _, err := cs.GetInstanceGroup(name, "nodes")
			return err
		},
		"GetInstanceGroup": func(cs *client.Clientset, name string) error {
			_, _, err := cs.GetInstanceGroup("present.example.com", name)
			return err
		},
		"GetAddons":        func(cs *client.Clientset, name string) error { _, err := cs.GetAddons(name); return err },
		"ListClusterFiles": func(cs *client.Clientset, name string) error { _, err := cs.ListClusterFiles(name); return err },
		"DeleteCluster": func(cs *client.Clientset, name string) error {
			return cs.DeleteCluster(name, client.DeleteOptions{Unknown: true})
		},
		"UpdateCluster": func(cs *client.Clientset, name string) error { return cs.UpdateCluster(testCluster(name)) },
		"UpdateInstanceGroup of the cluster": func(cs *client.Clientset, name string) error {
			return cs.UpdateInstanceGroup(name, testInstanceGroup(name, "nodes", kops.RoleNode, 1))
		},
		"UpdateInstanceGroup": func(cs *client.Clientset, name string) error {
			return cs.UpdateInstanceGroup("present.example.com", testInstanceGroup("present.example.com", name, kops.RoleNode, 1))
		},
		"CreateCluster": func(cs *client.Clientset, name string) error {
			n := testNewCluster("new.example.com", false)
			n.Cluster.Name = name
			return cs.CreateCluster(n)
		},
		"CreateCluster with a group": func(cs *client.Clientset, name string) error {
			n := testNewCluster("new.example.com", false)
			n.InstanceGroups[0].Name = name
			return cs.CreateCluster(n)
		},
	}
	for opName, op := range ops {
		t.Run(opName, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
				store := base.Join("store")
				cs := client.New(store)
				require.NoError(t, cs.CreateCluster(testNewCluster("present.example.com", true)))
				victim := base.Join("victim/x")
				require.NoError(t, victim.Join("config").WriteFile([]byte("kind: Cluster\n")))
				require.NoError(t, victim.Join("instancegroup/nodes").WriteFile([]byte("precious")))
				before := snapshot(t, base)

				for _, name := range badNames {
					err := op(cs, name)
					require.Error(t, err, "%q", name)
					assert.ErrorIs(t, err, client.ErrInvalidName, "%q", name)
					assert.ErrorContains(t, err, "metadata.name: Invalid value")
				}
				assert.Equal(t, before, snapshot(t, base), "store and its neighbours unchanged")
			})
		})
	}
}

func TestInvalidNameMessage(t *testing.T) {
	err := client.ValidateClusterName(strings.Repeat("x", 300))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `cluster name: metadata.name: Invalid value: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (300 characters)": must be no more than 253 characters`)
	assert.EqualError(t, client.ValidateInstanceGroupName(""), `invalid name: instance group name: metadata.name: Invalid value: "": Required value`)
	assert.NoError(t, client.ValidateClusterName(strings.Repeat("a", 63)+".example.com"))
}

// TestConcurrentCreatesOfOneName: exactly one create wins, the others are told the cluster exists,
// and the stored groups are exactly the winner's, in every round.
func TestConcurrentCreatesOfOneName(t *testing.T) {
	const name = "race.example.com"
	const creators, rounds = 8, 15
	forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
		for round := range rounds {
			store := base.Join(fmt.Sprintf("round-%d", round))
			errs := make([]error, creators)
			var wg sync.WaitGroup
			for w := range creators {
				wg.Go(func() {
					n := testNewCluster(name, false)
					for i, g := range n.InstanceGroups {
						g.Name = fmt.Sprintf("w%d-g%d", w, i) // each creator's own groups
					}
					n.Cluster.Spec.KubernetesVersion = fmt.Sprintf("1.34.%d", w)
					errs[w] = client.New(store).CreateCluster(n)
				})
			}
			wg.Wait()

			winner := -1
			for w, err := range errs {
				if err == nil {
					require.Equal(t, -1, winner, "round %d: two creates succeeded", round)
					winner = w
				} else {
					assert.ErrorContains(t, err, "already exists", "round %d", round)
				}
			}
			require.NotEqual(t, -1, winner, "round %d: no create succeeded", round)
			cs := client.New(store)
			c, _, err := cs.GetCluster(name)
			require.NoError(t, err)
			assert.Equal(t, fmt.Sprintf("1.34.%d", winner), c.Spec.KubernetesVersion)
			groups, _, err := cs.ListInstanceGroups(name)
			require.NoError(t, err)
			var got []string
			for _, g := range groups {
				got = append(got, g.Name)
			}
			want := []string{fmt.Sprintf("w%d-g0", winner), fmt.Sprintf("w%d-g1", winner), fmt.Sprintf("w%d-g2", winner)}
			assert.Equal(t, want, got, "round %d: only the winner's groups", round)
		}
	})
}

// TestCompareAndSwapLosesNoUpdate: concurrent read-modify-write cycles through the revision-checked
// updates either land or fail with ErrConflict; every one that landed is in the final document.
func TestCompareAndSwapLosesNoUpdate(t *testing.T) {
	const name = "cas.example.com"
	const editors = 10
	forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
		cs := client.New(base)
		require.NoError(t, cs.CreateCluster(testNewCluster(name, false)))
		landed := make([]bool, editors)
		var wg sync.WaitGroup
		for w := range editors {
			wg.Go(func() {
				for {
					g, rev, _, err := cs.GetInstanceGroupRevision(name, "nodes-a")
					if !assert.NoError(t, err) {
						return
					}
					g.Spec.Subnets = append(g.Spec.Subnets, fmt.Sprintf("w%d", w))
					err = cs.UpdateInstanceGroupIfUnchanged(name, g, rev)
					if errors.Is(err, client.ErrConflict) {
						continue // refused, not lost: read again and retry
					}
					landed[w] = assert.NoError(t, err)
					return
				}
			})
		}
		wg.Wait()
		g, _, err := cs.GetInstanceGroup(name, "nodes-a")
		require.NoError(t, err)
		for w, ok := range landed {
			if ok {
				assert.Contains(t, g.Spec.Subnets, fmt.Sprintf("w%d", w), "update of editor %d lost", w)
			}
		}
		assert.Len(t, g.Spec.Subnets, editors+1)
	})
}

func TestCompareAndSwapRefusesStaleRevision(t *testing.T) {
	const name = "cas.example.com"
	forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
		cs := client.New(base)
		require.NoError(t, cs.CreateCluster(testNewCluster(name, false)))
		c, rev, _, err := cs.GetClusterRevision(name)
		require.NoError(t, err)
		g, igRev, _, err := cs.GetInstanceGroupRevision(name, "nodes-a")
		require.NoError(t, err)

		// Someone else changes both.
		other := *c
		other.Spec.KubernetesVersion = "1.34.9"
		require.NoError(t, cs.UpdateCluster(&other))
		otherGroup := *g
		otherGroup.Spec.MachineType = "m5.large"
		require.NoError(t, cs.UpdateInstanceGroup(name, &otherGroup))
		before := snapshot(t, base)

		c.Spec.KubernetesVersion = "1.34.1"
		err = cs.UpdateClusterIfUnchanged(c, rev)
		assert.ErrorIs(t, err, client.ErrConflict)
		assert.ErrorContains(t, err, `cluster "cas.example.com" was changed in state store`)
		g.Spec.MachineType = "c5.large"
		err = cs.UpdateInstanceGroupIfUnchanged(name, g, igRev)
		assert.ErrorIs(t, err, client.ErrConflict)
		assert.Equal(t, before, snapshot(t, base), "nothing replaced")

		// With the current revision it lands.
		_, rev, _, err = cs.GetClusterRevision(name)
		require.NoError(t, err)
		require.NoError(t, cs.UpdateClusterIfUnchanged(c, rev))
		require.NoError(t, cs.DeleteCluster(name, client.DeleteOptions{}))
		assert.ErrorIs(t, cs.UpdateClusterIfUnchanged(c, rev), client.ErrConflict, "deleted meanwhile")
	})
}

// TestNameMismatch: a config whose metadata.name is not its folder's name is listed, and refused
// under either name with a message that says what is wrong.
func TestNameMismatch(t *testing.T) {
	forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
		cs := client.New(base)
		require.NoError(t, cs.CreateCluster(testNewCluster("a.example.com", false)))
		data, err := base.Join("a.example.com/config").ReadFile()
		require.NoError(t, err)
		require.NoError(t, base.Join("b.example.com/config").WriteFile(data))

		names, err := cs.ListClusters()
		require.NoError(t, err)
		assert.Equal(t, []string{"a.example.com", "b.example.com"}, names)
		_, _, err = cs.GetCluster("b.example.com")
		assert.ErrorIs(t, err, client.ErrNameMismatch)
		assert.ErrorContains(t, err, `metadata.name is "a.example.com" but the cluster's folder is "b.example.com"`)
		assert.ErrorIs(t, cs.UpdateClusterIfUnchanged(testCluster("b.example.com"), "x"), client.ErrConflict)

		igData, err := base.Join("a.example.com/instancegroup/nodes-a").ReadFile()
		require.NoError(t, err)
		require.NoError(t, base.Join("a.example.com/instancegroup/nodes-z").WriteFile(igData))
		_, _, err = cs.ListInstanceGroups("a.example.com")
		assert.ErrorIs(t, err, client.ErrNameMismatch)
		assert.ErrorContains(t, err, `metadata.name is "nodes-a" but the file is named "nodes-z"`)
	})
}

// TestReadsRefuseSpecialFiles: an instance group symlinked to /dev/zero or a FIFO fails at once
// with a clear error instead of growing without bound or hanging.
func TestReadsRefuseSpecialFiles(t *testing.T) {
	const name = "special.example.com"
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		want  error
	}{
		{"symlink to /dev/zero", func(t *testing.T, path string) { require.NoError(t, os.Symlink("/dev/zero", path)) }, vfs.ErrOutsideBase},
		{"symlink to a FIFO in the store", func(t *testing.T, path string) {
			fifo := filepath.Join(filepath.Dir(path), "..", "..", "fifo")
			require.NoError(t, syscall.Mkfifo(fifo, 0o644))
			require.NoError(t, os.Symlink("../../fifo", path))
		}, vfs.ErrNotRegular},
		{"FIFO", func(t *testing.T, path string) { require.NoError(t, syscall.Mkfifo(path, 0o644)) }, vfs.ErrNotRegular},
		{"too large", func(t *testing.T, path string) {
			require.NoError(t, os.WriteFile(path, nil, 0o644))
			require.NoError(t, os.Truncate(path, vfs.MaxFileSize+1))
		}, vfs.ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			base, err := vfs.ParsePath(dir, nil)
			require.NoError(t, err)
			cs := client.New(base)
			require.NoError(t, cs.CreateCluster(testNewCluster(name, false)))
			path := filepath.Join(dir, name, "instancegroup", "nodes-z")
			tt.setup(t, path)

			_, _, err = cs.ListInstanceGroups(name)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, path)
			_, _, err = cs.GetInstanceGroup(name, "nodes-z")
			assert.ErrorIs(t, err, tt.want)
		})
	}
}

// TestTempFilesOfKilledWritesDoNotBlockDelete: a .vfs-tmp- file left by a killed write is neither
// an unknown file nor left behind.
func TestTempFilesOfKilledWritesDoNotBlockDelete(t *testing.T) {
	const name = "temp.example.com"
	dir := t.TempDir()
	base, err := vfs.ParsePath(dir, nil)
	require.NoError(t, err)
	cs := client.New(base)
	require.NoError(t, cs.CreateCluster(testNewCluster(name, false)))
	for _, f := range []string{".config.vfs-tmp-123", "instancegroup/.nodes-a.vfs-tmp-456"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name, f), []byte("half"), 0o644))
	}
	require.NoError(t, cs.DeleteCluster(name, client.DeleteOptions{}))
	assert.NoDirExists(t, filepath.Join(dir, name))
}

// TestWritesDoNotFollowSymlinkedFolders derives its cases from the store: every folder a created
// cluster has (the cluster's own, instancegroup/, clusteraddons/, each of pki/ssh/public/admin/) is
// in turn replaced by a symlink to a copy outside the store, and every write and delete of the
// clientset is run. Nothing outside the store may change; a write that would pass through the
// link fails with vfs.ErrSymlink; the delete removes the link, never what it points to.
func TestWritesDoNotFollowSymlinkedFolders(t *testing.T) {
	const name = "link.example.com"
	pub, _, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	sshKey, err := ssh.NewPublicKey(pub)
	require.NoError(t, err)
	newCluster := func() client.NewCluster {
		n := testNewCluster(name, true)
		n.SSHPublicKeys = []string{string(ssh.MarshalAuthorizedKey(sshKey))}
		return n
	}
	// The folders of a created cluster, found by walking it.
	layout := t.TempDir()
	require.NoError(t, client.New(mustParse(t, layout)).CreateCluster(newCluster()))
	var folders []string
	require.NoError(t, filepath.WalkDir(filepath.Join(layout, name), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			rel, _ := filepath.Rel(layout, p)
			folders = append(folders, rel)
		}
		return err
	}))
	require.Len(t, folders, 7, "the cluster, instancegroup, clusteraddons and the four of pki/ssh/public/admin: %v", folders)

	writes := []struct {
		name string
		run  func(cs *client.Clientset) error
	}{
		{"UpdateInstanceGroup", func(cs *client.Clientset) error {
			return cs.UpdateInstanceGroup(name, testInstanceGroup(name, "nodes-a", kops.RoleNode, 9))
		}},
		{"CreateInstanceGroup", func(cs *client.Clientset) error {
			return cs.CreateInstanceGroup(name, testInstanceGroup(name, "nodes-c", kops.RoleNode, 9))
		}},
		{"UpdateCluster", func(cs *client.Clientset) error { return cs.UpdateCluster(testCluster(name)) }},
		{"AddSSHPublicKey", func(cs *client.Clientset) error {
			return cs.AddSSHPublicKey(name, string(ssh.MarshalAuthorizedKey(sshKey)))
		}},
		{"DeleteCluster", func(cs *client.Clientset) error { return cs.DeleteCluster(name, client.DeleteOptions{}) }},
		{"DeleteCluster --force", func(cs *client.Clientset) error {
			return cs.DeleteCluster(name, client.DeleteOptions{Unknown: true})
		}},
		{"CreateCluster after a delete", func(cs *client.Clientset) error {
			if err := cs.DeleteCluster(name, client.DeleteOptions{Unknown: true}); err != nil {
				return err
			}
			return cs.CreateCluster(newCluster())
		}},
	}
	for _, folder := range folders {
		for _, w := range writes {
			t.Run(folder+"/"+w.name, func(t *testing.T) {
				dir := t.TempDir()
				store := filepath.Join(dir, "store")
				cs := client.New(mustParse(t, store))
				require.NoError(t, cs.CreateCluster(newCluster()))
				outside := filepath.Join(dir, "outside")
				require.NoError(t, os.Rename(filepath.Join(store, folder), outside))
				require.NoError(t, os.Symlink(outside, filepath.Join(store, folder)))
				before := snapshot(t, mustParse(t, outside))

				err := w.run(cs)
				assert.Equal(t, before, snapshot(t, mustParse(t, outside)), "nothing outside the store changed")
				if err != nil {
					assert.True(t, errors.Is(err, vfs.ErrSymlink) || errors.Is(err, vfs.ErrOutsideBase) || errors.Is(err, client.ErrUnknownFiles) ||
						strings.Contains(err.Error(), "is not a folder of the store"), "%v", err)
				}
			})
		}
	}
}

func mustParse(t *testing.T, s string) vfs.Path {
	t.Helper()
	p, err := vfs.ParsePath(s, nil)
	require.NoError(t, err)
	return p
}

// TestConcurrentCreatesOfOneGroup: groups added to a stored cluster (create -f) are created, not
// replaced: of concurrent creates of one group exactly one stores it, the others are told it exists.
func TestConcurrentCreatesOfOneGroup(t *testing.T) {
	const cluster, creators = "groups.example.com", 8
	forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
		cs := client.New(base)
		require.NoError(t, cs.CreateCluster(testNewCluster(cluster, false)))
		errs := make([]error, creators)
		var wg sync.WaitGroup
		for w := range creators {
			wg.Go(func() {
				errs[w] = cs.CreateInstanceGroup(cluster, testInstanceGroup(cluster, "extra", kops.RoleNode, int32(w+1)))
			})
		}
		wg.Wait()
		winner := -1
		for w, err := range errs {
			if err == nil {
				require.Equal(t, -1, winner, "two creates of one group succeeded")
				winner = w
			} else {
				assert.ErrorContains(t, err, `instance group "extra" already exists`)
			}
		}
		require.NotEqual(t, -1, winner)
		g, _, err := cs.GetInstanceGroup(cluster, "extra")
		require.NoError(t, err)
		assert.Equal(t, int32(winner+1), *g.Spec.MinSize, "the winner's group is stored")

		err = cs.CreateInstanceGroup("absent.example.com", testInstanceGroup("absent.example.com", "extra", kops.RoleNode, 1))
		assert.ErrorIs(t, err, client.ErrClusterNotFound)
	})
}
