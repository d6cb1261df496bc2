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

package cloudup

import (
	"context"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/pkg/model/awsmodel"
	"k8s.io/kops/pkg/model/nodesetup"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/util/pkg/vfs"
)

// ApplyCluster loads, checks, models and renders a cluster; an invalid cluster or option is reported
// with every problem and nothing is written.
func ApplyCluster(ctx context.Context, o ApplyClusterOptions) (*ApplyResult, error) {
	var out vfs.Path
	switch o.Target {
	case TargetDryRun, "", TargetDirect:
		if o.OutDir != "" {
			return nil, fmt.Errorf("--out is only used with --target %s", TargetTerraform)
		}
	case TargetTerraform:
		if o.OutDir == "" {
			return nil, fmt.Errorf("--target %s needs --out DIR, the directory kubernetes.tf and data/ are written to", TargetTerraform)
		}
		var err error
		if out, err = o.Clientset.Paths().ParsePath(o.OutDir); err != nil {
			return nil, fmt.Errorf("--out: %w", err)
		}
		inStore, err := vfs.Within(out, o.Clientset.Base())
		if err != nil {
			return nil, fmt.Errorf("--out: %w", err)
		}
		if inStore {
			return nil, fmt.Errorf("--out %s is inside the state store %s (links resolved): choose a directory of its own (terraform files are not cluster state)", out, o.Clientset.Base())
		}
	default:
		return nil, fmt.Errorf("unsupported target %q: use %s, %s or %s", o.Target, TargetDryRun, TargetDirect, TargetTerraform)
	}
	if o.Target == TargetDirect || (o.Target == TargetTerraform && o.Yes) {
		unlock, err := o.Clientset.LockForUpdate(o.ClusterName)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	if err := nodesetup.ValidateNodeupSource(o.Nodeup, "nodeup source"); err != nil {
		return nil, err
	}
	modelContext, warnings, err := LoadModelContext(o.Clientset, o.ClusterName, o.Flags)
	result := &ApplyResult{Warnings: warnings}
	if err != nil {
		return result, err
	}
	modelContext.Nodeup = o.Nodeup
	cloudWarnings, err := awsmodel.Warnings(modelContext)
	if err != nil {
		return result, err
	}
	source := o.Clientset.Base().Join(o.ClusterName).String()
	for _, w := range cloudWarnings {
		result.Warnings = append(result.Warnings, kopscodecs.Warning{Source: source, Text: w})
	}
	tasks, err := BuildTasks(modelContext)
	if err != nil {
		return result, err
	}
	graph, err := fi.BuildGraph(tasks)
	if err != nil {
		return result, err
	}
	configBase, err := o.Clientset.Paths().ParsePath(modelContext.Cluster.Spec.ConfigBase)
	if err != nil {
		return result, fmt.Errorf("spec.configBase: %w", err)
	}
	result.ConfigBase = configBase.String()
	fiContext := &fi.Context{ClusterName: o.ClusterName, ConfigBase: configBase}
	if o.Target == TargetTerraform {
		result.OutDir = out.String()
		return result, applyTerraform(ctx, o, modelContext.Cluster, graph, fiContext, out, result)
	}

	// Every task is planned before anything is written, so a refusal leaves the store as it was.
	target := &storeTarget{inner: &fi.DryRunTarget{}}
	if _, err := fi.Run(ctx, graph, fiContext, target, fi.RunOptions{}); err != nil {
		return result, err
	}
	if o.Target == TargetDirect && len(target.inner.Changes()) > 0 {
		target = &storeTarget{inner: &fi.DirectTarget{}}
		if _, err := fi.Run(ctx, graph, fiContext, target, fi.RunOptions{}); err != nil {
			return result, err
		}
	}
	result.Changed = len(target.inner.Changes()) > 0
	cloud := target.cloudChanges()
	for _, tc := range cloud {
		result.CloudTasks = append(result.CloudTasks, tc.Key)
	}
	if o.Out == nil {
		return result, nil
	}
	if dry, ok := target.inner.(*fi.DryRunTarget); ok && o.Target != TargetDirect && len(cloud) > 0 {
		return result, dry.WriteReportWith(o.Out, func(w io.Writer) error { return fi.WriteChanges(w, cloudHeading, cloud) })
	}
	return result, target.inner.WriteReport(o.Out)
}

// LoadModelContext reads and checks a cluster, its groups and addon objects, then the channel
// packages the model needs, so builders do no I/O.
func LoadModelContext(clientset *client.Clientset, name string, flags featureflag.Set) (*model.KopsModelContext, []kopscodecs.Warning, error) {
	cluster, warnings, err := clientset.GetCluster(name)
	if err != nil {
		return nil, warnings, err
	}
	groups, more, err := clientset.ListInstanceGroups(name)
	warnings = append(warnings, more...)
	if err != nil {
		return nil, warnings, err
	}
	checked := Check(cluster, groups, clientset.Base().String(), true)
	if err := checked.Err(name, nil, nil); err != nil {
		return nil, warnings, err
	}
	stored, err := clientset.GetAddons(name)
	if err != nil {
		return nil, warnings, err
	}
	if n := countShippable(stored); n > 0 && !flags.Enabled(featureflag.ClusterAddons) {
		warnings = append(warnings, kopscodecs.Warning{Source: clientset.Base().Join(name, "clusteraddons", "default").String(),
			Text: fmt.Sprintf("%d stored addon objects are left out: the ClusterAddons feature flag is off", n)})
	}
	remapper, err := assets.NewRemapper(checked.Cluster.Spec.Assets)
	if err != nil {
		return nil, warnings, fmt.Errorf("spec.assets: %w", err)
	}
	for _, u := range flags.Unmet() {
		warnings = append(warnings, kopscodecs.Warning{Source: "KOPS_FEATURE_FLAGS", Text: u.Message()})
	}
	if w, ok := operatorModeIgnored(checked.Cluster, flags, clientset.Base().Join(name, "config").String()); ok {
		warnings = append(warnings, w)
	}
	warnings = append(warnings, sharedSubnetZones(checked.Cluster, clientset.Base().Join(name, "config").String())...)
	warnings = append(warnings, certManagerNotDeployed(checked.Cluster, clientset.Base().Join(name, "config").String())...)
	warnings = append(warnings, operatorsKeptBuiltIn(checked.Cluster, flags, clientset.Base().Join(name, "config").String())...)
	warnings = append(warnings, derivedPodMetadata(checked.Cluster, groups, clientset.Base().Join(name, "config").String())...)
	ctx := &model.KopsModelContext{
		Cluster:        checked.Cluster,
		InstanceGroups: groups,
		FeatureFlags:   flags,
		Assets:         remapper,
		ClusterAddons:  stored,
	}
	if ctx.Packages, err = loadPackages(ctx, addons.DefaultBuilders(), clientset.Paths()); err != nil {
		return nil, warnings, err
	}
	return ctx, warnings, nil
}

// loadPackages reads spec.channel only when a package is needed.
func loadPackages(ctx *model.KopsModelContext, builders []addons.Builder, paths *vfs.Context) (map[string]*channels.Package, error) {
	names := addons.RequiredPackages(ctx, builders)
	if len(names) == 0 {
		return nil, nil
	}
	channel, err := channels.Load(ctx.Cluster.Spec.Channel, paths)
	if err != nil {
		return nil, fmt.Errorf("spec.channel: %w", err)
	}
	packages := map[string]*channels.Package{}
	for _, name := range names {
		p, err := channel.Package(name, ctx.Cluster.Spec.KubernetesVersion)
		if err != nil {
			return nil, err
		}
		packages[name] = p
	}
	return packages, nil
}

func BuildTasks(ctx *model.KopsModelContext) ([]fi.Task, error) {
	c := &fi.ModelBuilderContext{}
	builders := []model.Builder{
		&addons.BootstrapChannelBuilder{Context: ctx, Builders: addons.DefaultBuilders()},
		&nodesetup.Builder{Context: ctx},
	}
	builders = append(builders, awsmodel.Builders(ctx)...)
	for _, b := range builders {
		if err := b.Build(c); err != nil {
			return nil, err
		}
	}
	return c.Tasks(), nil
}

// countShippable: component configuration is never shipped, flag or not.
func countShippable(stored []*unstructured.Unstructured) int {
	n := 0
	for _, o := range stored {
		if !kopscodecs.IsComponentConfig(o) {
			n++
		}
	}
	return n
}

// operatorModeIgnored warns rather than errs: the flags belong to one invocation and the spec to the
// store, so a cluster must not become invalid for whoever runs kops without them.
func operatorModeIgnored(cluster *kops.Cluster, flags featureflag.Set, source string) (kopscodecs.Warning, bool) {
	if flags.Active(featureflag.UseAddonOperators) {
		return kopscodecs.Warning{}, false
	}
	var ignored []string
	if dns := cluster.Spec.KubeDNS; dns != nil && dns.OperatorMode != "" {
		ignored = append(ignored, fmt.Sprintf("spec.kubeDNS.operatorMode: %s is ignored: CoreDNS is built in", dns.OperatorMode))
	}
	if ms := cluster.Spec.MetricsServer; ms != nil && ms.OperatorMode != "" {
		ignored = append(ignored, fmt.Sprintf("spec.metricsServer.operatorMode: %s is ignored: metrics-server is built in", ms.OperatorMode))
	}
	if len(ignored) == 0 {
		return kopscodecs.Warning{}, false
	}
	return kopscodecs.Warning{Source: source,
		Text: strings.Join(ignored, "; ") + " unless KOPS_FEATURE_FLAGS has ClusterAddons,UseAddonOperators"}, true
}
