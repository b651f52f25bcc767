package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func sampleReport() Report {
	return Report{
		Raw: RawResult{Concurrency: 32, ExchangeTally: ExchangeTally{Elapsed: 3 * time.Second, Exchanges: 150000}, RequestBytes: 627, ResponseBytes: 405},
		League: LeagueResult{Players: 64, Referees: 8, Matches: 2016, Wall: 16 * time.Second, Exchanges: 40000,
			MatchP50: 80 * time.Millisecond, MatchP99: 150 * time.Millisecond,
			ManagerPeakBytes: 32 << 20, ManagerPeakKnown: true,
			CPU: CPU{Manager: 6 * time.Second, Referees: 9 * time.Second, Players: 12 * time.Second}, CPUKnown: true},
		CPUs: 2,
	}
}

func TestTable(t *testing.T) {
	var out bytes.Buffer
	if err := sampleReport().Table(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"raw HTTP exchanges/s     50000", "league matches/s         126.0", "league HTTP exchanges/s  2500",
		"80.00 ms", "150.00 ms", "32.0 MiB", "27.0 s", "manager 6.0 s, referees 9.0 s, players 12.0 s",
		"13.39 ms per match", "2 CPUs x wall = 32.0 s", "ratio league/raw         0.050",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestTableWithoutProc(t *testing.T) {
	r := sampleReport()
	r.League.ManagerPeakKnown, r.League.CPUKnown = false, false
	var out bytes.Buffer
	if err := r.Table(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "manager peak memory      n/a") || !strings.Contains(out.String(), "league CPU               n/a") {
		t.Errorf("missing /proc should read n/a:\n%s", out.String())
	}
}

func TestJSON(t *testing.T) {
	var out bytes.Buffer
	if err := sampleReport().JSON(&out); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Raw    map[string]float64 `json:"raw"`
		League map[string]any     `json:"league"`
		Ratio  float64            `json:"ratio"`
		CPUs   int                `json:"cpus"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got.Raw["exchanges_per_second"] != 50000 || got.Raw["concurrency"] != 32 || got.Raw["request_bytes"] != 627 {
		t.Errorf("raw = %v", got.Raw)
	}
	want := map[string]float64{"matches": 2016, "wall_seconds": 16, "matches_per_second": 126, "exchanges_per_second": 2500,
		"exchanges_per_match": 40000.0 / 2016, "match_p50_ms": 80, "match_p99_ms": 150, "manager_peak_memory_bytes": 32 << 20}
	for k, v := range want {
		if got.League[k] != v {
			t.Errorf("league.%s = %v, want %v", k, got.League[k], v)
		}
	}
	if got.Ratio != 0.05 || got.CPUs != 2 {
		t.Errorf("ratio %v, cpus %d", got.Ratio, got.CPUs)
	}
}

func TestJSONWithoutProcIsNull(t *testing.T) {
	r := sampleReport()
	r.League.ManagerPeakKnown, r.League.CPUKnown = false, false
	var out bytes.Buffer
	if err := r.JSON(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"manager_peak_memory_bytes": null`, `"cpu_seconds": null`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, out.String())
		}
	}
}
