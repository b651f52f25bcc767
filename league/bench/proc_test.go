package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseVmHWM(t *testing.T) {
	tests := []struct {
		name   string
		status string
		want   int64
		ok     bool
	}{
		{"present", "Name:\tleaguetui\nVmPeak:\t  800000 kB\nVmHWM:\t   34816 kB\nVmRSS:\t   30000 kB\n", 34816 * 1024, true},
		{"missing", "Name:\tleaguetui\nVmRSS:\t   30000 kB\n", 0, false},
		{"odd unit", "VmHWM:\t 12 MB\n", 0, false},
		{"not a number", "VmHWM:\t lots kB\n", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseVmHWM(strings.NewReader(tt.status))
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: got %d, %v; want %d, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseStatCPU(t *testing.T) {
	// Fields 14 and 15 are 150 and 50 ticks: 2 s at USER_HZ 100. The
	// command name holds a space and a parenthesis, as names may.
	stat := "4242 (lea (gue)tui) S 1 4242 4242 0 -1 4194560 500 0 0 0 150 50 0 0 20 0 9 0 100 800000 5000"
	got, ok := parseStatCPU(stat)
	if !ok || got != 2*time.Second {
		t.Errorf("parseStatCPU = %v, %v; want 2s, true", got, ok)
	}
	if _, ok := parseStatCPU("4242 (short) S 1 2"); ok {
		t.Error("a truncated stat line should not parse")
	}
}

func TestOwnProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc here")
	}
	if peak, ok := PeakMemory(os.Getpid()); !ok || peak <= 0 {
		t.Errorf("PeakMemory(self) = %d, %v", peak, ok)
	}
	if _, ok := CPUTime(os.Getpid()); !ok {
		t.Error("CPUTime(self) not readable")
	}
	if _, ok := PeakMemory(-1); ok {
		t.Error("PeakMemory of no process should be n/a")
	}
	pss, ok := ProportionalMemory(os.Getpid())
	if peak, _ := PeakMemory(os.Getpid()); !ok || pss <= 0 || pss > peak {
		t.Errorf("ProportionalMemory(self) = %d, %v; want more than 0 and at most the peak, %d", pss, ok, peak)
	}
	if _, ok := ProportionalMemory(-1); ok {
		t.Error("ProportionalMemory of no process should be n/a")
	}
}

func TestRequestsServed(t *testing.T) {
	agent := func(served int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/health" {
				http.NotFound(w, r)
				return
			}
			fmt.Fprintf(w, `{"id":"P01","state":"ACTIVE","requests_served":%d}`, served)
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/mcp"
	}
	got, err := RequestsServed(context.Background(), []string{agent(40), agent(2), agent(0)})
	if err != nil || got != 42 {
		t.Errorf("RequestsServed = %d, %v; want 42", got, err)
	}

	referee := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"id":"REF01","state":"ACTIVE","requests_served":5,"turns_played":12}`)
	}))
	defer referee.Close()
	counts, err := HealthCounts(context.Background(), []string{agent(3), referee.URL + "/mcp"})
	if err != nil || counts != (Counts{Served: 8, Turns: 12}) {
		t.Errorf("HealthCounts = %+v, %v; want 8 served and the referee's 12 turns", counts, err)
	}

	old := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"id":"P01","state":"ACTIVE"}`)
	}))
	defer old.Close()
	if _, err := RequestsServed(context.Background(), []string{old.URL + "/mcp"}); err == nil {
		t.Error("an agent without requests_served should be an error, not a silent 0")
	}
}
