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

package client

import "fmt"

// LockForUpdate holds the store lock while a command writes a cluster's generated files itself, so
// no delete, edit or update interleaves; it refuses a cluster that is not stored. Call the returned
// unlock when done.
func (c *Clientset) LockForUpdate(name string) (func(), error) {
	if err := ValidateClusterName(name); err != nil {
		return nil, err
	}
	unlock, err := c.lock()
	if err != nil {
		return nil, err
	}
	exists, err := c.configPath(name).Exists()
	if err == nil && !exists {
		err = fmt.Errorf("%w: no cluster %q in state store %s", ErrClusterNotFound, name, c.base)
	}
	if err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}
