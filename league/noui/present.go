package noui

import (
	"fmt"
	"log/slog"

	"github.com/leaguetui/leaguetui/league/launcher"
	"github.com/leaguetui/leaguetui/league/lifecycle"
)

// presenter shows the league's lifecycle (league/lifecycle) as --no-ui's
// progress lines on stderr (none with --quiet).
type presenter struct {
	out  *output
	spec launcher.Spec
}

var _ lifecycle.Presenter = presenter{}

// line prints one progress line.
func (p presenter) line(format string, args ...any) {
	fmt.Fprintf(p.out.progress, "leaguetui: "+format+"\n", args...)
}

// Launching and Launched say nothing: a headless league says how it
// begins once it begins (Beginning), after the wait for its joiners.
func (p presenter) Launching(players, referees int)  {}
func (p presenter) Launched(league *launcher.League) {}

// Stopped says nothing: the final standings, or the error, end the run.
func (p presenter) Stopped(league *launcher.League) {}

// Joining says where to register and who joins, while the league waits.
func (p presenter) Joining(step lifecycle.JoinStep, j launcher.Joining) {
	switch step {
	case lifecycle.JoinWaiting:
		window := ""
		if j.Window > 0 {
			window = fmt.Sprintf(" for at most %s", j.Window)
		}
		p.line("waiting%s for %s; register at %s", window, j.Waiting(), j.URL)
	case lifecycle.JoinJoined:
		line := "joined: " + j.Joined[len(j.Joined)-1]
		if !j.Complete() {
			line += "; waiting for " + j.Waiting()
		}
		p.line("%s", line)
	case lifecycle.JoinEnded:
		p.line("%s", j.DescribeEnd())
	}
}

// Beginning says whether the league is new (and its seed, to repeat it)
// or the data folder's, and how far that one got.
func (p presenter) Beginning(b lifecycle.Begun) {
	if b.OpenReferees {
		p.line("the league is open: its manager admits any referee, without the referee key (--open-referees)")
	}
	switch b.How {
	case lifecycle.New:
		p.line("seed %d (repeat this league with --seed %d)", b.Seed, b.Seed)
	case lifecycle.CompletedBefore:
		// Its final standings are the answer (a run killed as it
		// completed is run again to get them), said to be of an earlier run.
		p.line("%s: it was completed before this run, which plays nothing and starts no agent; "+
			"its final standings follow (file: %s); for a new league, pass another --data folder",
			launcher.DescribeLeague(p.spec.DataDir, *b.Resumed), p.spec.StandingsPath())
	case lifecycle.Resuming:
		status := b.Resumed
		p.line("%s", launcher.DescribeLeague(p.spec.DataDir, *status))
		p.line("resuming league %s (seed %d) from its journal: %d of %d matches done",
			status.LeagueID, status.Seed, status.MatchesDone, status.MatchesTotal)
	}
}

// Say prints a line of what happens; a step that failed is its error's
// own line.
func (p presenter) Say(_ slog.Level, msg string, err error) {
	if err != nil {
		p.line("%v", err)
		return
	}
	p.line("%s", msg)
}
