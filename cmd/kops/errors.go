package main

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

// fieldErrors renders validation errors one per line under a title, paths first, as kops users
// read them.
func fieldErrors(title string, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	lines := []string{title}
	for _, e := range errs {
		lines = append(lines, "  "+e.Error())
	}
	return fmt.Errorf("%s", strings.Join(lines, "\n"))
}

// checkedErrors reports a checked cluster's problems, each located in the document it came from
// where there was one (clusterDoc and groupDocs may be nil: objects made from flags).
func checkedErrors(name string, checked cloudup.Checked, clusterDoc *kopscodecs.Object, groupDocs []*kopscodecs.Object) error {
	if checked.Empty() {
		return nil
	}
	var parts []string
	add := func(doc *kopscodecs.Object, title string, errs field.ErrorList) {
		if len(errs) == 0 {
			return
		}
		if doc != nil {
			parts = append(parts, doc.FieldErrors(errs).Error())
			return
		}
		parts = append(parts, fieldErrors(title, errs).Error())
	}
	add(clusterDoc, fmt.Sprintf("cluster %q is not valid:", name), checked.ClusterErrors)
	for i, errs := range checked.GroupErrors {
		var doc *kopscodecs.Object
		if i < len(groupDocs) {
			doc = groupDocs[i]
		}
		add(doc, fmt.Sprintf("instance group %d of cluster %q is not valid:", i+1, name), errs)
	}
	add(nil, fmt.Sprintf("cluster %q is not valid:", name), checked.Errors)
	return fmt.Errorf("%s", strings.Join(parts, "\n"))
}
