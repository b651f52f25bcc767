package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestVerdictsAgainstTargets(t *testing.T) {
	r := sampleReport() // 126 matches/s, ratio 0.05, 64 players
	r.League.FirstTenth, r.League.LastTenth = 100, 90
	got := map[string]Verdict{}
	for _, v := range r.Verdicts() {
		got[v.Name] = v
	}
	if v := got["matches_per_second"]; v.Met || v.String() != "short by ×7.94" {
		t.Errorf("matches/s verdict %+v, %q", v, v.String())
	}
	if v := got["ratio"]; v.Met || v.String() != "short by ×10.00" {
		t.Errorf("ratio verdict %+v, %q", v, v.String())
	}
	if v := got["last_tenth_to_first"]; !v.Met || v.String() != "met" || v.ShortBy != 1 {
		t.Errorf("tenths verdict %+v", v)
	}
	if _, ok := got["manager_peak_memory_bytes"]; ok {
		t.Error("the memory target is for 1,000 players, not 64")
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
	if s := atLeast("matches_per_second", 0, TargetMatchesPerSecond).String(); s != "short: nothing measured" {
		t.Errorf("got %q", s)
	}
}

func TestTableAndJSONCarryVerdicts(t *testing.T) {
	var table bytes.Buffer
	if err := sampleReport().Table(&table); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(table.String(), "\n") {
		if strings.HasPrefix(line, "league matches/s") && !strings.Contains(line, "short by ×7.94") ||
			strings.HasPrefix(line, "ratio league/raw") && !strings.Contains(line, "short by ×10.00") {
			t.Errorf("no verdict on %q", line)
		}
	}
	var out bytes.Buffer
	if err := sampleReport().JSON(&out); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Targets []Verdict `json:"targets"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Targets) != 2 || got.Targets[0].Name != "matches_per_second" || got.Targets[0].Target != 1000 ||
		got.Targets[0].Value != 126 || got.Targets[0].Met || got.Targets[1].Name != "ratio" || got.Targets[1].Target != 0.5 {
		t.Errorf("targets = %+v", got.Targets)
	}
}
