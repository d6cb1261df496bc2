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
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/commands"
	"k8s.io/kops/pkg/edit"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

// setFlags are kops's --set and --unset of the edit commands.
type setFlags struct {
	sets, unsets []string
}

func (s *setFlags) given() bool { return len(s.sets)+len(s.unsets) > 0 }

func (s *setFlags) add(cmd *cobra.Command, what string) {
	cmd.Flags().Var(&csvList{flag: "--set", values: &s.sets}, "set", "Set fields of the "+what+" instead of opening an editor, e.g. --set spec.kubeDNS.provider=CoreDNS "+
		"(repeatable, or comma-separated; a list field gets items appended and a map field KEY=VALUE, quoted when it holds commas: --set '\"spec.kubeDNS.upstreamNameservers=1.1.1.1,8.8.8.8\"')")
	cmd.Flags().Var(&csvList{flag: "--unset", values: &s.unsets}, "unset", "Remove fields of the "+what+" instead of opening an editor, e.g. --unset spec.kubeDNS.upstreamNameservers (repeatable, or comma-separated; applied before --set)")
}

// csvList is a repeatable flag whose every value is a comma-separated list, read as a CSV record
// with lazy quotes as kops reads --set: `--set a=1,b=2` is two fields, `--set '"a=1,2"'` one.
// A line break is refused: the CSV reader would end the record there and drop the rest unseen.
type csvList struct {
	flag   string
	values *[]string
}

func (c *csvList) Set(s string) error {
	if s == "" {
		return nil
	}
	if strings.ContainsAny(s, "\r\n") {
		return fmt.Errorf("%s %q: holds a line break; a field and its value are one line: give each field its own %s, or separate them by commas", c.flag, s, c.flag)
	}
	r := csv.NewReader(strings.NewReader(s))
	r.LazyQuotes = true
	record, err := r.Read()
	if err != nil {
		return fmt.Errorf("%q is not a comma-separated list: %w", s, err)
	}
	*c.values = append(*c.values, record...)
	return nil
}

func (c *csvList) String() string { return strings.Join(*c.values, ",") }
func (c *csvList) Type() string   { return "strings" }

// NewCmdEdit is `kops edit cluster|instancegroup`.
func NewCmdEdit(f *Factory) *cobra.Command {
	var clusterSets, groupSets setFlags
	cluster := &cobra.Command{
		Use:   "cluster [CLUSTER]",
		Short: "Edit a cluster, in your editor or with --set/--unset",
		Long:  longHelp("edit_cluster"),
		Example: "  kops edit cluster k8s.example.com\n" +
			"  kops edit cluster k8s.example.com --set spec.kubeDNS.provider=CoreDNS --unset spec.kubeDNS.upstreamNameservers",
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeClusterNames(f, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			name, err := f.Cluster(args)
			if err != nil {
				return err
			}
			return runEditCluster(f, name, clusterSets)
		},
	}
	clusterSets.add(cluster, "cluster")
	group := &cobra.Command{
		Use:               "instancegroup NAME",
		Aliases:           []string{"ig", "instancegroups", "igs"},
		Short:             "Edit an instance group of a cluster (--name), in your editor or with --set/--unset",
		Long:              longHelp("edit_instancegroup"),
		Example:           "  kops edit ig nodes-us-east-2a --name k8s.example.com --set spec.maxSize=3",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeInstanceGroups(f, nil),
		RunE: func(cmd *cobra.Command, args []string) error {
			cluster, err := f.Cluster(nil)
			if err != nil {
				return err
			}
			if err := client.ValidateInstanceGroupName(args[0]); err != nil {
				return err
			}
			return runEditInstanceGroup(f, cluster, args[0], groupSets)
		},
	}
	groupSets.add(group, "instance group")
	return parentCommand("edit", "Edit a cluster or instance group in your editor (KOPS_EDITOR, EDITOR, or vi), or with --set/--unset", cluster, group)
}

func (f *Factory) editor() edit.Editor {
	return edit.Editor{Command: f.Editor(), In: f.In, Out: f.Out, ErrOut: f.ErrOut, TempDir: f.Env["TMPDIR"]}
}

// decodeEdited reads back the one document of the expected kind and name.
func (f *Factory) decodeEdited(source string, data []byte, kind, name string) (*kopscodecs.Object, error) {
	objs, warnings, err := kopscodecs.Decode(source, data, false)
	f.Warn(warnings)
	if err != nil {
		return nil, err
	}
	if len(objs) != 1 {
		return nil, fmt.Errorf("%s: the file must hold exactly one %s", source, kind)
	}
	o := objs[0]
	var gotName string
	switch {
	case kind == kops.KindCluster && o.Cluster != nil:
		gotName = o.Cluster.Name
	case kind == kops.KindInstanceGroup && o.InstanceGroup != nil:
		gotName = o.InstanceGroup.Name
	default:
		return nil, fmt.Errorf("%s: %s: the file must hold a %s", source, o.Describe(), kind)
	}
	if gotName != name {
		return nil, fmt.Errorf("%s: metadata.name: Invalid value: %q: the name cannot be changed from %q", source, gotName, name)
	}
	return o, nil
}

