package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestTenthsCPU: the CPU per match of the first tenth runs from the start
// to the read at the first tenth, and the last tenth's from the read at the
// ninth to the end, each over the matches between them.
func TestTenthsCPU(t *testing.T) {
	reads := []CPU{
		{Manager: 1 * time.Second, Referees: 2 * time.Second, Players: 3 * time.Second},   // first tenth: +6 s from before
		{Manager: 5 * time.Second, Referees: 10 * time.Second, Players: 15 * time.Second}, // ninth tenth
	}
	tenths := tenthsCPU{before: CPU{}, cpuOf: func() (CPU, bool) {
		read := reads[0]
		reads = reads[1:]
		return read, true
	}}
	for tenth, matches := range []int{0, 100, 200, 300, 400, 500, 600, 700, 800, 900} {
		if tenth > 0 {
			tenths.mark(tenth, matches)
		}
	}
	end := CPU{Manager: 6 * time.Second, Referees: 12 * time.Second, Players: 18 * time.Second} // +6 s after the ninth
	first, last, known := tenths.perMatch(end, 1000, true)
	if !known || first != 60*time.Millisecond || last != 60*time.Millisecond {
		t.Errorf("first %v, last %v a match (known %v), want 60ms each (6 s over 100 matches)", first, last, known)
	}
	if _, _, known := tenths.perMatch(end, 1000, false); known {
		t.Error("with the end's CPU unknown, the tenths' CPU is known")
	}
}

// TestTenthsCPUSkipsWhatItCannotRead: a tenth the bench never saw, or a
// read that failed, leaves both figures out rather than half right.
func TestTenthsCPUSkipsWhatItCannotRead(t *testing.T) {
	failing := tenthsCPU{cpuOf: func() (CPU, bool) { return CPU{}, false }}
	failing.mark(1, 10)
	failing.mark(9, 90)
	if _, _, known := failing.perMatch(CPU{Players: time.Second}, 100, true); known {
		t.Error("failed reads gave a known CPU per match")
	}
	unseen := tenthsCPU{cpuOf: func() (CPU, bool) { return CPU{Players: time.Second}, true }}
	unseen.mark(1, 10)
	if _, _, known := unseen.perMatch(CPU{Players: 2 * time.Second}, 100, true); known {
		t.Error("without the ninth tenth, the CPU per match is known")
	}
}

func TestTableTenthsCPU(t *testing.T) {
	r := sampleReport()
	r.League.FirstTenthCPU, r.League.LastTenthCPU, r.League.TenthsCPUKnown = 5*time.Millisecond, 6*time.Millisecond, true
	var out bytes.Buffer
	if err := r.Table(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"first tenth CPU/match    5.00 ms", "last tenth CPU/match     6.00 ms", "1.20 x the first"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := r.JSON(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"first_tenth_cpu_per_match_ms": 5`, `"last_tenth_cpu_per_match_ms": 6`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, out.String())
		}
	}
}
