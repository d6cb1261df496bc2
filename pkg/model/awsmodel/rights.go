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

package awsmodel

import (
	"slices"
	"sort"
	"strings"

	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

// condition is operator -> key -> values (any value matches; every key must).
type condition map[string]map[string][]string

// grant is actions on resources (none means every resource) under a condition.
type grant struct {
	actions   []string
	resources []string
	condition condition
}

// readOnlyPrefixes: any other action counts as a change, so a new action must be scoped to the cluster.
var readOnlyPrefixes = []string{"Describe", "Get", "List"}

var readOnlyActions = []string{"ecr:BatchCheckLayerAvailability", "ecr:BatchGetImage"}

func isReadOnly(action string) bool {
	if slices.Contains(readOnlyActions, action) {
		return true
	}
	_, name, ok := strings.Cut(action, ":")
	if !ok {
		return false
	}
	for _, p := range readOnlyPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// onEvery is for reads and the few changing actions whose resources carry no tag (each call says why).
func onEvery(actions ...string) grant { return grant{actions: actions} }

func (f *clusterFacts) onTagged(actions ...string) grant {
	return grant{actions: actions, condition: condition{"StringEquals": {"aws:ResourceTag/" + TagClusterName: {f.name}}}}
}

func (f *clusterFacts) creatingTagged(actions ...string) grant {
	return grant{actions: actions, condition: condition{"StringEquals": {"aws:RequestTag/" + TagClusterName: {f.name}}}}
}

// ec2Tagging allows tagging only on creation as the cluster's, or later on the cluster's resources
// leaving the cluster tag alone: whoever can tag a foreign resource as the cluster's gains every
// onTagged right over it.
func (f *clusterFacts) ec2Tagging(creates []string, types ...string) []grant {
	var arns []string
	for _, t := range types {
		arns = append(arns, f.arn("ec2", "*:*:"+t+"/*"))
	}
	return []grant{
		{actions: []string{"ec2:CreateTags"}, resources: arns, condition: condition{"StringEquals": {
			"aws:RequestTag/" + TagClusterName: {f.name},
			"ec2:CreateAction":                 creates,
		}}},
		{actions: []string{"ec2:CreateTags", "ec2:DeleteTags"}, resources: arns, condition: condition{
			"StringEquals": {"aws:ResourceTag/" + TagClusterName: {f.name}},
			"Null":         {"aws:RequestTag/" + TagClusterName: {"true"}},
		}},
	}
}

func (f *clusterFacts) arn(service, rest string) string {
	return "arn:" + f.partition + ":" + service + ":" + rest
}

// policy merges grants with equal resources and condition into one statement and sorts everything,
// so the same rights give the same bytes; no grant, no document.
func policy(grants []grant) *awstasks.PolicyDocument {
	type key struct{ resources, condition string }
	merged := map[key]*awstasks.Statement{}
	for _, g := range grants {
		resources := g.resources
		if len(resources) == 0 {
			resources = []string{"*"}
		}
		resources = sortedUnique(resources)
		s := awstasks.Statement{Effect: "Allow", Resource: resources, Condition: g.condition}
		k := key{strings.Join(resources, ","), s.ConditionSummary()}
		if m, ok := merged[k]; ok {
			m.Action = append(m.Action, g.actions...)
			continue
		}
		s.Action = append([]string(nil), g.actions...)
		merged[k] = &s
	}
	if len(merged) == 0 {
		return nil
	}
	keys := make([]key, 0, len(merged))
	for k := range merged {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a].resources != keys[b].resources {
			return keys[a].resources < keys[b].resources
		}
		return keys[a].condition < keys[b].condition
	})
	doc := &awstasks.PolicyDocument{Version: awstasks.PolicyVersion}
	for _, k := range keys {
		s := merged[k]
		s.Action = sortedUnique(s.Action)
		doc.Statement = append(doc.Statement, *s)
	}
	return doc
}

func sortedUnique(in []string) []string {
	out := slices.Clone(in)
	sort.Strings(out)
	return slices.Compact(out)
}
