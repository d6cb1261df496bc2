package allocbound

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

var sink []byte

func TestBytesSeesAllocations(t *testing.T) {
	got := Bytes(func() { sink = make([]byte, 64<<20) })
	assert.GreaterOrEqual(t, got, uint64(64<<20))
	assert.Less(t, got, uint64(65<<20))
}

func TestCheck(t *testing.T) {
	cases := []struct {
		name     string
		inputLen int
		alloc    int
		fails    bool
	}{
		{"small input, small work", 10, 1 << 10, false},
		{"large input, proportional work", 64 << 10, 32 << 20, false},
		{"small input, large work", 10, 32 << 20, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			Check(rec, tc.inputLen, func() { sink = make([]byte, tc.alloc) })
			assert.Equal(t, tc.fails, rec.failed)
		})
	}
}

// recorder notes a failure instead of failing the test that holds it.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()                           {}
func (r *recorder) Errorf(format string, args ...any) { r.failed = true }
