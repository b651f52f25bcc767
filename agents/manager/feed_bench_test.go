package manager

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkServeEvents: GET /events for a client that follows the league,
// a page of 16 events of matches (assignments, steps, results with their
// facts) from memory, written as the client reads it.
func BenchmarkServeEvents(b *testing.B) {
	m, reports := leagueToReport(b)
	defer m.closeAll()
	for _, in := range reports[:4] {
		if _, err := m.handleReport(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
	last := m.league.LastSeq()
	path := fmt.Sprintf("/events?after=%d", last-16)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		m.serveEvents(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), fmt.Appendf(nil, `"last_seq":%d`, last)) {
			b.Fatalf("GET %s: %d %.300s", path, rec.Code, rec.Body)
		}
	}
}
