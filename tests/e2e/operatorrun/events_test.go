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

package operatorrun

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// eventsAbout lists, as the admin, the events of namespace about the object of kind and name.
func eventsAbout(t testing.TB, namespace, kind, name string) []corev1.Event {
	list, err := env.Clientset.CoreV1().Events(namespace).List(context.Background(), metav1.ListOptions{
		FieldSelector: fmt.Sprintf("involvedObject.kind=%s,involvedObject.name=%s", kind, name),
	})
	if err != nil {
		t.Fatalf("listing events: %v", err)
	}
	return list.Items
}

// hasEvent is a check for eventually: an event of type and reason whose message contains text,
// reported by the operator, on the object of kind and name in namespace.
func hasEvent(t testing.TB, namespace, kind, name, eventType, reason, text string) func() string {
	return func() string {
		var seen []string
		for _, e := range eventsAbout(t, namespace, kind, name) {
			if e.Type == eventType && e.Reason == reason && strings.Contains(e.Message, text) && e.Source.Component == "coredns-operator" {
				return ""
			}
			seen = append(seen, e.Type+"/"+e.Reason+": "+e.Message)
		}
		return fmt.Sprintf("no %s %s event with %q among %q", eventType, reason, text, seen)
	}
}
