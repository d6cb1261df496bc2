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
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"k8s.io/kops/pkg/addons/coredns"
)

// waitFor waits on w until an event's object satisfies done, failing after 20 s.
func waitFor(b *testing.B, w watch.Interface, what string, done func(runtime.Object) bool) {
	timeout := time.After(20 * time.Second)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(b, ok, "%s: the watch ended", what)
			if ev.Type != watch.Error && done(ev.Object) {
				return
			}
		case <-timeout:
			b.Fatalf("%s: not seen within 20s", what)
		}
	}
}

// BenchmarkOperatorConverges measures, under the operator's own token, the time from a change to
// the moment the server holds the repaired object: a Corefile change of the CoreDNS object until
// ConfigMap coredns carries it, and an admin's edit of Deployment coredns until it is put back.
// The test sees each object through a watch opened before the change (no polling that would
// compete with the operator for the server). It reports the median and p99 of b.N changes of each
// (run with -benchtime=50x or more), the operator's requests per change, and the time from
// starting the operator to its first status written (lease taken, caches synced, every object
// applied).
func BenchmarkOperatorConverges(b *testing.B) {
	applyOperatorAddons(b, "addon-operators", false)
	counter := &statusCounter{}
	spec := coreDNS(b).Spec
	ctx := context.Background()
	cfg := operatorConfig(b, counter)
	clearStatus(b) // the tests of this package may have run on this server first
	started := time.Now()
	startOperator(b, cfg, fmt.Sprintf("bench-%d", time.Now().UnixNano()))
	eventually(b, "first reconcile", func() string {
		if coreDNS(b).Status == nil {
			return "no status"
		}
		return ""
	})
	startup := time.Since(started)
	byName := func(name string) metav1.ListOptions {
		return metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("metadata.name", name).String()}
	}
	configMaps := env.Clientset.CoreV1().ConfigMaps("kube-system")
	deployments := env.Clientset.AppsV1().Deployments("kube-system")

	var corefile, drift []time.Duration
	requestsBefore := counter.total.Load()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		want := fmt.Sprintf("%s# change %d\n", spec.Corefile, i)
		// A Corefile change ends with the Deployment's pod template carrying its checksum, which
		// the operator writes after the ConfigMap.
		w, err := deployments.Watch(ctx, byName("coredns"))
		require.NoError(b, err)
		start := time.Now()
		patchSpec(b, corefileSpec(want))
		waitFor(b, w, fmt.Sprintf("Corefile change %d", i), func(o runtime.Object) bool {
			d, ok := o.(*appsv1.Deployment)
			return ok && d.Spec.Template.Annotations[coredns.CorefileChecksumAnnotation] == coredns.CorefileChecksum(want)
		})
		corefile = append(corefile, time.Since(start))
		w.Stop()
		cm, err := configMaps.Get(ctx, "coredns", metav1.GetOptions{})
		require.NoError(b, err)
		require.Equal(b, want, cm.Data["Corefile"], "the ConfigMap is written before the Deployment")

		d := deployment(b)
		edited := fmt.Sprintf("/elsewhere/%d", i)
		d.Spec.Template.Spec.Containers[0].Args = []string{"-conf", edited}
		w, err = deployments.Watch(ctx, metav1.ListOptions{FieldSelector: byName("coredns").FieldSelector, ResourceVersion: d.ResourceVersion})
		require.NoError(b, err)
		start = time.Now()
		_, err = deployments.Update(ctx, d, metav1.UpdateOptions{})
		require.NoError(b, err)
		waitFor(b, w, fmt.Sprintf("drift %d repaired", i), func(o runtime.Object) bool {
			d, ok := o.(*appsv1.Deployment)
			if !ok || len(d.Spec.Template.Spec.Containers) == 0 {
				return false
			}
			args := d.Spec.Template.Spec.Containers[0].Args
			return len(args) == 0 || args[len(args)-1] != edited
		})
		drift = append(drift, time.Since(start))
		w.Stop()
	}
	b.StopTimer()
	report := func(name string, ds []time.Duration) {
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, name+"-median-ms")
		b.ReportMetric(float64(ds[(len(ds)*99)/100].Microseconds())/1000, name+"-p99-ms")
	}
	// After the loop: ResetTimer drops metrics reported before it.
	b.ReportMetric(float64(startup.Microseconds())/1000, "start-to-first-status-ms")
	report("corefile", corefile)
	report("drift", drift)
	b.ReportMetric(float64(counter.total.Load()-requestsBefore)/float64(2*b.N), "operator-requests/change")
	require.Zero(b, counter.forbidden.Load(), "403 responses to the operator")
}
