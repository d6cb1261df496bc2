package terraform

import (
	"context"
	"errors"

	"k8s.io/kops/upup/pkg/fi"
)

// Target collects the resources and files of every task that implements Renderer and writes them
// when Finish is called. The zero value is not usable; see NewTarget (to be written).
type Target struct{}

var _ fi.Target = (*Target)(nil)

func (t *Target) Name() string { return "terraform" }

// Render asks a Renderer task to write itself; tasks that do not live in the cloud are handled by
// the caller (addon files still go to the state store).
func (t *Target) Render(ctx context.Context, c *fi.Context, task fi.Task, change *fi.Change) error {
	return errors.New("terraform target: not implemented yet")
}

// RenderResource adds resource "<resourceType>" "<resourceName>" with body: a struct or pointer to
// one whose exported fields carry `cty:"name"` tags. Nil pointers, empty strings, nil maps and nil
// slices are left out; *Literal fields are written as expressions; struct (or pointer to struct)
// fields become nested blocks, slices of structs repeated blocks; map[string]string fields become
// map attributes with sorted keys.
func (t *Target) RenderResource(resourceType, resourceName string, body interface{}) error {
	return errors.New("terraform target: not implemented yet")
}

// AddFile stores contents as data/<resourceType>_<resourceName>_<key> and returns the expression
// that reads it: file("${path.module}/data/...") or, with base64 set, filebase64(...) (user data).
func (t *Target) AddFile(resourceType, resourceName, key string, contents []byte, base64 bool) (*Literal, error) {
	return nil, errors.New("terraform target: not implemented yet")
}
