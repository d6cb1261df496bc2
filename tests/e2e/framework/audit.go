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

package framework

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	auditv1 "k8s.io/apiserver/pkg/apis/audit/v1"
)

// Options are what a test package may ask of its server beyond the defaults.
type Options struct {
	// AuditDeletes makes the server write an audit event for every delete request it serves, which
	// DeleteLog reads: what the server saw, in the order it finished serving it, whoever sent it.
	AuditDeletes bool
}

// deletesPolicy logs the delete requests only, at the Metadata level (who, what, the answer), once
// each: when the response is complete. The log backend's default mode is blocking, so an event is
// written before the client gets the response.
const deletesPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
  verbs: ["delete", "deletecollection"]
- level: None
`

// configureAudit writes the policy into dir and points the server at it and at dir/audit.log.
func configureAudit(dir string, set func(key, value string)) (string, error) {
	policy := filepath.Join(dir, "audit-policy.yaml")
	if err := os.WriteFile(policy, []byte(deletesPolicy), 0o600); err != nil {
		return "", fmt.Errorf("writing the audit policy: %w", err)
	}
	log := filepath.Join(dir, "audit.log")
	set("audit-policy-file", policy)
	set("audit-log-path", log)
	set("audit-log-format", "json")
	return log, nil
}

// Deletion is one delete request the server served.
type Deletion struct {
	// APIGroup ("" for the core group), Resource (plural), Namespace and Name of the object.
	APIGroup, Resource, Namespace, Name string
	// User is who sent it; Code the HTTP status of the answer.
	User string
	Code int32
}

func (d Deletion) String() string {
	name := d.Name
	if d.Namespace != "" {
		name = d.Namespace + "/" + name
	}
	resource := d.Resource
	if d.APIGroup != "" {
		resource += "." + d.APIGroup
	}
	return fmt.Sprintf("%s %s (%d)", resource, name, d.Code)
}

// DeleteLog reads the delete requests a server with Options.AuditDeletes served from the moment
// the log was opened on.
type DeleteLog struct {
	path   string
	offset int64
}

// DeleteLog starts reading the server's delete requests from now on.
func (e *Env) DeleteLog(t testing.TB) *DeleteLog {
	t.Helper()
	require.NotEmpty(t, e.auditLog, "the server was started without Options.AuditDeletes")
	info, err := os.Stat(e.auditLog)
	if os.IsNotExist(err) {
		return &DeleteLog{path: e.auditLog}
	}
	require.NoError(t, err)
	return &DeleteLog{path: e.auditLog, offset: info.Size()}
}

// Deletions are the delete requests served since the log was opened, in the order the server
// finished serving them.
func (l *DeleteLog) Deletions(t testing.TB) []Deletion {
	t.Helper()
	f, err := os.Open(l.path)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	defer func() { _ = f.Close() }()
	_, err = f.Seek(l.offset, io.SeekStart)
	require.NoError(t, err)
	var out []Deletion
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for scanner.Scan() {
		var ev auditv1.Event
		require.NoError(t, json.Unmarshal(scanner.Bytes(), &ev), "audit event %s", scanner.Text())
		if ev.Stage != auditv1.StageResponseComplete || ev.ObjectRef == nil {
			continue
		}
		d := Deletion{APIGroup: ev.ObjectRef.APIGroup, Resource: ev.ObjectRef.Resource, Namespace: ev.ObjectRef.Namespace,
			Name: ev.ObjectRef.Name, User: ev.User.Username}
		if ev.ResponseStatus != nil {
			d.Code = ev.ResponseStatus.Code
		}
		out = append(out, d)
	}
	require.NoError(t, scanner.Err())
	return out
}
