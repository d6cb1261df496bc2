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
	"fmt"
	"io"
	"os"

	"k8s.io/kops/pkg/model/addons"
)

func main() {
	if err := list(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "operators:", err)
		os.Exit(1)
	}
}

func list(w io.Writer) error {
	for _, o := range addons.Operators() {
		if _, err := fmt.Fprintf(w, "%s %s\n", o.Descriptor.AddonName, o.Binary); err != nil {
			return err
		}
	}
	return nil
}
