package bench

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestVerdictsAgainstTargets: only the targets a league of separate
// processes can meet are verdicts; matches/s and the league/raw ratio,
// which no such league reaches, are none.
func TestVerdictsAgainstTargets(t *testing.T) {
	r := sampleReport() // 126 matches/s, ratio 0.05, 64 players
	r.League.FirstTenth, r.League.LastTenth = 100, 90
	got := map[string]Verdict{}
	for _, v := range r.Verdicts() {
		got[v.Name] = v
	}
	for _, gone := range []string{"matches_per_second", "ratio"} {
		if v, ok := got[gone]; ok {
			t.Errorf("%s is still a target: %+v", gone, v)
		}
	}
	if v := got["last_tenth_to_first"]; !v.Met || v.String() != "met" || v.ShortBy != 1 || v.Target != 0.8 || v.Value != 0.9 {
		t.Errorf("tenths verdict %+v", v)
	}
	r.League.LastTenth = 40
	if v := r.Verdicts()[0]; v.Name != "last_tenth_to_first" || v.Met || v.String() != "short by ×2.00" {
		t.Errorf("a last tenth at 0.4 x the first: %+v, %q", v, v.String())
	}
	if _, ok := got["manager_peak_memory_bytes"]; ok {
		t.Error("the memory target is for 1,000 players, not 64")
	}
	if v := sampleReport().Verdicts(); len(v) != 0 { // no tenths measured, 64 players
		t.Errorf("verdicts of a run no target applies to: %+v", v)
	}
}

func TestMemoryVerdictAtThousandPlayers(t *testing.T) {
	r := sampleReport()
	r.League.Players, r.League.ManagerPeakBytes = 1000, 300_000_000
	var mem Verdict
	for _, v := range r.Verdicts() {
		if v.Name == "manager_peak_memory_bytes" {
			mem = v
		}
	}
	if !mem.AtMost || mem.Met || mem.String() != "short by ×1.50" {
		t.Errorf("memory verdict %+v, %q", mem, mem.String())
	}
	r.League.ManagerPeakBytes = 150_000_000
	if v := r.Verdicts()[len(r.Verdicts())-1]; !v.Met {
		t.Errorf("150 MB should meet the target: %+v", v)
	}
}

func TestVerdictOfNothingMeasured(t *testing.T) {
	if s := atLeast("last_tenth_to_first", 0, TargetTenthsRatio).String(); s != "short: nothing measured" {
		t.Errorf("got %q", s)
	}
}

// TestTableAndJSONCarryVerdicts: the table's verdict column holds the
// targets' verdicts and, beside the league's matches/s and CPU, the
// league against the floor; no row names a target of matches/s or of the
// ratio. --json lists the targets that apply, an empty list when none
// does.
func TestTableAndJSONCarryVerdicts(t *testing.T) {
	r := sampleFloor() // the floor's 1008 matches/s, 8 times the league's; its CPU per match 6.75 times the floor's
	r.League.FirstTenth, r.League.LastTenth = 100, 50
	var table bytes.Buffer
	if err := r.Table(&table); err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]string{"league matches/s": "x8.00 below floor", "league CPU": "x6.75 the floor",
		"last tenth matches/s": "short by ×1.60", "ratio league/raw": ""}
	for _, line := range strings.Split(table.String(), "\n") {
		for figure, want := range verdicts {
			if !strings.HasPrefix(line, figure+"  ") {
				continue
			}
			if want == "" && strings.Contains(line, "short") || !strings.Contains(line, want) {
				t.Errorf("%s: want the verdict %q on %q", figure, want, line)
			}
			delete(verdicts, figure)
		}
	}
	if len(verdicts) != 0 {
		t.Errorf("no rows for %v:\n%s", verdicts, table.String())
	}
	if s := table.String(); strings.Contains(s, "target >=") || strings.Contains(s, "out of reach") {
		t.Errorf("the table still names a target no league of separate processes meets:\n%s", s)
	}
	for _, c := range []struct {
		r    Report
		want []Verdict
	}{
		{r, []Verdict{{Name: "last_tenth_to_first", Target: 0.8, Value: 0.5, ShortBy: 1.6}}},
		{sampleReport(), []Verdict{}},
	} {
		var out bytes.Buffer
		if err := c.r.JSON(&out); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Targets []Verdict `json:"targets"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Targets == nil || !slices.Equal(got.Targets, c.want) {
			t.Errorf("targets = %+v, want %+v", got.Targets, c.want)
		}
	}
}
