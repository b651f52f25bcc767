package ratelimit

import (
	"net/http"
	"testing"
	"time"
)

// BenchmarkSharedRequest is what the shared schedule adds to a request
// with nothing known: a reservation and an answer, each a locked read and
// write of the file.
func BenchmarkSharedRequest(b *testing.B) {
	l := NewShared(Limits{}, nil, Path(b.TempDir(), "bench"))
	for b.Loop() {
		_, ticket, _ := l.Reserve(100, time.Time{})
		l.Observe(ticket, http.StatusOK, http.Header{})
	}
}
