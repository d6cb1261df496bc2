package awsmodel

import (
	"fmt"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

// IAMModelBuilder adds, for each machine role in use, its IAM role, instance profile and, when the
// role is granted anything, its policy.
type IAMModelBuilder struct {
	Context *model.KopsModelContext
}

var _ model.Builder = (*IAMModelBuilder)(nil)

// Build adds the IAM tasks of every role the instance groups use, each role once.
func (b *IAMModelBuilder) Build(c *fi.ModelBuilderContext) error {
	done := map[string]bool{}
	for _, ig := range b.Context.InstanceGroups {
		name, err := iamName(b.Context, ig.Spec.Role)
		if err != nil {
			return fmt.Errorf("instance group %q: %w", ig.Name, err)
		}
		if done[name] {
			continue
		}
		done[name] = true
		if err := b.addRole(c, name, ig.Spec.Role); err != nil {
			return err
		}
	}
	return nil
}

func (b *IAMModelBuilder) addRole(c *fi.ModelBuilderContext, name string, role kops.InstanceGroupRole) error {
	tasks := []fi.Task{
		&awstasks.IAMRole{Name: name, AssumeRolePolicy: awstasks.EC2AssumeRolePolicy(), Tags: clusterTags(b.Context)},
		&awstasks.IAMInstanceProfile{Name: name, Role: name, Tags: clusterTags(b.Context)},
	}
	if doc := policyFor(b.Context.Cluster, role); doc != nil {
		tasks = append(tasks, &awstasks.IAMRolePolicy{Name: name, Role: name, PolicyDocument: doc})
	}
	for _, t := range tasks {
		if err := c.AddTask(t); err != nil {
			return err
		}
	}
	return nil
}
