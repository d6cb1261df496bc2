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

package nodecluster

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/remotecommand"
	"k8s.io/utils/ptr"
)

// TestClientPod is a pod of one container, "client", running the test client image
// (images/testclient) with args, as uid 65532 with a read-only root, every capability dropped and
// no service account token: what an unprivileged workload looks like. With no args it sleeps,
// a pod to Exec into. Change the returned pod (dnsPolicy, labels, ...) before RunPod.
func TestClientPod(namespace, name string, args ...string) *corev1.Pod {
	if len(args) == 0 {
		args = []string{"sleep"}
	}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: map[string]string{"app": name}},
		Spec: corev1.PodSpec{
			AutomountServiceAccountToken: ptr.To(false),
			// A stopped client ends at once: it holds nothing worth a grace period.
			TerminationGracePeriodSeconds: ptr.To[int64](1),
			RestartPolicy:                 corev1.RestartPolicyNever,
			SecurityContext: &corev1.PodSecurityContext{
				RunAsNonRoot: ptr.To(true), RunAsUser: ptr.To[int64](65532), RunAsGroup: ptr.To[int64](65532),
			},
			Containers: []corev1.Container{{
				Name:            "client",
				Image:           TestClientImage,
				ImagePullPolicy: corev1.PullNever,
				Args:            args,
				SecurityContext: &corev1.SecurityContext{
					AllowPrivilegeEscalation: ptr.To(false),
					ReadOnlyRootFilesystem:   ptr.To(true),
					Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
				},
			}},
		},
	}
}

// RunPod creates pod and waits until all its containers are ready (a pod that ends, restartPolicy
// Never, counts once it has Succeeded). It fails early, with the reason, when the pod fails or a
// container waits on something that will not come (an image that is not on the node, a bad
// configuration). The pod stays; delete it with DeletePod.
func (c *Cluster) RunPod(ctx context.Context, pod *corev1.Pod) (*corev1.Pod, error) {
	created, err := c.Clientset.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("creating pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	return c.WaitPod(ctx, created.Namespace, created.Name, 2*time.Minute)
}

// WaitPod waits up to limit until the pod's containers are all ready or it has Succeeded.
func (c *Cluster) WaitPod(ctx context.Context, namespace, name string, limit time.Duration) (*corev1.Pod, error) {
	var last *corev1.Pod
	var stuck string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, limit, true, func(ctx context.Context) (bool, error) {
		p, err := c.Clientset.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		last = p
		switch p.Status.Phase {
		case corev1.PodSucceeded:
			return true, nil
		case corev1.PodFailed:
			return false, fmt.Errorf("pod %s/%s failed: %s", namespace, name, podSummary(p))
		}
		if stuck = waitingOnNothing(p); stuck != "" {
			return false, fmt.Errorf("pod %s/%s cannot start: %s", namespace, name, stuck)
		}
		for _, cond := range p.Status.Conditions {
			if cond.Type == corev1.ContainersReady {
				return cond.Status == corev1.ConditionTrue, nil
			}
		}
		return false, nil
	})
	if err != nil {
		summary := "never seen"
		if last != nil {
			summary = podSummary(last)
		}
		return last, fmt.Errorf("waiting for pod %s/%s: %w (%s); kubelet's log: %s", namespace, name, err, summary, c.LogFile("kubelet"))
	}
	return last, nil
}

// waitingOnNothing names a container waiting for something no retry brings (only pre-built
// images exist on the node), or "".
func waitingOnNothing(p *corev1.Pod) string {
	for _, s := range append(append([]corev1.ContainerStatus{}, p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
		if w := s.State.Waiting; w != nil {
			switch w.Reason {
			case "ErrImageNeverPull", "ErrImagePull", "ImagePullBackOff", "InvalidImageName", "CreateContainerConfigError", "CreateContainerError":
				return fmt.Sprintf("container %s: %s: %s", s.Name, w.Reason, w.Message)
			}
		}
	}
	return ""
}

func podSummary(p *corev1.Pod) string {
	parts := []string{"phase " + string(p.Status.Phase)}
	for _, s := range p.Status.ContainerStatuses {
		switch {
		case s.State.Waiting != nil:
			parts = append(parts, fmt.Sprintf("%s waiting: %s %s", s.Name, s.State.Waiting.Reason, s.State.Waiting.Message))
		case s.State.Terminated != nil:
			parts = append(parts, fmt.Sprintf("%s exited %d: %s %s", s.Name, s.State.Terminated.ExitCode, s.State.Terminated.Reason, s.State.Terminated.Message))
		case s.State.Running != nil:
			parts = append(parts, fmt.Sprintf("%s running, ready=%t", s.Name, s.Ready))
		}
	}
	return strings.Join(parts, "; ")
}

// DeletePod deletes the pod and waits until it is gone (its containers stopped).
func (c *Cluster) DeletePod(ctx context.Context, namespace, name string) error {
	err := c.Clientset.CoreV1().Pods(namespace).Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := c.Clientset.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
}

// ExecResult is what a command run in a container printed, and how it ended.
type ExecResult struct {
	Stdout, Stderr string
	// ExitCode is the command's exit status (0 when it succeeded).
	ExitCode int
}

// Exec runs command in a container of a running pod, as `kubectl exec` does (through the API
// server and kubelet), and returns what it printed. A command that runs and exits non-zero is no
// error: its ExitCode says so. An error means it could not be run.
func (c *Cluster) Exec(ctx context.Context, namespace, pod, container string, command ...string) (ExecResult, error) {
	req := c.Clientset.CoreV1().RESTClient().Post().Resource("pods").Namespace(namespace).Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Container: container, Command: command, Stdout: true, Stderr: true}, scheme.ParameterCodec)
	exec, err := remotecommand.NewSPDYExecutor(c.Config, "POST", req.URL())
	if err != nil {
		return ExecResult{}, err
	}
	var stdout, stderr bytes.Buffer
	err = exec.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &stdout, Stderr: &stderr})
	res := ExecResult{Stdout: stdout.String(), Stderr: stderr.String()}
	if exitErr, ok := err.(interface{ ExitStatus() int }); ok {
		res.ExitCode = exitErr.ExitStatus()
		return res, nil
	}
	if err != nil {
		return res, fmt.Errorf("exec %s in %s/%s: %w (stderr: %s)", strings.Join(command, " "), namespace, pod, err, strings.TrimSpace(res.Stderr))
	}
	return res, nil
}
