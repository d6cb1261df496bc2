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
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"sigs.k8s.io/yaml"
)

// Output formats of the get commands.
const (
	outputTable = "table"
	outputYAML  = "yaml"
	outputJSON  = "json"
)

func checkOutput(o string, allowed ...string) error {
	for _, a := range allowed {
		if o == a {
			return nil
		}
	}
	return fmt.Errorf("unknown output format %q: use one of %s", o, strings.Join(allowed, ", "))
}

// printDocuments writes YAML documents as one stream, or, for JSON, each converted and the whole
// as one value (an array when there is more than one).
func printDocuments(w io.Writer, format string, docs [][]byte) error {
	if format == outputYAML {
		for i, d := range docs {
			if i > 0 {
				if _, err := io.WriteString(w, "---\n"); err != nil {
					return err
				}
			}
			if _, err := w.Write(d); err != nil {
				return err
			}
		}
		return nil
	}
	values := make([]json.RawMessage, 0, len(docs))
	for _, d := range docs {
		j, err := yaml.YAMLToJSON(d)
		if err != nil {
			return err
		}
		values = append(values, j)
	}
	var v interface{} = values
	if len(values) == 1 {
		v = values[0]
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// printTable writes rows under upper-case headers, aligned.
func printTable(w io.Writer, headers []string, rows [][]string) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 8, 2, ' ', 0)
	// Writes into buf cannot fail; what tw passes on is written below, checked.
	_, _ = fmt.Fprintln(tw, strings.Join(headers, "\t"))
	for _, r := range rows {
		_, _ = fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
