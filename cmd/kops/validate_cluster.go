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
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kubeconfig"
	"k8s.io/kops/pkg/validation"
)

type validateClusterOptions struct {
	wait           time.Duration
	interval       time.Duration
	timeout        time.Duration
	requestTimeout time.Duration
	count          int
	kubeconfig     string
	output         string
}

// Exit codes of kops validate cluster, as kops's: a cluster validated and found unhealthy exits
// 2, so that a script can tell it from a validation that could not be made (1).
const exitValidationFailed = 2

// NewCmdValidate is `kops validate cluster`.
func NewCmdValidate(f *Factory) *cobra.Command {
	o := &validateClusterOptions{}
	cluster := &cobra.Command{
		Use:   "cluster [CLUSTER]",
		Short: "Check that the cluster runs the addons and DNS kops last wrote for it",
		Long:  longHelp("validate_cluster"),
		Example: "  # Try for 10 minutes to validate the cluster 3 times in a row.\n" +
			"  kops validate cluster k8s.example.com --wait 10m --count 3",
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeClusterNames(f, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(o.output, outputTable, outputYAML, outputJSON); err != nil {
				return err
			}
			if o.wait < 0 || o.interval <= 0 || o.timeout <= 0 || o.requestTimeout <= 0 {
				return errors.New("--wait must not be negative; --interval, --timeout and --request-timeout must be positive")
			}
			if o.count < 0 || (o.count > 1 && o.wait == 0) {
				return fmt.Errorf("--count=%d: it must not be negative, and more than one validation needs --wait to make them in", o.count)
			}
			name, err := f.Cluster(args)
			if err != nil {
				return err
			}
			return runValidateCluster(cmd, f, name, o)
		},
	}
	fl := cluster.Flags()
	fl.DurationVar(&o.wait, "wait", 0, "Keep validating until the cluster is healthy or this much time has passed (e.g. 5m)")
	fl.IntVar(&o.count, "count", 0, "Number of consecutive successful validations required (needs --wait when more than one)")
	fl.DurationVar(&o.interval, "interval", 10*time.Second, "Time between attempts with --wait")
	fl.DurationVar(&o.timeout, "timeout", 30*time.Second, "Time limit of one validation, all its requests together (with --wait: of each attempt, and no attempt outlives the wait)")
	fl.DurationVar(&o.requestTimeout, "request-timeout", kubeconfig.DefaultRequestTimeout, "Time limit of each request to the cluster (--timeout bounds them all together)")
	fl.StringVar(&o.kubeconfig, "kubeconfig", "", "Path to a kubeconfig (default: KUBECONFIG, ~/.kube/config, or in-cluster)")
	fl.StringVarP(&o.output, "output", "o", outputTable, "Output format: table, yaml or json")
	_ = cluster.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{outputTable, outputYAML, outputJSON}, cobra.ShellCompDirectiveNoFileComp
	})
	addKopsFlags(cluster, false,
		kopsFlag{name: "api-server", why: "it talks to the server of the kubeconfig's context; choose another kubeconfig with --kubeconfig"},
		kopsFlag{name: "use-kubeconfig", kind: isSwitch, harmless: "true", why: "it always uses the server of the kubeconfig's context: it cannot infer one from the cluster's name"},
		kopsFlag{name: "max-unready-nodes", why: "it checks the cluster's addons and DNS, not its nodes, so there are no unready nodes to tolerate"},
	)
	return parentCommand("validate", "Validate clusters", cluster)
}

func runValidateCluster(cmd *cobra.Command, f *Factory, name string, o *validateClusterOptions) error {
	// Reading the store is part of the validation: an S3 endpoint that drips its answers must not
	// outlast --timeout.
	f.Paths = f.Paths.Until(time.Now().Add(o.timeout))
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	stored, warnings, err := clientset.GetCluster(name)
	f.Warn(warnings)
	if err != nil {
		return err
	}
	expected, err := validation.ReadExpected(kops.CompleteCluster(stored, clientset.Base().String()), clientset.Paths())
	if err != nil {
		return err
	}
	config, warning, err := kubeconfig.RESTConfigFor(o.kubeconfig, f.Env, name)
	if err != nil {
		return err
	}
	if warning != "" {
		warnf(f.ErrOut, "W: %s\n", warning)
	}
	v, err := validation.NewValidator(kubeconfig.ForCLI(config, o.requestTimeout))
	if err != nil {
		return err
	}
	result, err := v.Wait(cmd.Context(), expected, validation.WaitOptions{Timeout: o.timeout, Wait: o.wait, Interval: o.interval, Count: o.count, Progress: f.ErrOut})
	var short *validation.CountError
	if errors.As(err, &short) {
		// Healthy, but not for long enough: the checks are shown, and the error is kops's, 1.
		if err := printValidation(f, o.output, result); err != nil {
			return err
		}
		return err
	}
	if err != nil {
		return withTimeLimitFlag(err, o)
	}
	if err := printValidation(f, o.output, result); err != nil {
		return err
	}
	if failures := result.Failures(); len(failures) > 0 {
		lines := make([]string, 0, len(failures))
		for _, c := range failures {
			lines = append(lines, fmt.Sprintf("  %s %s: %s", c.Kind, c.Name, c.Message))
		}
		return &exitError{code: exitValidationFailed,
			err: fmt.Errorf("cluster %q is not healthy: %d of %d checks failed:\n%s", name, len(failures), len(result.Checks), strings.Join(lines, "\n"))}
	}
	if o.output == outputTable {
		if _, err := fmt.Fprintf(f.Out, "\nYour cluster %s is ready\n", name); err != nil {
			return err
		}
	}
	return nil
}

// withTimeLimitFlag names the flag whose time limit cut the validation short.
func withTimeLimitFlag(err error, o *validateClusterOptions) error {
	var limit *validation.TimeLimitError
	if !errors.As(err, &limit) {
		return err
	}
	switch limit.Limit {
	case validation.LimitWait:
		return fmt.Errorf("%w\n(--wait=%s was over; each validation may also take at most --timeout=%s)", err, o.wait, o.timeout)
	case validation.LimitRequest:
		return fmt.Errorf("%w\n(each request may take at most --request-timeout=%s)", err, o.requestTimeout)
	default:
		return fmt.Errorf("%w\n(one validation may take at most --timeout=%s)", err, o.timeout)
	}
}

func printValidation(f *Factory, format string, r *validation.Result) error {
	switch format {
	case outputYAML:
		data, err := yaml.Marshal(r)
		if err != nil {
			return err
		}
		_, err = f.Out.Write(data)
		return err
	case outputJSON:
		data, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		_, err = f.Out.Write(append(data, '\n'))
		return err
	}
	if _, err := fmt.Fprintf(f.Out, "Validating cluster %s (DNS: %s) against %s\n\n", r.Cluster, r.DNS, r.Channel); err != nil {
		return err
	}
	rows := make([][]string, 0, len(r.Checks))
	for _, c := range r.Checks {
		status := "OK"
		if !c.OK {
			status = "FAILED"
		}
		rows = append(rows, []string{c.Kind, c.Name, status, c.Message})
	}
	return printTable(f.Out, []string{"KIND", "NAME", "STATUS", "MESSAGE"}, rows)
}
