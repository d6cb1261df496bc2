package startup

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/tests/integration/golden"
)

// binaries are the commands this repository ships: kops, channels, and every operator of the
// registry.
var binaries = func() []string {
	out := []string{"kops", "channels"}
	for _, o := range addons.Operators() {
		out = append(out, strings.TrimPrefix(o.Binary, "./cmd/"))
	}
	return out
}()

// neverLinked are packages no shipped binary may link: test libraries, client-go's typed
// clientset and discovery client, which link every built-in API group (they doubled kops's
// start-up once; see TestCommandsLinkNoTypedClientset), and the AWS SDK, whose package init cost
// every kops command ~1.7 ms and 4 MB (the s3:// store has its own client, util/pkg/aws; the SDK
// only checks it in tests).
var neverLinked = []string{
	"github.com/stretchr/testify",
	"github.com/aws/aws-sdk-go-v2",
	"github.com/aws/smithy-go",
	"k8s.io/client-go/kubernetes",
	"k8s.io/client-go/discovery",
}

// kopsOnly are packages only kops may link: hclwrite, which writes kubernetes.tf for
// `kops update cluster --target terraform` (upup/pkg/fi/cloudup/terraform), with the rest of HCL,
// go-cty and go-cmp that it brings. Their package initialisation is paid by every kops command;
// channels and the operators have no terraform target and must not pay it.
var kopsOnly = []string{
	"github.com/hashicorp/hcl",
	"github.com/zclconf/go-cty",
	"github.com/google/go-cmp",
}

// TestLinkedPackages: every package outside the standard library that a shipped binary links is
// listed in testdata/<binary>.txt, so a new one (and what it initialises at every start) is a
// decision a reviewer reads in the diff. hack/update-expected.sh rewrites the lists
// (UPDATE_EXPECTED=1); a package that is gone must leave its list too, so the lists stay exact.
func TestLinkedPackages(t *testing.T) {
	for _, b := range binaries {
		t.Run(b, func(t *testing.T) {
			cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./cmd/"+b)
			cmd.Dir = repo
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			deps := strings.Fields(string(out))
			require.Contains(t, deps, "k8s.io/kops/cmd/"+b, "the listing is the real one")
			slices.Sort(deps)
			forbidden := neverLinked
			if b != "kops" {
				forbidden = append(slices.Clip(forbidden), kopsOnly...)
			}
			for _, d := range deps {
				for _, never := range forbidden {
					assert.False(t, d == never || strings.HasPrefix(d, never+"/"), "%s links %s", b, d)
				}
			}
			golden.Check(t, filepath.Join("testdata", b), map[string]string{b + ".txt": strings.Join(deps, "\n") + "\n"})
		})
	}
}

// TestListsAreOfBinaries: testdata holds one list per shipped binary and nothing else, so the list
// of a binary that was removed or renamed does not stay behind unchecked.
func TestListsAreOfBinaries(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	require.NoError(t, err)
	var dirs []string
	for _, e := range entries {
		dirs = append(dirs, e.Name())
	}
	assert.ElementsMatch(t, binaries, dirs,
		"testdata/ must hold exactly one directory per shipped binary: remove the lists of binaries that are gone, and run hack/update-expected.sh for new ones")
}
