package channels

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

// An object the server is still deleting when an addon applies it (a retired addon's orphaning
// delete waits for the garbage collector) is applied again once it is gone, so the addon does not
// end up without it. The test holds the deletion with a finalizer of its own and releases it while
// the apply waits; before the fix the apply returned at once and the ConfigMap then vanished.
func TestApplyWaitsOutADeletionInProgress(t *testing.T) {
	const ns, name, hold = "e2e-terminating", "held", "e2e.kops.k8s.io/hold"
	createNamespace(t, ns)
	ctx := framework.Context(t)
	cms := env.Clientset.CoreV1().ConfigMaps(ns)
	_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Finalizers: []string{hold}}}, metav1.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, cms.Delete(ctx, name, metav1.DeleteOptions{}))
	terminating, err := cms.Get(ctx, name, metav1.GetOptions{})
	require.NoError(t, err)
	require.NotNil(t, terminating.DeletionTimestamp, "the ConfigMap is being deleted")

	released := make(chan error, 1)
	go func() {
		time.Sleep(500 * time.Millisecond)
		patch, _ := json.Marshal(map[string]interface{}{"metadata": map[string]interface{}{"finalizers": nil}})
		_, err := cms.Patch(context.Background(), name, types.MergePatchType, patch, metav1.PatchOptions{})
		released <- err
	}()

	mem := &vfs.MemFS{}
	location := testChannel(t, mem, "terminating", ns, [][2]string{{"held", configMap(ns, name, "held")}}, nil)
	run := kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, <-released)
	require.NoError(t, run.Err, run.Output)

	got, err := cms.Get(ctx, name, metav1.GetOptions{})
	if assert.NoError(t, err, "the addon's ConfigMap exists after the apply") {
		assert.Nil(t, got.DeletionTimestamp, "it is a new object, not the one being deleted")
		assert.NotEqual(t, terminating.UID, got.UID)
		assert.Equal(t, "b", got.Data["a"])
	}
}
