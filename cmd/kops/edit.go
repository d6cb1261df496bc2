package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/edit"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

// NewCmdEdit is `kops edit cluster|instancegroup`.
func NewCmdEdit(f *Factory) *cobra.Command {
	return parentCommand("edit", "Edit a cluster or instance group in your editor (KOPS_EDITOR, EDITOR, or vi)",
		&cobra.Command{
			Use:   "cluster [CLUSTER]",
			Short: "Edit a cluster",
			Args:  cobra.MaximumNArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				name, err := f.Cluster(args)
				if err != nil {
					return err
				}
				return runEditCluster(f, name)
			},
		},
		&cobra.Command{
			Use:     "instancegroup NAME",
			Aliases: []string{"ig", "instancegroups", "igs"},
			Short:   "Edit an instance group of a cluster (--name)",
			Args:    cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				cluster, err := f.Cluster(nil)
				if err != nil {
					return err
				}
				if err := client.ValidateInstanceGroupName(args[0]); err != nil {
					return err
				}
				return runEditInstanceGroup(f, cluster, args[0])
			},
		},
	)
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
		fmt.Fprintln(f.Out, err)
		return nil
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

func runEditCluster(f *Factory, name string) error {
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
		fmt.Fprintf(f.Out, "Cluster %q updated in the state store; apply it with: kops update cluster --name %s --yes\n", name, name)
		return nil
	}
	return f.editDocument("cluster-"+name+".yaml", original, kops.KindCluster, name, check, save)
}

func runEditInstanceGroup(f *Factory, clusterName, name string) error {
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
		fmt.Fprintf(f.Out, "Instance group %q of cluster %q updated in the state store\n", name, clusterName)
		return nil
	}
	return f.editDocument("instancegroup-"+name+".yaml", original, kops.KindInstanceGroup, name, check, save)
}
