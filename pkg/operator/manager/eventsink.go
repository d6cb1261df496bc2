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

package manager

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
)

var eventsGVR = schema.GroupVersionResource{Version: "v1", Resource: "events"}

// eventSink is client-go's EventSinkImpl over the dynamic client (see the package comment).
type eventSink struct {
	ctx    context.Context
	client dynamic.Interface
}

func (s *eventSink) Create(e *corev1.Event) (*corev1.Event, error) {
	u, err := toUnstructured(e)
	if err != nil {
		return nil, err
	}
	got, err := s.client.Resource(eventsGVR).Namespace(e.Namespace).Create(s.ctx, u, metav1.CreateOptions{})
	return fromUnstructured(got, err)
}

func (s *eventSink) Update(e *corev1.Event) (*corev1.Event, error) {
	u, err := toUnstructured(e)
	if err != nil {
		return nil, err
	}
	got, err := s.client.Resource(eventsGVR).Namespace(e.Namespace).Update(s.ctx, u, metav1.UpdateOptions{})
	return fromUnstructured(got, err)
}

func (s *eventSink) Patch(e *corev1.Event, data []byte) (*corev1.Event, error) {
	got, err := s.client.Resource(eventsGVR).Namespace(e.Namespace).Patch(s.ctx, e.Name, types.StrategicMergePatchType, data, metav1.PatchOptions{})
	return fromUnstructured(got, err)
}

func toUnstructured(e *corev1.Event) (*unstructured.Unstructured, error) {
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(e)
	if err != nil {
		return nil, fmt.Errorf("encoding event %s: %w", e.Name, err)
	}
	u := &unstructured.Unstructured{Object: obj}
	u.SetAPIVersion("v1")
	u.SetKind("Event")
	return u, nil
}

func fromUnstructured(u *unstructured.Unstructured, err error) (*corev1.Event, error) {
	if err != nil {
		return nil, err
	}
	e := &corev1.Event{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, e); err != nil {
		return nil, fmt.Errorf("reading event %s: %w", u.GetName(), err)
	}
	return e, nil
}
