// Command operators prints the addon operators kops can deploy (addons.Operators), one a line:
// "<channel package> <Go package of its binary>". `make images` builds an image for each line, so
// the Makefile names no operator itself.
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
