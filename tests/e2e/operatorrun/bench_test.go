package operatorrun

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BenchmarkOperatorConverges measures, under the operator's own token, the time from a change to
// the moment the server holds the repaired object: a Corefile change of the CoreDNS object until
// ConfigMap coredns carries it, and an admin's edit of Deployment coredns until it is put back.
// It reports the median and p99 of b.N changes of each (run with -benchtime=50x or more), and the
// time from starting the operator to its first status written (lease taken, caches synced, every
// object applied).
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

	var corefile, drift []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		want := fmt.Sprintf("%s# change %d\n", spec.Corefile, i)
		start := time.Now()
		patchSpec(b, map[string]any{"corefile": want})
		for {
			cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
			require.NoError(b, err)
			if cm.Data["Corefile"] == want {
				break
			}
			require.Less(b, time.Since(start), 20*time.Second, "Corefile change %d not applied", i)
		}
		corefile = append(corefile, time.Since(start))

		d := deployment(b)
		d.Spec.Template.Spec.Containers[0].Args = []string{"-conf", fmt.Sprintf("/elsewhere/%d", i)}
		start = time.Now()
		_, err := env.Clientset.AppsV1().Deployments("kube-system").Update(ctx, d, metav1.UpdateOptions{})
		require.NoError(b, err)
		for {
			args := deployment(b).Spec.Template.Spec.Containers[0].Args
			if len(args) == 0 || args[len(args)-1] != fmt.Sprintf("/elsewhere/%d", i) {
				break
			}
			require.Less(b, time.Since(start), 20*time.Second, "drift %d not repaired", i)
		}
		drift = append(drift, time.Since(start))
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
	require.Zero(b, counter.forbidden.Load(), "403 responses to the operator")
}
