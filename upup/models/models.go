// Package models holds the addon templates kops renders, embedded in the binary so that what a
// cluster gets depends only on the kops version and the cluster spec, never on the network. It is
// embedding only: pkg/templates executes the templates, and the packages that render an addon
// (pkg/operators/coredns, ...) name their templates and addons.
package models

import (
	"embed"
	"io/fs"
)

//go:embed cloudup/resources/addons
var content embed.FS

// Partials matches the templates that only define named templates for others to use.
const Partials = "cloudup/resources/addons/partials/*.yaml.template"

// FS returns the embedded templates, rooted so that paths start with "cloudup/resources/addons/".
func FS() fs.FS {
	return content
}
