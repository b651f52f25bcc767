package noui_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/noui"
)

// TestUntilDecidedResumesAsUninterrupted runs a double round robin with
// --until-decided as real processes, kills `leaguetui --no-ui` with
// SIGKILL as the journal takes its third extra match, runs it again on the
// same folder, and checks that the league ends as an uninterrupted run of
// the same seed: the same extra matches, each the engine's choice from the
// journal's results before it and journaled with why, the same results,
// the same reason to stop, and the final standings judging every adjacent
// pair.
func TestUntilDecidedResumesAsUninterrupted(t *testing.T) {
	t.Parallel()
	if !leaguetest.HaveProc() {
		t.Skip("needs Linux /proc to see the agents die")
	}
	const players, referees, seed = 4, 2, 31
	flags := []string{"--format", "double-round-robin", "--until-decided", "30", "--equivalence-margin", "300",
		"--strategies", "random,random,counter,pattern"}
	dir := t.TempDir()
	first := startHeadless(t, append(leaguetest.Args("--no-ui", "--free-ports", "--data", dir, "--seed", seed,
		"--players", players, "--referees", referees), flags...)...)
	first.awaitJournal(t, dir, func(events []engine.Event) bool { return extraMatches(events) >= 3 })
	first.killRun(t)
	t.Logf("killed with %d extra matches in the journal", extraMatches(journalEvents(t, dir)))
	second := startHeadless(t, "--no-ui", "--free-ports", "--data", dir)
	if status, stderr := second.wait(t); status != 0 {
		t.Fatalf("the resumed league: exit status %d\n%s", status, stderr)
	}
	assertNoAgentLeft(t, dir)
	want := runHeadless(t, players, referees, seed, flags...)
	got, uninterrupted := decidedLeague(t, journalEvents(t, dir)), decidedLeague(t, journalEvents(t, want.dataDir))
	if got != uninterrupted {
		t.Errorf("the resumed league:\n%s\nthe uninterrupted one:\n%s", got, uninterrupted)
	}
	if !strings.Contains(want.stdout, "until-decided: ") || !strings.Contains(want.stdout, " over ") {
		t.Errorf("the final standings do not judge the adjacent pairs:\n%s", want.stdout)
	}
	if !strings.Contains(want.stderr, "league completed: until-decided: stopped ") {
		t.Errorf("--no-ui did not say why the league stopped:\n%s", want.stderr)
	}
}

// extraMatches counts the journal's rounds paired by --until-decided.
func extraMatches(events []engine.Event) int {
	n := 0
	for _, ev := range events {
		if ev.Kind == engine.EventRoundScheduled && strings.HasPrefix(ev.Detail, "until-decided: ") {
			n++
		}
	}
	return n
}

// decidedLeague is what a journal says of a league that plays until
// decided: every extra round, checked to be the engine's choice from the
// results before it, with why; the results, sorted (they come in any order
// within a round); and why it stopped.
func decidedLeague(t *testing.T, journal []engine.Event) string {
	t.Helper()
	replay := engine.NewLeague(leagueID, engine.DefaultScoring())
	var rounds, results []string
	stop := ""
	for _, ev := range journal {
		switch ev.Kind {
		case engine.EventRoundScheduled:
			want, why, due, err := replay.NextRoundWhy()
			if !due || err != nil || fmt.Sprint(want) != fmt.Sprint(*ev.Schedule) || why != ev.Detail {
				t.Errorf("round %d: journaled %v (%q), the engine chooses %v (%q, due %v, %v)", ev.Round, *ev.Schedule, ev.Detail, want, why, due, err)
			}
			rounds = append(rounds, fmt.Sprint(ev.Round, *ev.Schedule, ev.Detail))
		case engine.EventMatchResult:
			r := ev.Result
			results = append(results, fmt.Sprint(r.MatchID, r.PlayerA, r.PlayerB, r.Status, r.Winner))
		case engine.EventLeagueCompleted:
			stop = ev.Detail
		}
		if err := replay.Apply(ev); err != nil {
			t.Fatalf("the journal does not replay: %v", err)
		}
	}
	if replay.State != engine.LeagueCompleted || stop != replay.StopWhy() || stop == "" {
		t.Errorf("league %s, journaled stop %q, the engine's %q", replay.State, stop, replay.StopWhy())
	}
	slices.Sort(results)
	return strings.Join(rounds, "\n") + "\n" + strings.Join(results, "\n") + "\n" + stop
}

// TestDescribeDecided: the final standings' line and a line per adjacent
// pair, from a hand-made status.
func TestDescribeDecided(t *testing.T) {
	diff, ci := 61.8, 40.1
	st := engine.SeparationStatus{Rule: "until-decided", Limit: 40, Played: 12, Known: true, Pairs: 3, Margin: 100,
		Separated: 1, Equivalent: 1, Unsure: 1, Verdicts: []engine.PairVerdict{
			{Above: "P04", Below: "P01", Rank: 1, Verdict: engine.VerdictSeparated, Difference: &diff, CI95: &ci},
			{Above: "P01", Below: "P02", Rank: 2, Verdict: engine.VerdictEquivalent, Difference: &ci, CI95: &ci},
			{Above: "P02", Below: "P03", Rank: 3, Verdict: engine.VerdictUnsure}}}
	want := []string{
		"until-decided: 12 of 40 extra matches played; of 3 adjacent pairs 1 separated, 1 equivalent within ±100 Elo, 1 unsure",
		"  1-2   P04 over P01   +61.80 ± 40.10 Elo   separated",
		"  2-3   P01 over P02   +40.10 ± 40.10 Elo   equivalent",
		"  3-4   P02 over P03   unrated   unsure",
	}
	got := append([]string{noui.DescribeSeparation(st)}, noui.DescribePairs(st)...)
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDescribeSeatIsThePages: --no-ui's seat advantage line, as
// docs/ratings.md quotes it.
func TestDescribeSeatIsThePages(t *testing.T) {
	line := noui.DescribeSeat(&protocol.RatingsDoc{SeatAdvantage: &protocol.SeatAdvantage{Elo: 12.3, CI95: 45.2, Games: 300}})
	page, err := os.ReadFile("../../docs/ratings.md")
	if err != nil {
		t.Fatal(err)
	}
	if line != "seat advantage: the first seat +12 ± 45 Elo over 300 games" ||
		!strings.Contains(strings.Join(strings.Fields(string(page)), " "), "(`"+line+"`)") {
		t.Errorf("%q is not what docs/ratings.md quotes", line)
	}
	if noui.DescribeSeat(&protocol.RatingsDoc{}) != "" || noui.DescribeSeat(nil) != "" {
		t.Error("a line without a seat advantage")
	}
}