// editDocument runs the editor on one stored document until check accepts what the user saved, then
// stores it with save. Cancelling (saving no change) is not an error. When save fails (the stored
// document changed meanwhile, say), the user's text is kept in a file the error names.
func (f *Factory) editDocument(source string, original []byte, kind, name string, check, save func(*kopscodecs.Object) error) error {
	var edited *kopscodecs.Object
	editor := f.editor()
	text, err := editor.Run(source, original, func(data []byte) error {
		o, err := f.decodeEdited(source, data, kind, name)
		if err != nil {
			return err
		}
		if err := check(o); err != nil {
			return err
		}
		edited = o
		return nil
	})
	if errors.Is(err, edit.ErrCancelled) {
		_, err = fmt.Fprintln(f.Out, err)
		return err
	}
	if err != nil {
		return err
	}
	if err := save(edited); err != nil {
		kept, keepErr := editor.Keep(source, text)
		if keepErr != nil {
			return fmt.Errorf("%w\nYour changes could not be kept either: %v", err, keepErr)
		}
		hint := ""
		if errors.Is(err, client.ErrConflict) {
			hint = "; run the edit again and make your changes to what is stored now"
		}
		return fmt.Errorf("%w\nYour edited file is kept in %s%s", err, kept, hint)
	}
	return nil
}

// setDocument is the edit without an editor: --unset and --set are applied to the stored document,
// which is then decoded and checked exactly as the editor's text is, and stored only if nothing is
// refused and the stored document is still the one read (save compares revisions). A --set that
// changes nothing stores nothing.
func (f *Factory) setDocument(original []byte, t reflect.Type, kind, name string, s setFlags,
	check, save func(*kopscodecs.Object) error, encode func(*kopscodecs.Object) ([]byte, error)) error {
	edited, err := commands.SetFields(original, t, s.sets, s.unsets)
	if err != nil {
		return err
	}
	o, err := f.decodeEdited("--set/--unset", edited, kind, name)
	if err != nil {
		return kopscodecs.WithoutLines(err)
	}
	o = o.WithoutLines()
	if err := check(o); err != nil {
		return err
	}
	data, err := encode(o)
	if err != nil {
		return err
	}
	if bytes.Equal(data, original) {
		_, err := fmt.Fprintf(f.Out, "%s %q unchanged: it already has these values\n", kind, name)
		return err
	}
	err = save(o)
	if errors.Is(err, client.ErrConflict) {
		return fmt.Errorf("%w; nothing was stored: run the command again", err)
	}
	return err
}

func runEditCluster(f *Factory, name string, s setFlags) error {
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	cluster, revision, warnings, err := clientset.GetClusterRevision(name)
	f.Warn(warnings)
	if err != nil {
		return err
	}
	groups, warnings, err := clientset.ListInstanceGroups(name)
	f.Warn(warnings)
	if err != nil {
		return err
	}
	original, err := kopscodecs.EncodeCluster(cluster)
	if err != nil {
		return err
	}
	check := func(o *kopscodecs.Object) error {
		if err := cloudup.Check(o.Cluster, groups, clientset.Base().String(), false).Err(name, o, nil); err != nil {
			return err
		}
		if errs := f.checkChannel(o.Cluster); errs != nil {
			return o.FieldErrors(errs)
		}
		return nil
	}
	save := func(o *kopscodecs.Object) error {
		if err := clientset.UpdateClusterIfUnchanged(o.Cluster, revision); err != nil {
			return err
		}
		_, err := fmt.Fprintf(f.Out, "Cluster %q updated in the state store; apply it with: kops update cluster --name %s --yes\n", name, name)
		return err
	}
	if s.given() {
		return f.setDocument(original, reflect.TypeOf(kops.Cluster{}), kops.KindCluster, name, s, check, save,
			func(o *kopscodecs.Object) ([]byte, error) { return kopscodecs.EncodeCluster(o.Cluster) })
	}
	return f.editDocument("cluster-"+name+".yaml", original, kops.KindCluster, name, check, save)
}

func runEditInstanceGroup(f *Factory, clusterName, name string, s setFlags) error {
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	cluster, warnings, err := clientset.GetCluster(clusterName)
	f.Warn(warnings)
	if err != nil {
		return err
	}
	group, revision, warnings, err := clientset.GetInstanceGroupRevision(clusterName, name)
	f.Warn(warnings)
	if err != nil {
		return err
	}
	original, err := kopscodecs.EncodeInstanceGroup(group)
	if err != nil {
		return err
	}
	check := func(o *kopscodecs.Object) error {
		checked := cloudup.Check(cluster, []*kops.InstanceGroup{o.InstanceGroup}, clientset.Base().String(), false)
		// The stored cluster is not what is being edited; only the group's problems count.
		checked.ClusterErrors = nil
		return checked.Err(clusterName, nil, []*kopscodecs.Object{o})
	}
	save := func(o *kopscodecs.Object) error {
		if err := clientset.UpdateInstanceGroupIfUnchanged(clusterName, o.InstanceGroup, revision); err != nil {
			return err
		}
		_, err := fmt.Fprintf(f.Out, "Instance group %q of cluster %q updated in the state store\n", name, clusterName)
		return err
	}
	if s.given() {
		return f.setDocument(original, reflect.TypeOf(kops.InstanceGroup{}), kops.KindInstanceGroup, name, s, check, save,
			func(o *kopscodecs.Object) ([]byte, error) { return kopscodecs.EncodeInstanceGroup(o.InstanceGroup) })
	}
	return f.editDocument("instancegroup-"+name+".yaml", original, kops.KindInstanceGroup, name, check, save)
}
