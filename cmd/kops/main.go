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
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"strings"

	"k8s.io/kops/cmd/internal/s3env"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
)

func main() {
	env := environ()
	os.Exit(run(os.Args[1:], env, os.Stdin, os.Stdout, os.Stderr, vfs.NewContext(nil).WithS3(s3store.New(s3env.Settings(env)))))
}

// environ is the only place the process environment is read; everything below gets it as a value.
func environ() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}

// run executes one kops command line and returns the exit code. paths resolves --state and the
// paths clusters name (tests give it a memfs:// store; the real binary's has none).
func run(args []string, env map[string]string, in io.Reader, out, errOut io.Writer, paths *vfs.Context) int {
	flags, messages := featureflag.Parse(env["KOPS_FEATURE_FLAGS"])
	for _, m := range messages {
		_, _ = io.WriteString(errOut, m.String()+"\n")
	}
	f := &Factory{Flags: flags, Env: env, In: in, Out: out, ErrOut: errOut, Paths: paths}
	root := NewCmdRoot(f)
	root.SetArgs(args)
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errOut)
	// Ctrl-C cancels the command's context, so a waiting command (validate --wait) stops cleanly.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := root.ExecuteContext(ctx); err != nil {
		_, _ = io.WriteString(errOut, "Error: "+err.Error()+"\n")
		return exitCode(err)
	}
	return 0
}

// exitError is an error with its own exit code: kops validate cluster exits 2 when the cluster
// was validated and found unhealthy, and 1 when it could not be validated at all.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// exitCode is the process's exit code for an error: its own, or 1.
func exitCode(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}
