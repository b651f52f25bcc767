package noui_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/noui"
)

// The resume tests kill `leaguetui --no-ui` (or its manager) with SIGKILL
// at moments they observe (a line on stderr, a line in the journal), run
// it again on the same data folder, and check that the league ends as an
// uninterrupted run of the same seed.

// killRun kills a run with SIGKILL and waits until its agents, which die
// with it, are gone: the data folder's lock is free again then.
func (p *headlessProcess) killRun(t *testing.T) {
	t.Helper()
	children, err := leaguetest.ChildPIDs(p.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.wait(t)
	for _, pid := range children {
		awaitExit(t, pid, 10*time.Second)
	}
}

// journalEvents reads the league's journal as it is now; a torn last line
// (a write under way) is left out.
func journalEvents(t *testing.T, dir string) []engine.Event {
	t.Helper()
	data, err := os.ReadFile(store.Layout{Root: dir, LeagueID: leagueID}.Journal())
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var events []engine.Event
	for line := range bytes.Lines(data) {
		var ev engine.Event
		if !bytes.HasSuffix(line, []byte("\n")) || json.Unmarshal(line, &ev) != nil {
			break
		}
		events = append(events, ev)
	}
	return events
}

// registrations counts the journal's agent_registered events.
func registrations(events []engine.Event) int {
	n := 0
	for _, ev := range events {
		if ev.Kind == engine.EventAgentRegistered {
			n++
		}
	}
	return n
}

// awaitJournal polls the journal, every millisecond, until ready says
// what it holds is the moment looked for, and fails the test if the run
// ends first or runTimeout passes.
func (p *headlessProcess) awaitJournal(t *testing.T, dir string, ready func([]engine.Event) bool) {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(runTimeout)
	for {
		if ready(journalEvents(t, dir)) {
			return
		}
		select {
		case <-tick.C:
		case <-p.done:
			t.Fatalf("leaguetui ended before the moment looked for:\n%s", p.stderr.String())
		case <-deadline:
			t.Fatalf("the journal did not reach the moment looked for within %s", runTimeout)
		}
	}
}

// TestResumeSurvivesKillsAnywhere kills `leaguetui --no-ui` with SIGKILL
// at one moment after another of a league, its first registrations
// (just as the journal takes an agent's, when the agent may not have saved
// its credentials yet), its play, the window in which a resumed league's agents register again
// (just as the journal takes a player's new token, when the player may not
// have saved it yet), and just as it completes, and runs it again each
// time. The league ends with the standings, match files and histories of
// an uninterrupted run of the same seed, and the last run, on a league
// completed before it, prints those standings and exits 0.
func TestResumeSurvivesKillsAnywhere(t *testing.T) {
	t.Parallel()
	if !leaguetest.HaveProc() {
		t.Skip("needs Linux /proc to see the agents die")
	}
	const players, referees, seed = 8, 2, 47
	dir := t.TempDir()
	full := leaguetest.Args("--no-ui", "--free-ports", "--data", dir, "--seed", seed, "--players", players, "--referees", referees)
	resume := []string{"--no-ui", "--free-ports", "--data", dir}
	started := func(events []engine.Event) bool {
		return slices.ContainsFunc(events, func(ev engine.Event) bool { return ev.Kind == engine.EventLeagueStarted })
	}
	// reregistered is the moment the journal takes the n-th registration
	// of a player in this run.
	reregistered := func(n int) func(*headlessProcess) {
		return func(p *headlessProcess) {
			before := len(journalEvents(t, dir))
			p.awaitJournal(t, dir, func(events []engine.Event) bool {
				seen := 0
				for _, ev := range events[min(before, len(events)):] {
					if ev.Kind == engine.EventAgentRegistered && ev.Agent.Role == engine.RolePlayer {
						seen++
					}
				}
				return seen >= n
			})
		}
	}
	moments := []struct {
		name string
		at   func(*headlessProcess)
	}{
		{"registering", func(p *headlessProcess) {
			// As the journal takes the fourth agent's first registration,
			// when the agent may not have saved what it was issued yet.
			p.awaitJournal(t, dir, func(events []engine.Event) bool { return registrations(events) >= 4 })
		}},
		{"playing", func(p *headlessProcess) { p.waitForLine(t, "[") }},
		{"first player registering again", reregistered(1)},
		{"fifth player registering again", reregistered(5)},
		{"playing after a resume", func(p *headlessProcess) { p.waitForLine(t, "[") }},
		{"completing", func(p *headlessProcess) { p.waitForLine(t, "league completed") }},
	}
	for _, m := range moments {
		args := resume
		if !started(journalEvents(t, dir)) {
			args = full // a league not started yet has no seed of its own: the command is run again as it was
		}
		p := startHeadless(t, args...)
		m.at(p)
		p.killRun(t)
		t.Logf("killed %s: %d events in the journal; %d agents had not saved the token it holds for them",
			m.name, len(journalEvents(t, dir)), unsavedTokens(t, dir))
	}
	last := startHeadless(t, resume...)
	status, stderr := last.wait(t)
	if status != 0 || !strings.Contains(stderr, "completed before this run") {
		t.Fatalf("the run after the kill as the league completed: exit status %d, want 0 and the league said completed\n%s", status, stderr)
	}
	assertNoAgentLeft(t, dir)
	got := checkLeagueFiles(t, dir, players)
	want := runHeadless(t, players, referees, seed)
	compareLeagues(t, dir, want.dataDir, got, checkLeagueFiles(t, want.dataDir, players), players)
	if last.stdout.String() != want.stdout {
		t.Errorf("the last run prints\n%s\nthe uninterrupted run printed\n%s", last.stdout.String(), want.stdout)
	}
}

// TestStuckCredentialsResume (issue 24, item 3): a data folder left by a
// leaguetui killed while a resumed league's players registered again, with
// a journal that holds a player's new token and a credentials file that
// holds the one before (the player died before it saved the new one, and
// the manager of that time journaled no prior token), resumes: the player
// registers again as itself with the token it saved, and the league ends
// as an uninterrupted run of the same seed.
func TestStuckCredentialsResume(t *testing.T) {
	t.Parallel()
	const players, referees, seed = 6, 2, 23
	dir := t.TempDir()
	first := startHeadless(t, leaguetest.Args("--no-ui", "--free-ports", "--data", dir, "--seed", seed,
		"--players", players, "--referees", referees)...)
	first.waitForLine(t, "[3/")
	if err := first.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if status, stderr := first.wait(t); status != 130 {
		t.Fatalf("exit status %d after Ctrl-C, want 130\n%s", status, stderr)
	}

	// P02 registered again and was given a new token; the journal took it
	// as the manager did before prior tokens were journaled; P02 never
	// saved it.
	layout := store.Layout{Root: dir, LeagueID: leagueID}
	events := journalEvents(t, dir)
	var p02 engine.AgentInfo
	for _, ev := range events {
		if ev.Kind == engine.EventAgentRegistered && ev.Agent.ID == "P02" {
			p02 = *ev.Agent
		}
	}
	credsPath, err := layout.Credentials("P02")
	if err != nil {
		t.Fatal(err)
	}
	saved, ok, err := store.LoadCredentials(credsPath)
	if err != nil || !ok || hashOf(saved.AuthToken) != p02.TokenHash {
		t.Fatalf("P02's credentials (%v, %v) do not hold the token the journal has", ok, err)
	}
	p02.TokenHash, p02.PriorTokenHash = hashOf("tok-never-saved"), ""
	appendToJournal(t, layout, engine.Event{Seq: int64(len(events) + 1), Time: time.Now().UTC(),
		Kind: engine.EventAgentRegistered, Agent: &p02})

	second := startHeadless(t, "--no-ui", "--free-ports", "--data", dir)
	if status, stderr := second.wait(t); status != 0 {
		t.Fatalf("the folder whose journal and credentials disagree does not resume: exit status %d\n%s", status, stderr)
	}
	assertNoAgentLeft(t, dir)
	got := checkLeagueFiles(t, dir, players)
	wantDir := runHeadless(t, players, referees, seed).dataDir
	compareLeagues(t, dir, wantDir, got, checkLeagueFiles(t, wantDir, players), players)
}

// unsavedTokens counts the agents whose credentials file does not hold
// the token the journal issued them last: those killed between the two.
func unsavedTokens(t *testing.T, dir string) int {
	t.Helper()
	latest := map[string]engine.AgentInfo{}
	for _, ev := range journalEvents(t, dir) {
		if ev.Kind == engine.EventAgentRegistered {
			latest[ev.Agent.DisplayName] = *ev.Agent
		}
	}
	layout := store.Layout{Root: dir, LeagueID: leagueID}
	n := 0
	for name, a := range latest {
		path, err := layout.Credentials(name)
		if err != nil {
			t.Fatal(err)
		}
		if creds, ok, _ := store.LoadCredentials(path); !ok || hashOf(creds.AuthToken) != a.TokenHash {
			n++
		}
	}
	return n
}

func hashOf(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// appendToJournal appends ev to the league's journal, as its manager would.
func appendToJournal(t *testing.T, layout store.Layout, ev engine.Event) {
	t.Helper()
	journal, _, err := store.OpenJournal(layout.Journal())
	if err != nil {
		t.Fatal(err)
	}
	if err := journal.Append(ev); err != nil {
		t.Fatal(err)
	}
	if err := journal.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCompletedLeagueRerun (issue 24, item 4): `leaguetui --no-ui` killed
// with SIGKILL just as it says "league completed" is run again on the same
// data folder: it prints the league's final standings, exits 0 and starts
// no agent: nothing registers in the finished league's journal. Its files
// end as an uninterrupted run's (histories the players had no time to
// write are rebuilt from the journal, with their strategies), and a run on
// a folder that is right writes nothing (the journal, match files,
// histories and credentials are as they were, no file is added but logs).
func TestCompletedLeagueRerun(t *testing.T) {
	t.Parallel()
	const players, referees, seed = 4, 2, 29
	dir := t.TempDir()
	first := startHeadless(t, leaguetest.Args("--no-ui", "--free-ports", "--data", dir, "--seed", seed,
		"--players", players, "--referees", referees)...)
	first.waitForLine(t, "league completed")
	first.killRun(t)
	// The kill may have come before the players wrote their last
	// matches: a first run on the folder repairs their histories from
	// the journal (which the uninterrupted run's players write), and a
	// second one writes nothing.
	repair := startHeadless(t, "--no-ui", "--free-ports", "--data", dir)
	if status, stderr := repair.wait(t); status != 0 {
		t.Fatalf("first rerun: exit status %d\n%s", status, stderr)
	}
	want := runHeadless(t, players, referees, seed).dataDir
	compareLeagues(t, dir, want, checkLeagueFiles(t, dir, players), checkLeagueFiles(t, want, players), players)
	before := leagueFacts(t, dir)

	for _, json := range []bool{false, true} {
		args := []string{"--no-ui", "--free-ports", "--data", dir}
		if json {
			args = append(args, "--json")
		}
		rerun := startHeadless(t, args...)
		status, stderr := rerun.wait(t)
		if status != 0 || !strings.Contains(stderr, "completed before this run") {
			t.Fatalf("rerun %v: exit status %d, want 0 and the league said completed before\n%s", args, status, stderr)
		}
		var standings standingsFile
		readJSON(t, filepath.Join(dir, "leagues", leagueID, "standings.json"), &standings)
		if standings.State != "completed" {
			t.Errorf("standings.json says %s after the rerun", standings.State)
		}
		checkPrintsStandings(t, rerun.stdout.String(), standings, json)
		if strings.Contains(stderr, "resuming") {
			t.Errorf("rerun %v resumed the league:\n%s", args, stderr)
		}
		after := leagueFacts(t, dir)
		for path, data := range after {
			if b, ok := before[path]; !ok || b != data {
				t.Errorf("rerun %v wrote %s (there before: %v)", args, path, ok)
			}
		}
		for path := range before {
			if _, ok := after[path]; !ok {
				t.Errorf("rerun %v removed %s", args, path)
			}
		}
	}
	assertNoAgentLeft(t, dir)
}

// checkPrintsStandings checks that stdout is the standings (as a table,
// or as --json's one line) and nothing else; the time the document was
// served at aside.
func checkPrintsStandings(t *testing.T, stdout string, standings standingsFile, asJSON bool) {
	t.Helper()
	if !asJSON {
		var want strings.Builder
		noui.PrintStandings(&want, standings)
		if stdout != want.String() {
			t.Errorf("stdout:\n%s\nwant the final standings\n%s", stdout, want.String())
		}
		return
	}
	var got noui.JSONStandings
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("stdout is not one JSON line (%v):\n%s", err, stdout)
	}
	got.Standings.LastUpdated, standings.LastUpdated = "", ""
	if got.Kind != noui.KindStandings || !reflect.DeepEqual(got.Standings, standings) {
		t.Errorf("stdout's line %+v, want the final standings %+v", got, standings)
	}
}

// leagueFacts reads every file of the data folder but the logs, the
// lock, the temporary files of writes cut short and the two files derived
// from the journal that a manager rewrites when it starts (standings.json
// and rounds.json, which differ then only in their time), by path.
func leagueFacts(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case strings.HasPrefix(rel, "logs"+string(filepath.Separator)), rel == "leaguetui.lock",
			filepath.Base(rel) == "standings.json", filepath.Base(rel) == "rounds.json":
			return nil
		}
		if name := filepath.Base(rel); strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-") {
			return nil // a write the kill cut short, which a rerun may clear away
		}
		data, err := os.ReadFile(path)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestManagerDeathPrintsResume (issue 24, item 5): when the manager that
// `leaguetui --no-ui` started dies (SIGKILL) in the middle of a league,
// leaguetui says so, with how far the league got and the exact command
// that resumes it, and exits 1; that command then completes the league.
func TestManagerDeathPrintsResume(t *testing.T) {
	t.Parallel()
	if !leaguetest.HaveProc() {
		t.Skip("needs Linux /proc to find the manager")
	}
	const players = 6
	dir := t.TempDir()
	first := startHeadless(t, leaguetest.Args("--no-ui", "--free-ports", "--data", dir, "--seed", 37, "--players", players)...)
	first.waitForLine(t, "[2/")
	manager := managerOf(t, first)
	if err := leaguetest.SignalPID(manager, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	status, stderr := first.wait(t)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	said := regexp.MustCompile(fmt.Sprintf(`the manager \(PID %d\) exited \(signal: killed\); league at \d+ of 15 matches, state saved; `+
		`resume with: (.*)$`, manager)).FindStringSubmatch(last)
	if status != 1 || said == nil {
		t.Fatalf("after its manager was killed: exit status %d, last line %q; want 1 and the manager's exit with the resume command\n%s",
			status, last, stderr)
	}
	if want := "leaguetui --no-ui --data " + dir + " --free-ports"; said[1] != want {
		t.Fatalf("resume command %q, want %q", said[1], want)
	}
	assertNoAgentLeft(t, dir)
	resumed := startHeadless(t, strings.Fields(said[1])[1:]...)
	if status, stderr := resumed.wait(t); status != 0 {
		t.Fatalf("the resume command: exit status %d\n%s", status, stderr)
	}
	checkLeagueFiles(t, dir, players)
}

// managerOf finds the manager among a run's children.
func managerOf(t *testing.T, p *headlessProcess) int {
	t.Helper()
	children, err := leaguetest.ChildPIDs(p.cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	for _, pid := range children {
		if args := strings.Fields(leaguetest.CommandLine(pid)); len(args) > 1 && args[1] == "manager" {
			return pid
		}
	}
	t.Fatalf("no manager among the children %v", children)
	return 0
}
