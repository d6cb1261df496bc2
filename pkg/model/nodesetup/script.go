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

package nodesetup

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"
	"text/template"

	"k8s.io/kops/pkg/apis/kops"
)

//go:embed script.sh.tmpl
var scriptTemplateText string

// scriptTemplate is parsed on first use, so commands that render no script do not pay for it.
var scriptTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("script").Funcs(template.FuncMap{
		"modeSummary": modeSummary,
		// The values of Family.When, so the template cannot misspell one into the cleanup branch.
		"always":        func() string { return Always },
		"ifKernelHasIt": func() string { return IfKernelHasIt },
		"cleanupOnly":   func() string { return CleanupOnly },
		"checkSeconds":  func() int { return GuardCheckSeconds },
	}).Option("missingkey=error").Parse(scriptTemplateText))
})

// GuardCheckSeconds is how often the guard checks the rules; after a flush, pods reach metadata for
// about this long (docs/metadata-access-node.md has the measured window). A check runs one
// iptables-save per table (two -S for nat) per family.
const GuardCheckSeconds = 2

func modeSummary(mode string) string {
	switch mode {
	case kops.PodMetadataAccessBlock:
		return "pods' traffic to instance metadata is dropped; the node itself keeps it."
	case kops.PodMetadataAccessForward:
		return "pods' HTTP requests to instance metadata go to the credentials proxy on the node; the rest is dropped."
	default:
		return "pods reach instance metadata; rules an earlier mode left are removed."
	}
}

func RenderScript(r *Rules) ([]byte, error) {
	var b bytes.Buffer
	if err := scriptTemplate().Execute(&b, r); err != nil {
		return nil, fmt.Errorf("rendering the node metadata script: %w", err)
	}
	return b.Bytes(), nil
}

func Script(cluster *kops.Cluster) ([]byte, error) {
	r, err := RulesFor(cluster, nil)
	if err != nil {
		return nil, err
	}
	return RenderScript(r)
}
