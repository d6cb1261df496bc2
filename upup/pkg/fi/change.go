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

package fi

import "strconv"

type Action int

const (
	ActionNone Action = iota
	ActionCreate
	ActionModify
	ActionDelete
)

func (a Action) String() string {
	switch a {
	case ActionNone:
		return "none"
	case ActionCreate:
		return "create"
	case ActionModify:
		return "modify"
	case ActionDelete:
		return "delete"
	}
	return "Action(" + strconv.Itoa(int(a)) + ")"
}

// Change is a task's planned outcome, reviewable (Fields, Diff) before anything is written.
type Change struct {
	Action Action
	// Fields' Old is empty on create and New on delete; values are display strings, already summarized.
	Fields []FieldChange
	Diff   string
	// LeftAlone names what the task found in its way but did not touch because kops did not write it
	// (or it changed since); reports list it apart, whatever the Action.
	LeftAlone []string
}

type FieldChange struct {
	Name string
	Old  string
	New  string
}
