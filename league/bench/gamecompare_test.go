package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// sampleComparison is a built-in league of 100 matches at 5 ms of CPU a
// match beside a program's at 7 ms, 1.5 ms of which the game programs'.
func sampleComparison() GameComparison {
	b := LeagueResult{Game: "even_odd", Players: 16, Referees: 4, Matches: 100, Wall: time.Second, CPUKnown: true,
		CPU: CPU{Manager: 100 * time.Millisecond, Referees: 200 * time.Millisecond, Players: 200 * time.Millisecond}}
	p := b
	p.Game, p.Wall = "even_odd_program", 2*time.Second
	p.CPU = CPU{Manager: 100 * time.Millisecond, Referees: 250 * time.Millisecond, Players: 200 * time.Millisecond, Games: 150 * time.Millisecond}
	return GameComparison{Builtin: b, Program: p, Manifest: "/x/even_odd.json", Programs: 100,
		StartCPU: time.Millisecond, StartRuns: 20, StartKnown: true, CPUs: 2}
}

// TestGameComparisonVerdict: the program's CPU per match ÷ the built-in
// game's is met at 1.3 or under and short by the factor over it.
func TestGameComparisonVerdict(t *testing.T) {
	c := sampleComparison() // 7 ms ÷ 5 ms
	if r := c.CPURatio(); r < 1.399 || r > 1.401 {
		t.Fatalf("CPURatio = %v, want 1.4", r)
	}
	if v := c.Verdict(); v.Met || v.Name != "game_program_cpu_ratio" || !v.AtMost || v.Target != 1.3 || v.String() != "short by ×1.08" {
		t.Errorf("verdict at 1.4: %+v %q", v, v)
	}
	c.Program.CPU.Games = 150*time.Millisecond - 100*time.Millisecond // 6.5 ms: exactly 1.3
	if v := c.Verdict(); !v.Met || v.String() != "met" || v.ShortBy != 1 {
		t.Errorf("verdict at 1.3: %+v", v)
	}
	c.Builtin.CPUKnown = false
	if v := c.Verdict(); v.Met {
		t.Errorf("a verdict without the built-in league's CPU: %+v", v)
	}
}

// TestGameComparisonRows: the table and the JSON split each league's CPU
// per match into the game processes, referees, players and manager, and
// end with the verdict line.
func TestGameComparisonRows(t *testing.T) {
	c := sampleComparison()
	var table bytes.Buffer
	if err := c.Table(&table); err != nil {
		t.Fatal(err)
	}
	out := table.String()
	for _, want := range []string{
		"league CPU per match            5.00 ms  7.00 ms  2.00 ms",
		"game processes                0.00 ms  1.50 ms  1.50 ms",
		"referees                      2.00 ms  2.50 ms  0.50 ms",
		"players                       2.00 ms  2.00 ms  0.00 ms",
		"manager                       1.00 ms  1.00 ms  0.00 ms",
		"cutime+cstime", "game programs started", "1.00 a match", "program start and exit", "1.00 ms",
		"verdict: a league of the game program costs 1.40 x the CPU per match of the built-in even_odd (target at most 1.3): short by ×1.08",
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	var js bytes.Buffer
	if err := c.JSON(&js); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Builtin, Program struct {
			Game   string                                              `json:"game"`
			CPU    float64                                             `json:"cpu_per_match_ms"`
			ByRole struct{ Games, Referees, Players, Manager float64 } `json:"cpu_per_match_ms_by_role"`
		}
		Started int       `json:"game_programs_started"`
		Start   float64   `json:"program_start_cpu_ms"`
		Ratio   float64   `json:"cpu_per_match_ratio"`
		Targets []Verdict `json:"targets"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, js.String())
	}
	p := doc.Program
	if p.Game != "even_odd_program" || p.CPU != 7 || p.ByRole.Games != 1.5 || p.ByRole.Referees != 2.5 || p.ByRole.Players != 2 || p.ByRole.Manager != 1 ||
		doc.Builtin.CPU != 5 || doc.Builtin.ByRole.Games != 0 || doc.Started != 100 || doc.Start != 1 ||
		len(doc.Targets) != 1 || doc.Targets[0].Met || doc.Targets[0].Name != "game_program_cpu_ratio" {
		t.Errorf("JSON:\n%s", js.String())
	}
}

// TestParseStatChildrenCPU reads cutime and cstime, fields 16 and 17.
func TestParseStatChildrenCPU(t *testing.T) {
	stat := "4242 (lea gue) S 1 2 3 4 5 6 7 8 9 10 11 12 300 45 20 0 1 0 100"
	if cpu, ok := parseStatChildrenCPU(stat); !ok || cpu != 3450*time.Millisecond {
		t.Errorf("parseStatChildrenCPU = %v, %v, want 3.45s", cpu, ok)
	}
	if own, ok := parseStatCPU(stat); !ok || own != 230*time.Millisecond {
		t.Errorf("parseStatCPU = %v, %v, want 230ms (fields 14 and 15)", own, ok)
	}
	if _, ok := parseStatChildrenCPU("4242 (x) S 1 2 3"); ok {
		t.Error("a short stat line read")
	}
}
