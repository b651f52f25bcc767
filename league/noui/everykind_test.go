package noui_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/process"
)

// TestResumeEveryKindOfLeague starts a league of each kind — built-in
// players, a roster with a program player, open seats taken by outside
// players, a link race — each with flags that shape it (games per pair,
// roster, open seats, game), interrupts it with Ctrl-C (SIGINT), runs the
// resume command it printed exactly as printed, kills that run with
// SIGKILL, and runs the command again. No flag is repeated: the data
// folder remembers them. The league ends with the standings and match
// results of an uninterrupted run of the same seed, and no match is a
// technical loss: the program player and the outside players, back on new
// ports, are waited for and called there.
func TestResumeEveryKindOfLeague(t *testing.T) {
	t.Parallel()
	for _, kind := range []struct {
		name    string
		args    func(t *testing.T) []string
		outside []string // players the test registers from outside, on each run's "register at"
	}{
		{name: "built-in", args: func(*testing.T) []string { return []string{"--players", "4"} }},
		{name: "roster with a program player", args: func(t *testing.T) []string {
			return []string{"--roster", programRoster(t)}
		}},
		{name: "open seats", outside: []string{"carol", "dave"}, args: func(*testing.T) []string {
			return []string{"--players", "2", "--open-seats", "2"}
		}},
		{name: "link race", args: func(*testing.T) []string {
			return []string{"--players", "4", "--game", "link_race"}
		}},
	} {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			start := append([]string{"--no-ui", "--free-ports", "--seed", "31", "--referees", "2", "--games-per-pair", "4",
				"--retry-delay", "50ms"}, kind.args(t)...)
			outside := outsidePlayers{names: kind.outside, dir: t.TempDir()}

			want := t.TempDir()
			whole := startHeadless(t, append(start, "--data", want)...)
			outside.join(t, whole)
			if status, stderr := whole.wait(t); status != 0 {
				t.Fatalf("uninterrupted run: exit status %d\n%s", status, stderr)
			}

			dir := t.TempDir()
			first := startHeadless(t, append(start, "--data", dir)...)
			outside.join(t, first)
			first.waitForLine(t, "[3/")
			if err := first.cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			status, stderr := first.wait(t)
			resume := printedResume(t, stderr)
			if status != 130 || resume == nil {
				t.Fatalf("after Ctrl-C: exit status %d, want 130 and a resume command\n%s", status, stderr)
			}

			second := startHeadless(t, resume...)
			outside.join(t, second)
			second.waitForLine(t, "[")
			second.killRun(t)

			last := startHeadless(t, resume...)
			outside.join(t, last)
			status, stderr = last.wait(t)
			if status != 0 || !strings.Contains(stderr, "leaguetui: resuming league") {
				t.Fatalf("the resume command after SIGKILL: exit status %d, want 0 and the league resumed\n%s", status, stderr)
			}
			t.Logf("resumed twice with: leaguetui %s", strings.Join(resume, " "))
			got, wanted := finalLeague(t, dir), finalLeague(t, want)
			if !slices.Equal(got.standings, wanted.standings) {
				t.Errorf("standings after the resumes:\n%s\nuninterrupted:\n%s", strings.Join(got.standings, "\n"), strings.Join(wanted.standings, "\n"))
			}
			if !maps.Equal(got.results, wanted.results) {
				t.Errorf("match results after the resumes differ from an uninterrupted run's:\n got %v\nwant %v", got.results, wanted.results)
			}
			for id, r := range got.results {
				if strings.Contains(r, "TECHNICAL_LOSS") {
					t.Errorf("%s: %s", id, r)
				}
			}
		})
	}
}

// programRoster is a roster of three built-in players and one program,
// leaguetui's own player started as any program is, saving its
// credentials in its own {data} folder.
func programRoster(t *testing.T) string {
	t.Helper()
	program := []string{leaguetest.Binary(t), "player", "--port", "{port}", "--manager", "{manager}", "--name", "{name}",
		"--data", "{data}", "--strategy", "random", "--seed", "31"}
	roster := map[string]any{"players": []map[string]any{
		{"name": "P01", "strategy": "random"},
		{"name": "prog", "command": program},
		{"name": "P03", "strategy": "counter"},
		{"name": "P04", "strategy": "random"},
	}}
	return leaguetest.WriteJSON(t, roster)
}

// outsidePlayers are players the test runs itself, each with its own data
// folder kept across runs (its credentials bring it back as itself).
type outsidePlayers struct {
	names   []string
	dir     string
	running []*process.Child
}

// join waits for the run to say where to register, stops the players of
// the run before (their manager is gone) and starts them there.
func (o *outsidePlayers) join(t *testing.T, p *headlessProcess) {
	t.Helper()
	if len(o.names) == 0 {
		return
	}
	line := p.lineWith(t, "register at ")
	url := strings.Fields(line[strings.Index(line, "register at ")+len("register at "):])[0]
	for _, c := range o.running {
		_ = c.Stop(5 * time.Second)
	}
	o.running = nil
	for _, name := range o.names {
		o.running = append(o.running, leaguetest.StartPlayer(t, filepath.Join(o.dir, name), url, name,
			"--strategy", "random", "--seed", "31"))
	}
}

