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

package procgroup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// WaitDelay is how long a helper's output may stay open after the helper (or its deadline)
// ended: a child it left behind must not hold the command.
const WaitDelay = time.Second

var (
	// ErrTooMuchOutput: the helper printed more than its bound.
	ErrTooMuchOutput = errors.New("printed more than its bound")
	// ErrOutputHeld: the helper exited, but a process it started kept its output open.
	ErrOutputHeld = errors.New("exited, but a process it started kept its output open; it was killed")
	// ErrDeadline: the helper did not answer by its deadline.
	ErrDeadline = errors.New("did not answer by its deadline; it was killed with every process it started")
)

// Prepare makes cmd (not yet started, made with exec.CommandContext) run in its own group,
// killed whole when its context ends, with its output into a writer of at most max bytes.
func Prepare(cmd *exec.Cmd, max int) *CappedWriter {
	out := &CappedWriter{max: max}
	cmd.Stdout = out
	cmd.WaitDelay = WaitDelay
	ownGroup(cmd)
	return out
}

// Finish kills what is left of the started cmd's group and names the cause of err, if any: the
// bound of output, a child holding it, the deadline. ctx is the run's.
func Finish(ctx context.Context, cmd *exec.Cmd, out *CappedWriter, err error) error {
	if cmd.Process != nil {
		// The helper is reaped; while any child of it lives, the group (and so its id) is theirs.
		killGroup(cmd.Process.Pid)
	}
	switch {
	case out.overflow:
		return fmt.Errorf("%w (%d bytes)", ErrTooMuchOutput, out.max)
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("%w: %w", ErrDeadline, ctx.Err())
	case errors.Is(err, exec.ErrWaitDelay):
		return ErrOutputHeld
	}
	return err
}

// Run runs cmd bounded and returns its output.
func Run(ctx context.Context, cmd *exec.Cmd, max int) ([]byte, error) {
	out := Prepare(cmd, max)
	err := cmd.Run()
	if err := Finish(ctx, cmd, out, err); err != nil {
		return nil, err
	}
	return out.buf.Bytes(), nil
}

// CappedWriter keeps at most max bytes, then fails every write, which ends the copy from the
// helper's output (so a writer behind it stays bounded too).
type CappedWriter struct {
	max      int
	buf      bytes.Buffer
	overflow bool
}

func (w *CappedWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.max {
		w.overflow = true
		return 0, ErrTooMuchOutput
	}
	return w.buf.Write(p)
}
