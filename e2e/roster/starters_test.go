package roster_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// starter is the roster entry of one of examples/' starter players.
func starter(t *testing.T, name string, command ...string) map[string]any {
	t.Helper()
	if _, err := exec.LookPath(command[0]); err != nil {
		leaguetest.SkipWithout(t, "no "+command[0]+" to run the "+name+" starter with")
	}
	args := append(command, "--port", "{port}", "--manager", "{manager}", "--name", "{name}", "--data", "{data}")
	return map[string]any{"name": name, "command": args}
}

// TestStartersPlayARosterLeague: the three starter players of examples/
// (Python, Node and Go, standard libraries only) play a whole league from a
// roster beside built-in players, with no technical loss for anyone.
func TestStartersPlayARosterLeague(t *testing.T) {
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	goStarter := leaguetest.GoStarter(t)
	roster := writeRoster(t,
		starter(t, "py-starter", "python3", filepath.Join(examples, "python", "player.py")),
		starter(t, "js-starter", "node", filepath.Join(examples, "node", "player.js")),
		starter(t, "go-starter", goStarter),
		map[string]any{"name": "bob", "strategy": "adaptive"},
		map[string]any{"name": "dan", "strategy": "counter"},
	)
	dataDir := t.TempDir()
	run := startLeaguetui(t, dataDir, nil, append([]string{"--no-ui", "--data", dataDir, "--seed", "5",
		"--roster", roster, "--referees", "2"}, fast...)...)
	run.wait(t)
	rows := rowsByName(readStandings(t, dataDir))
	for _, name := range []string{"py-starter", "js-starter", "go-starter", "bob", "dan"} {
		row, ok := rows[name]
		switch {
		case !ok:
			t.Errorf("%s is not in the standings: %v", name, rows)
		case row.Played != 4 || row.TechnicalLosses != 0:
			t.Errorf("%s played %d matches with %d technical losses; want 4 and none", name, row.Played, row.TechnicalLosses)
		}
	}
}

// TestRelativeDataFolderIsAbsoluteToPrograms: leaguetui started with a
// relative --data gives a roster program running in a folder of its own
// (its "dir") an absolute {data}, so the Python starter, which saves its
// credentials there as joining.md asks, saves them in its folder of the
// league's data folder and plays with no technical loss.
func TestRelativeDataFolderIsAbsoluteToPrograms(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		leaguetest.SkipWithout(t, "no python3 to run the Python starter with")
	}
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples", "python"))
	if err != nil {
		t.Fatal(err)
	}
	py := map[string]any{"name": "py-starter", "dir": examples, "command": []string{"python3", "player.py",
		"--port", "{port}", "--manager", "{manager}", "--name", "{name}", "--data", "{data}"}}
	roster := writeRoster(t, py, map[string]any{"name": "bob", "strategy": "counter"})
	parent := t.TempDir()
	dataDir := filepath.Join(parent, "league")
	run := startLeaguetuiIn(t, parent, dataDir, nil, append([]string{"--no-ui", "--data", "league", "--seed", "5",
		"--roster", roster}, fast...)...)
	run.wait(t)
	row, ok := rowsByName(readStandings(t, dataDir))["py-starter"]
	if !ok || row.Played == 0 || row.TechnicalLosses != 0 {
		t.Errorf("py-starter: %+v (in the standings: %v); want matches played and no technical loss", row, ok)
	}
	saved, err := filepath.Glob(filepath.Join(dataDir, "programs", "*", "credentials-py-starter.json"))
	if err != nil || len(saved) != 1 {
		t.Errorf("the starter's credentials under %s/programs: %v %v; want one file", dataDir, saved, err)
	}
	if leaked, _ := filepath.Glob(filepath.Join(examples, "league", "*")); len(leaked) > 0 {
		t.Errorf("the program wrote into its own folder, under the relative path: %v", leaked)
	}
}
