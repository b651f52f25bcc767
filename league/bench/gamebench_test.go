//go:build unix

package bench_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestBenchGameProgram runs `leaguetui bench --game FILE.json` on a tiny
// league of examples/games/even_odd.json: the built-in even_odd's league
// and the program's, the program's CPU counting its game processes, and
// the verdict against 1.3, in --json (the table's rows are
// TestGameComparisonRows's).
func TestBenchGameProgram(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3 for examples/games/even_odd.py")
	}
	bin := buildLeaguetui(t)
	manifest, err := filepath.Abs(filepath.Join("..", "..", "examples", "games", "even_odd.json"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--game", manifest, "--players", "4", "--referees", "2"}
	var doc map[string]any
	out := runBench(t, bin, nil, append(args, "--json")...)
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if v, _ := number(doc, "program.matches"); v != 6 {
		t.Errorf("program.matches = %v, want 6", lookup(doc, "program.matches"))
	}
	if v, _ := number(doc, "builtin.matches"); v != 6 {
		t.Errorf("builtin.matches = %v, want 6", lookup(doc, "builtin.matches"))
	}
	if v, _ := number(doc, "game_programs_started"); v != 6 {
		t.Errorf("game_programs_started = %v, want 6 (one a match)", lookup(doc, "game_programs_started"))
	}
	// Six Python interpreters cost well over /proc's 10 ms tick.
	if v, ok := number(doc, "program.cpu_per_match_ms_by_role.games"); !ok || v <= 0 {
		t.Errorf("the game processes' CPU per match = %v, want more than 0", lookup(doc, "program.cpu_per_match_ms_by_role.games"))
	}
	if v, _ := number(doc, "builtin.cpu_per_match_ms_by_role.games"); v != 0 {
		t.Errorf("the built-in league's game processes' CPU = %v, want 0", v)
	}
	if targets, _ := doc["targets"].([]any); len(targets) != 1 || lookup(targets[0].(map[string]any), "name") != "game_program_cpu_ratio" {
		t.Errorf("targets = %v", doc["targets"])
	}
}