// lineWith waits for a stderr line holding s and returns it.
func (p *headlessProcess) lineWith(t *testing.T, s string) string {
	t.Helper()
	for {
		select {
		case line := <-p.lines:
			if strings.Contains(line, s) {
				return line
			}
		case <-p.done:
			t.Fatalf("leaguetui ended before printing %q:\n%s", s, p.stderr.String())
		}
	}
}

// printedResume is the resume command the last line of stderr gives, as
// arguments for the binary; nil when there is none.
func printedResume(t *testing.T, stderr string) []string {
	t.Helper()
	said := regexp.MustCompile(`resume with: leaguetui (.*)$`).FindStringSubmatch(strings.TrimSpace(stderr))
	if said == nil {
		return nil
	}
	return strings.Fields(said[1])
}

// leagueOutcome is what an uninterrupted run and a resumed one must agree
// on: each standings row (rank, player, name, results, points) and each
// match file's players and result.
type leagueOutcome struct {
	standings []string
	results   map[string]string
}

func finalLeague(t *testing.T, dir string) leagueOutcome {
	t.Helper()
	leagues, err := filepath.Glob(filepath.Join(dir, "leagues", "*", "standings.json"))
	if err != nil || len(leagues) != 1 {
		t.Fatalf("want one league in %s, found %v (%v)", dir, leagues, err)
	}
	var st struct {
		State     string `json:"state"`
		Standings []struct {
			Rank                                int
			PlayerID                            string `json:"player_id"`
			DisplayName                         string `json:"display_name"`
			Played, Wins, Draws, Losses, Points int
			TechnicalLosses                     int `json:"technical_losses"`
		} `json:"standings"`
	}
	readJSON(t, leagues[0], &st)
	if st.State != "completed" {
		t.Errorf("%s: state %q, want completed", leagues[0], st.State)
	}
	out := leagueOutcome{results: map[string]string{}}
	for _, r := range st.Standings {
		out.standings = append(out.standings, fmt.Sprintf("%d %s %s played %d W%d D%d L%d TL%d %d points", r.Rank, r.PlayerID,
			r.DisplayName, r.Played, r.Wins, r.Draws, r.Losses, r.TechnicalLosses, r.Points))
	}
	league := filepath.Base(filepath.Dir(leagues[0]))
	matches, err := filepath.Glob(filepath.Join(dir, "matches", league, "*.json"))
	if err != nil || len(matches) == 0 {
		t.Fatalf("no match files in %s (%v)", dir, err)
	}
	for _, path := range matches {
		var m struct {
			MatchID string            `json:"match_id"`
			Players map[string]string `json:"players"`
			Result  struct {
				Status string          `json:"status"`
				Winner *string         `json:"winner_player_id"`
				Score  json.RawMessage `json:"score"`
			} `json:"result"`
		}
		readJSON(t, path, &m)
		winner := "none"
		if m.Result.Winner != nil {
			winner = *m.Result.Winner
		}
		out.results[m.MatchID] = fmt.Sprintf("%v %s winner %s score %s", m.Players, m.Result.Status, winner, m.Result.Score)
	}
	return out
}

// TestRememberedFlagsRefuseAnotherLeague runs a league to its end, then
// runs leaguetui again on its folder: a flag that would make another
// league (other games per pair, another game) is refused with one line
// and exit status 2 before anything starts; a flag that only changes how
// the run goes (a timeout) is taken.
func TestRememberedFlagsRefuseAnotherLeague(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first := startHeadless(t, "--no-ui", "--free-ports", "--data", dir, "--seed", "5", "--players", "3", "--games-per-pair", "2")
	if status, stderr := first.wait(t); status != 0 {
		t.Fatalf("first run: exit status %d\n%s", status, stderr)
	}
	for flag, want := range map[string]string{
		"--games-per-pair=3": "--games-per-pair 3 (it was started with --games-per-pair 2)",
		"--game=link_race":   "--game link_race (it was started without --game)",
	} {
		run := startHeadless(t, "--no-ui", "--free-ports", "--data", dir, flag)
		status, stderr := run.wait(t)
		if lines := strings.Split(strings.TrimSpace(stderr), "\n"); status != 2 || len(lines) != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s on the folder: exit status %d, stderr %q; want 2 and one line saying %q", flag, status, stderr, want)
		}
	}
	again := startHeadless(t, "--no-ui", "--free-ports", "--data", dir, "--move-timeout", "2s")
	if status, stderr := again.wait(t); status != 0 || !strings.Contains(stderr, "completed before this run") {
		t.Errorf("--move-timeout on the folder: exit status %d, want 0 and its league shown\n%s", status, stderr)
	}
}
