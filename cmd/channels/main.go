// Command channels applies a kops bootstrap channel to a cluster:
//
//	channels apply channel <configBase>/addons/bootstrap-channel.yaml [--yes] [--kubeconfig FILE]
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"

	"k8s.io/kops/channels/pkg/apply"
	kubecfg "k8s.io/kops/pkg/kubeconfig"
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
	root := &cobra.Command{Use: "channels", Short: "Apply kops addon channels to a cluster", SilenceErrors: true, SilenceUsage: true}
	var kubeconfig string
	var yes bool
	applyCmd := &cobra.Command{Use: "apply", Short: "Apply channels"}
	channelCmd := &cobra.Command{
		Use:   "channel LOCATION",
		Short: "Apply the addons of a bootstrap channel (file:// URL or path) whose recorded version differs",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			config, err := restConfig(kubeconfig, env)
			if err != nil {
				return err
			}
			ch, err := apply.ReadChannel(args[0], nil)
			if err != nil {
				return err
			}
			applier, err := apply.New(config, apply.Options{Yes: yes, Out: out})
			if err != nil {
				return err
			}
			_, err = applier.Apply(ctx, ch)
			return err
		},
	}
	channelCmd.Flags().BoolVarP(&yes, "yes", "y", false, "Apply (without it, only show what would be applied)")
	root.PersistentFlags().StringVar(&kubeconfig, "kubeconfig", "", "Path to a kubeconfig (default: KUBECONFIG, ~/.kube/config, or in-cluster)")
	applyCmd.AddCommand(channelCmd)
	root.AddCommand(applyCmd)
	root.SetArgs(args)
	root.SetOut(out)
	root.SetErr(errOut)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintf(errOut, "Error: %v\n", err)
		return 1
	}
	return 0
}

// restConfig finds the cluster: --kubeconfig, else KUBECONFIG, else ~/.kube/config, else the
// in-cluster service account (pkg/kubeconfig, shared with kops validate cluster).
func restConfig(path string, env map[string]string) (*rest.Config, error) {
	return kubecfg.RESTConfig(path, env)
}
