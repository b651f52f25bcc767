package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/leaguetui/leaguetui/league/launcher"
)

// How a seats league's players reach it (Seats).
const (
	SeatPush = "push" // each player serves its own /mcp, as every league's built-in players
	SeatPull = "pull" // each player polls a pull seat on the manager's relay and answers by POST
	SeatMCP  = "mcp"  // each player is an MCP-client seat, an MCP client playing through its tools
)

// SeatKinds are the leagues Seats plays, in order: push first, what the
// seats are measured against.
var SeatKinds = []string{SeatPush, SeatPull, SeatMCP}

// SeatsOptions are the league Seats plays three ways: opts.Spec's
// manager, referees and seed, with opts.Players players reaching it each
// way; each league has a data folder of its own under DataDir.
type SeatsOptions struct {
	launcher.Spec
	Progress io.Writer // what the bench does, a line each (nil: nowhere)
}

// SeatLeague is what one of the three leagues achieved.
type SeatLeague struct {
	Kind    string
	Matches int
	Wall    time.Duration // league_started to league_completed
	// MatchP50 is the median match, match_assigned to match_result: a
	// match of even/odd is one move of each player, both asked at once,
	// with the invitation before it and the result after, so what a seat
	// adds to it is what it adds to the move (and, for a pull seat, what
	// it adds to the invitation and GAME_OVER, which also cross the relay).
	MatchP50, MatchP99 time.Duration
}

// SeatsResult is the three leagues, push first.
type SeatsResult struct {
	Game    string
	Players int
	Leagues []SeatLeague
}

// Added is what league's seat adds to the median match over the push
// league's.
func (r SeatsResult) Added(league SeatLeague) time.Duration {
	return league.MatchP50 - r.Leagues[0].MatchP50
}

// SeatTarget is the most a seat may add to the median move on loopback
// (issue 46).
const SeatTarget = 2 * time.Millisecond

// Seats plays the same league three times, one after the other: with push
// players, with pull-seat players and with MCP-client seats, the players
// (and the MCP clients) inside this process, the manager and referees
// (and the MCP seat host) as processes. Every process it started is
// stopped before it returns.
func Seats(ctx context.Context, opts SeatsOptions) (SeatsResult, error) {
	if opts.Players < 2 || opts.Referees < 1 {
		return SeatsResult{}, fmt.Errorf("a league needs at least 2 players and 1 referee (got %d and %d)", opts.Players, opts.Referees)
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	result := SeatsResult{Game: opts.Config.GameType, Players: opts.Players}
	for _, kind := range SeatKinds {
		league, err := seatLeague(ctx, opts, kind)
		if err != nil {
			return result, fmt.Errorf("the %s league: %w", kind, err)
		}
		fmt.Fprintf(opts.Progress, "bench: %s league: %d matches, median match %s\n", kind, league.Matches, msFine(league.MatchP50))
		result.Leagues = append(result.Leagues, league)
	}
	return result, nil
}

// seatLeague launches the league with no player of its own, seats its
// players the kind's way, plays it to the end and stops it.
func seatLeague(ctx context.Context, opts SeatsOptions, kind string) (SeatLeague, error) {
	spec := opts.Spec
	spec.DataDir = filepath.Join(opts.DataDir, kind)
	if err := os.MkdirAll(spec.DataDir, 0o700); err != nil {
		return SeatLeague{}, err
	}
	spec.Players = 0 // ours are seated below
	if kind == SeatMCP {
		spec.Config.Joining.MCPSeats = opts.Players
	}
	fmt.Fprintf(opts.Progress, "bench: %s league: launching the manager and %d referees, %d players in this process\n",
		kind, opts.Referees, opts.Players)
	league, err := launcher.Launch(ctx, spec)
	if league != nil {
		defer league.Stop()
	}
	if err != nil {
		return SeatLeague{}, err
	}
	players := spec
	players.Players = opts.Players
	stop, err := seatPlayers(ctx, kind, players, league)
	if err != nil {
		return SeatLeague{}, err
	}
	defer stop()
	if err := league.Control.Start(ctx); err != nil {
		return SeatLeague{}, err
	}
	tally, err := follow(ctx, league.Control, io.Discard, func(int, int) {})
	if err != nil {
		return SeatLeague{}, err
	}
	return SeatLeague{Kind: kind, Matches: tally.Matches, Wall: tally.Wall(),
		MatchP50: Percentile(tally.Durations, 50), MatchP99: Percentile(tally.Durations, 99)}, nil
}

// seatPlayers registers spec.Players players with the launched league
// the kind's way, and gives what stops them.
func seatPlayers(ctx context.Context, kind string, spec launcher.Spec, league *launcher.League) (func(), error) {
	switch kind {
	case SeatPush:
		hosted, err := hostPlayers(ctx, spec, league.Manager.Endpoint, spec.Players)
		return hosted.stop, err
	case SeatPull:
		return hostPullPlayers(ctx, spec, league.Manager.Endpoint)
	case SeatMCP:
		return playSeats(ctx, league.SeatsFile)
	}
	return nil, fmt.Errorf("no seat kind %q (%v)", kind, SeatKinds)
}

// Table writes the three leagues for people: each one's median match and
// what its seat adds to the push league's, against the target.
func (r SeatsResult) Table(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "league (players)\tmatches\tmedian match\tp99 match\tadded to the median\ttarget: at most %s added\n", msFine(SeatTarget))
	for i, l := range r.Leagues {
		added, verdict := "", ""
		if i > 0 {
			added = fmt.Sprintf("%+.3f ms", millis(r.Added(l)))
			verdict = r.verdict(l)
		}
		fmt.Fprintf(tw, "%s (%d)\t%d\t%s\t%s\t%s\t%s\n", l.Kind, r.Players, l.Matches, msFine(l.MatchP50), msFine(l.MatchP99), added, verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s: a match is one move of each player, both asked at once, so what a seat adds to the median match is what it adds to the move\n"+
		"(a pull seat's invitation and GAME_OVER cross the relay too: its figure bounds the move's from above)\n", r.Game)
	return err
}

func (r SeatsResult) verdict(l SeatLeague) string {
	if added := r.Added(l); added > SeatTarget {
		return fmt.Sprintf("short by %s", msFine(added-SeatTarget))
	}
	return "met"
}

// JSON writes the three leagues, durations in milliseconds.
func (r SeatsResult) JSON(w io.Writer) error {
	type league struct {
		Kind          string  `json:"kind"`
		Matches       int     `json:"matches"`
		WallS         float64 `json:"wall_s"`
		MatchP50MS    float64 `json:"match_p50_ms"`
		MatchP99MS    float64 `json:"match_p99_ms"`
		AddedP50MS    float64 `json:"added_to_p50_ms"`
		TargetVerdict string  `json:"target,omitempty"`
	}
	out := struct {
		Game     string   `json:"game"`
		Players  int      `json:"players"`
		TargetMS float64  `json:"target_added_ms"`
		Leagues  []league `json:"leagues"`
	}{Game: r.Game, Players: r.Players, TargetMS: millis(SeatTarget)}
	for i, l := range r.Leagues {
		j := league{Kind: l.Kind, Matches: l.Matches, WallS: l.Wall.Seconds(), MatchP50MS: millis(l.MatchP50), MatchP99MS: millis(l.MatchP99)}
		if i > 0 {
			j.AddedP50MS, j.TargetVerdict = millis(r.Added(l)), r.verdict(l)
		}
		out.Leagues = append(out.Leagues, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func msFine(d time.Duration) string { return fmt.Sprintf("%.3f ms", millis(d)) }
