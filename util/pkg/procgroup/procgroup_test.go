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

package procgroup_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/procgroup"
	"k8s.io/kops/util/pkg/procgroup/procgrouptest"
)

// TestRun: a helper's output is capped, a child it leaves holding the output does not hold the
// caller, and at the deadline the helper and every process it started are killed. The deadline
// is generous: a timeout, not a speed assertion.
func TestRun(t *testing.T) {
	if !procgroup.Supported {
		t.Skip("no process groups here")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	tests := []struct {
		name, script string
		want         string
		wantErr      error
	}{
		{"answers", "echo hello", "hello\n", nil},
		{"endless output", "yes", "", procgroup.ErrTooMuchOutput},
		{"a child keeps the output open", "sleep 60 & echo $! > " + pidFile, "", procgroup.ErrOutputHeld},
		{"never answers, nor its child", "sleep 60 & echo $! > " + pidFile + "; wait", "", procgroup.ErrDeadline},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_ = os.Remove(pidFile)
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
			defer cancel()
			out, err := procgroup.Run(ctx, exec.CommandContext(ctx, "sh", "-c", tt.script), 1<<10)
			if tt.wantErr == nil {
				require.NoError(t, err)
				assert.Equal(t, tt.want, string(out))
				return
			}
			assert.ErrorIs(t, err, tt.wantErr)
			procgrouptest.AssertChildGone(t, pidFile)
		})
	}
}
