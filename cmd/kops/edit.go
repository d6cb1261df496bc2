package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/edit"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

// NewCmdEdit is `kops edit cluster|instancegroup`.
func NewCmdEdit(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "edit",
		Short: "Edit a cluster or instance group in your editor (KOPS_EDITOR, EDITOR, or vi)",
	}
	cmd.AddCommand(
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
				return runEditInstanceGroup(f, cluster, args[0])
			},
		},
	)
	return cmd
}

func (f *Factory) editor() edit.Editor {
	return edit.Editor{Command: f.Editor(), In: f.In, Out: f.Out, ErrOut: f.ErrOut}
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

func runEditCluster(f *Factory, name string) error {
	clientset, err := f.Clientset()
	if err != nil {
		return err
	}
	cluster, warnings, err := clientset.GetCluster(name)
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
	source := "cluster-" + name + ".yaml"
	var edited *kops.Cluster
	_, err = f.editor().Run(source, original, func(data []byte) error {
		o, err := f.decodeEdited(source, data, kops.KindCluster, name)
		if err != nil {
			return err
		}
		checked := cloudup.Check(o.Cluster, groups, clientset.Base().String(), false)
		if err := checked.Err(name, o, nil); err != nil {
			return err
		}
		edited = o.Cluster
		return nil
	})
	if errors.Is(err, edit.ErrCancelled) {
		fmt.Fprintln(f.Out, err)
		return nil
	}
	if err != nil {
		return err
	}
	if err := clientset.UpdateCluster(edited); err != nil {
		return err
	}
	fmt.Fprintf(f.Out, "Cluster %q updated in the state store; apply it with: kops update cluster --name %s --yes\n", name, name)
	return nil
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
	group, warnings, err := clientset.GetInstanceGroup(clusterName, name)
	f.Warn(warnings)
	if err != nil {
		return err
	}
	original, err := kopscodecs.EncodeInstanceGroup(group)
	if err != nil {
		return err
	}
	source := "instancegroup-" + name + ".yaml"
	var edited *kops.InstanceGroup
	_, err = f.editor().Run(source, original, func(data []byte) error {
		o, err := f.decodeEdited(source, data, kops.KindInstanceGroup, name)
		if err != nil {
			return err
		}
		checked := cloudup.Check(cluster, []*kops.InstanceGroup{o.InstanceGroup}, clientset.Base().String(), false)
		checked.ClusterErrors = nil
		if err := checked.Err(clusterName, nil, []*kopscodecs.Object{o}); err != nil {
			return err
		}
		edited = o.InstanceGroup
		return nil
	})
	if errors.Is(err, edit.ErrCancelled) {
		fmt.Fprintln(f.Out, err)
		return nil
	}
	if err != nil {
		return err
	}
	if err := clientset.UpdateInstanceGroup(clusterName, edited); err != nil {
		return err
	}
	fmt.Fprintf(f.Out, "Instance group %q of cluster %q updated in the state store\n", name, clusterName)
	return nil
}
