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

import (
	"context"
	"fmt"
)

// Target decides what rendering means. A new target is one type plus its own renderer interface that
// tasks opt into; the executor and graph only call Render.
type Target interface {
	Name() string
	// Render is called once per planned task, ActionNone included (terraform needs those), possibly
	// concurrently for independent tasks.
	Render(ctx context.Context, c *Context, task Task, change *Change) error
}

// NoRendererError reports a task lacking the renderer interface a target needs.
type NoRendererError struct {
	Task     TaskKey
	TaskType string
	Target   string
	Renderer string
}

func (e *NoRendererError) Error() string {
	return fmt.Sprintf("task %s (%s) cannot be rendered by target %q: it does not implement %s",
		e.Task, e.TaskType, e.Target, e.Renderer)
}

func noRenderer(task Task, target Target, renderer string) error {
	return &NoRendererError{Task: task.Key(), TaskType: fmt.Sprintf("%T", task), Target: target.Name(), Renderer: renderer}
}
