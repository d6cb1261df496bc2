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
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/cmd/internal/s3env"
	kubecfg "k8s.io/kops/pkg/kubeconfig"
	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], environ(), os.Stdout, os.Stderr))
}

// environ is the only place the process environment is read.
func environ() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}

func run(ctx context.Context, args []string, env map[string]string, out, errOut io.Writer) int {
	root := newRoot(ctx, env, out)
	root.SetArgs(args)
	root.SetOut(out)
	root.SetErr(errOut)
	if err := root.ExecuteContext(ctx); err != nil {
		_, _ = fmt.Fprintf(errOut, "Error: %v\n", err) // nowhere left to report a failed write to stderr
		return 1
	}
	return 0
}

// newRoot builds the command tree; the docs check parses the documentation's command lines
// against it.
func newRoot(ctx context.Context, env map[string]string, out io.Writer) *cobra.Command {
	root := &cobra.Command{Use: "channels", Short: "Apply kops addon channels to a cluster", SilenceErrors: true, SilenceUsage: true}
	var kubeconfig string
	var yes, allowDowngrade bool
	var requestTimeout, runTimeout time.Duration
	applyCmd := &cobra.Command{Use: "apply", Short: "Apply channels"}
	channelCmd := &cobra.Command{
		Use:   "channel LOCATION",
		Short: "Apply the addons of a bootstrap channel (file:// URL or path) whose recorded version differs",
		Long:  longHelp(applyChannelHelp),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if requestTimeout < 0 || runTimeout < 0 {
				return fmt.Errorf("--request-timeout and --timeout must not be negative (0 means no bound)")
			}
			// The whole channel is read and checked before the cluster is contacted, within --timeout.
			paths := vfs.NewContext(nil).WithS3(s3store.New(s3env.Settings(env)))
			if runTimeout > 0 {
				paths = paths.Until(time.Now().Add(runTimeout))
			}
			ch, err := apply.ReadChannel(args[0], paths)
			if err != nil {
				return err
			}
			config, err := restConfig(kubeconfig, env)
			if err != nil {
				return err
			}
			applier, err := apply.New(config, apply.Options{Yes: yes, Out: out, RequestTimeout: requestTimeout, AllowDowngrade: allowDowngrade})
			if err != nil {
				return err
			}
			runCtx := ctx
			if runTimeout > 0 {
				var cancel context.CancelFunc
				runCtx, cancel = context.WithTimeout(ctx, runTimeout)
				defer cancel()
			}
			_, err = applier.Apply(runCtx, ch)
			if err != nil && runCtx.Err() != nil && ctx.Err() == nil {
				return fmt.Errorf("%w\n(the run did not finish within --timeout=%s)", err, runTimeout)
			}
			return err
		},
	}
	channelCmd.Flags().BoolVarP(&yes, "yes", "y", false, "Apply (without it, only show what would be applied)")
	channelCmd.Flags().BoolVar(&allowDowngrade, "allow-downgrade", false,
		"Apply even where a running container image would be replaced by a lower version of the same repository")
	channelCmd.Flags().DurationVar(&requestTimeout, "request-timeout", 30*time.Second,
		"Bound on each request to the API server, as kubectl's --request-timeout (0: no bound)")
	channelCmd.Flags().DurationVar(&runTimeout, "timeout", 10*time.Minute,
		"Bound on the whole run, CRD waits included (0: no bound)")
	// -v as kubectl's: -v=6 logs every request with its status and time.
	logFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(logFlags)
	root.PersistentFlags().AddGoFlag(logFlags.Lookup("v"))
	root.PersistentFlags().StringVar(&kubeconfig, "kubeconfig", "", "Path to a kubeconfig (default: KUBECONFIG, ~/.kube/config, or in-cluster)")
	applyCmd.AddCommand(channelCmd)
	root.AddCommand(applyCmd)
	return root
}

// restConfig finds the cluster: --kubeconfig, else KUBECONFIG, else ~/.kube/config, else the
// in-cluster service account (pkg/kubeconfig, shared with kops validate cluster).
func restConfig(path string, env map[string]string) (*rest.Config, error) {
	return kubecfg.RESTConfig(path, env)
}
