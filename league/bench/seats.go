package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/leaguetui/leaguetui/league/launcher"
)

// How a seats league's players reach it (Seats).
const (
	SeatPush = "push" // each player serves its own /mcp, as every league's built-in players
	SeatPull = "pull" // each player polls a pull seat on the manager's relay, each answer carried by its next poll
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
	// Rounds is how many times the three leagues are played, each round
	// in another order (push, pull, mcp; pull, mcp, push; …), so that
	// neither the order nor a passing load on the machine favours one;
	// at least 1.
	Rounds   int
	Progress io.Writer // what the bench does, a line each (nil: nowhere)
}

// SeatLeague is what one of the leagues achieved.
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
	// MoveMean is the mean of the referees' move calls, from asking to
	// the answer (their move_duration_seconds{call="move"} on GET
	// /metrics): the move as the league sees it.
	MoveMean time.Duration
	// CPU is the CPU time (user + system) the league took from its start
	// to its end, every process together: the manager, the referees, the
	// seat host, and this one's players and clients. CPUKnown is false
	// where there is no /proc to read it from.
	CPU      time.Duration
	CPUKnown bool
	// ByProcess is CPU split by process: "manager", "referees",
	// "seat host" (the MCP league's) and "bench" (this one: the players,
	// the pull loops, the MCP clients).
	ByProcess map[string]time.Duration
}

// CPUPerMatch is the league's CPU time per match, 0 when unknown.
func (l SeatLeague) CPUPerMatch() time.Duration {
	if !l.CPUKnown || l.Matches == 0 {
		return 0
	}
	return l.CPU / time.Duration(l.Matches)
}

// SeatsResult is every round's three leagues, each round's in SeatKinds'
// order whatever order they were played in.
type SeatsResult struct {
	Game    string
	Players int
	Rounds  [][]SeatLeague
}

// Spread is a figure over the rounds: its median, least and greatest.
type Spread struct{ Median, Min, Max time.Duration }

func spreadOf(ds []time.Duration) Spread {
	return Spread{Median: Percentile(ds, 50), Min: slices.Min(ds), Max: slices.Max(ds)}
}

// over is f of the kind's league in each round.
func (r SeatsResult) over(kind int, f func(round []SeatLeague, l SeatLeague) time.Duration) Spread {
	ds := make([]time.Duration, len(r.Rounds))
	for i, round := range r.Rounds {
		ds[i] = f(round, round[kind])
	}
	return spreadOf(ds)
}

// MatchP50 is the kind's median match over the rounds.
func (r SeatsResult) MatchP50(kind int) Spread {
	return r.over(kind, func(_ []SeatLeague, l SeatLeague) time.Duration { return l.MatchP50 })
}

// Added is what the kind's seat adds to the median match: in each round,
// its league's less the push league's of the same round.
func (r SeatsResult) Added(kind int) Spread {
	return r.over(kind, func(round []SeatLeague, l SeatLeague) time.Duration { return l.MatchP50 - round[0].MatchP50 })
}

// MoveMean is the kind's mean move over the rounds.
func (r SeatsResult) MoveMean(kind int) Spread {
	return r.over(kind, func(_ []SeatLeague, l SeatLeague) time.Duration { return l.MoveMean })
}

// MoveAdded is what the kind's seat adds to the mean move, round by round
// as Added.
func (r SeatsResult) MoveAdded(kind int) Spread {
	return r.over(kind, func(round []SeatLeague, l SeatLeague) time.Duration { return l.MoveMean - round[0].MoveMean })
}

// CPUPerMatch is the kind's CPU per match over the rounds.
func (r SeatsResult) CPUPerMatch(kind int) Spread {
	return r.over(kind, func(_ []SeatLeague, l SeatLeague) time.Duration { return l.CPUPerMatch() })
}

// CPUAdded is what the kind's seat adds to the CPU of a match, round by
// round as Added.
func (r SeatsResult) CPUAdded(kind int) Spread {
	return r.over(kind, func(round []SeatLeague, l SeatLeague) time.Duration { return l.CPUPerMatch() - round[0].CPUPerMatch() })
}

// CPUKnown says every league's CPU was read.
func (r SeatsResult) CPUKnown() bool {
	for _, round := range r.Rounds {
		for _, l := range round {
			if !l.CPUKnown {
				return false
			}
		}
	}
	return true
}

// SeatTarget is the most a seat may add to the median move on loopback
// (issue 46).
const SeatTarget = 2 * time.Millisecond

// Seats plays the same league three ways, opts.Rounds times: with push
// players, with pull-seat players and with MCP-client seats, the players
// (and the MCP clients) inside this process, the manager and referees
// (and the MCP seat host) as processes. Every process it started is
// stopped before it returns.
func Seats(ctx context.Context, opts SeatsOptions) (SeatsResult, error) {
	if opts.Players < 2 || opts.Referees < 1 || opts.Rounds < 1 {
		return SeatsResult{}, fmt.Errorf("a league needs at least 2 players and 1 referee, played 1 round or more (got %d, %d and %d)",
			opts.Players, opts.Referees, opts.Rounds)
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	result := SeatsResult{Game: opts.Config.GameType, Players: opts.Players}
	for round := range opts.Rounds {
		leagues := make([]SeatLeague, len(SeatKinds))
		for _, kind := range roundOrder(round) {
			league, err := seatLeague(ctx, opts, SeatKinds[kind], round)
			if err != nil {
				return result, fmt.Errorf("round %d, the %s league: %w", round+1, SeatKinds[kind], err)
			}
			fmt.Fprintf(opts.Progress, "bench: round %d/%d, %s league: %d matches, median match %s, mean move %s, CPU %s a match\n",
				round+1, opts.Rounds, league.Kind, league.Matches, msFine(league.MatchP50), msFine(league.MoveMean), msFine(league.CPUPerMatch()))
			leagues[kind] = league
		}
		result.Rounds = append(result.Rounds, leagues)
	}
	return result, nil
}

// roundOrder is the order of SeatKinds' indexes in round (from 0): each
// round starts one further on, so that over three rounds each league is
// played first, second and third once.
func roundOrder(round int) []int {
	order := make([]int, len(SeatKinds))
	for i := range order {
		order[i] = (round + i) % len(SeatKinds)
	}
	return order
}

// seatLeague launches the league with no player of its own, seats its
// players the kind's way, plays it to the end and stops it.
func seatLeague(ctx context.Context, opts SeatsOptions, kind string, round int) (SeatLeague, error) {
	spec := opts.Spec
	spec.DataDir = filepath.Join(opts.DataDir, fmt.Sprintf("round-%d", round+1), kind)
	if err := os.MkdirAll(spec.DataDir, 0o700); err != nil {
		return SeatLeague{}, err
	}
	spec.Players = 0 // ours are seated below
	if kind == SeatMCP {
		spec.Config.Joining.MCPSeats = opts.Players
	}
	fmt.Fprintf(opts.Progress, "bench: round %d/%d, %s league: launching the manager and %d referees, %d players in this process\n",
		round+1, opts.Rounds, kind, opts.Referees, opts.Players)
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
	movesBefore, err := refereeMoves(ctx, league.Referees)
	if err != nil {
		return SeatLeague{}, err
	}
	cpuBefore, beforeOK := seatLeagueCPU(league)
	if err := league.Control.Start(ctx); err != nil {
		return SeatLeague{}, err
	}
	tally, err := follow(ctx, league.Control, io.Discard, func(int, int) {})
	if err != nil {
		return SeatLeague{}, err
	}
	cpuAfter, afterOK := seatLeagueCPU(league)
	movesAfter, err := refereeMoves(ctx, league.Referees)
	if err != nil {
		return SeatLeague{}, err
	}
	return SeatLeague{Kind: kind, Matches: tally.Matches, Wall: tally.Wall(),
		MatchP50: Percentile(tally.Durations, 50), MatchP99: Percentile(tally.Durations, 99), MoveMean: movesAfter.since(movesBefore),
		CPU: cpuAfter.total() - cpuBefore.total(), CPUKnown: beforeOK && afterOK, ByProcess: cpuAfter.less(cpuBefore)}, nil
}

// seatLeagueCPU is the CPU time so far of every process of a seats
// league, by process: the manager, the referees, the seat host if any,
// and this one, where the players and the MCP clients run.
func seatLeagueCPU(league *launcher.League) (processCPU, bool) {
	manager, managerOK := CPUTime(league.Manager.PID())
	referees, refereesOK := sumCPU(league.Referees)
	here, hereOK := CPUTime(os.Getpid())
	cpu, ok := processCPU{"manager": manager, "referees": referees, "bench": here}, managerOK && refereesOK && hereOK
	if league.Seats != nil {
		host, hostOK := CPUTime(league.Seats.PID())
		cpu["seat host"], ok = host, ok && hostOK
	}
	return cpu, ok
}

// processCPU is CPU time by process.
type processCPU map[string]time.Duration

func (c processCPU) total() time.Duration {
	var sum time.Duration
	for _, d := range c {
		sum += d
	}
	return sum
}

func (c processCPU) less(before processCPU) map[string]time.Duration {
	out := map[string]time.Duration{}
	for name, d := range c {
		out[name] = d - before[name]
	}
	return out
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

// Table writes the three leagues for people: over the rounds, each one's
// median match and CPU a match, and what its seat adds to the push
// league's, against the target.
func (r SeatsResult) Table(w io.Writer) error {
	fmt.Fprintf(w, "%s, %d players, %d round(s), each in another order: the median over the rounds (least .. greatest)\n\n",
		r.Game, r.Players, len(r.Rounds))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "league\tmean move\tadded to the move\tmedian match\tadded to the match\tCPU a match\tCPU added a match\ttarget: at most %s added to the move\n",
		msFine(SeatTarget))
	for kind, name := range SeatKinds {
		moveAdded, added, cpuAdded, verdict := "", "", "", ""
		if kind > 0 {
			moveAdded, added, verdict = r.MoveAdded(kind).format("%+.3f"), r.Added(kind).format("%+.3f"), r.verdict(kind)
			cpuAdded = r.cpuFormat(r.CPUAdded(kind), "%+.3f")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, r.MoveMean(kind).format("%.3f"), moveAdded,
			r.MatchP50(kind).format("%.3f"), added, r.cpuFormat(r.CPUPerMatch(kind), "%.3f"), cpuAdded, verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nmove: the referees' move calls, from asking to the answer (the mean: their histogram's sum over its count);\n"+
		"match: match_assigned to match_result, the moves with the invitation before them and GAME_OVER after (both cross a pull seat's relay too);\n"+
		"CPU: every process's, the manager, the referees, the seat host, the players and the clients\n")
	return err
}

// format writes the spread in milliseconds, each figure in verb.
func (s Spread) format(verb string) string {
	return fmt.Sprintf(verb+" ms ("+verb+" .. "+verb+")", millis(s.Median), millis(s.Min), millis(s.Max))
}

func (r SeatsResult) cpuFormat(s Spread, verb string) string {
	if !r.CPUKnown() {
		return "n/a"
	}
	return s.format(verb)
}

// verdict holds what the kind's seat adds to the mean move (the median
// over the rounds) to the target: the referees' histogram gives the mean
// exactly and the median only to its buckets.
func (r SeatsResult) verdict(kind int) string {
	if added := r.MoveAdded(kind).Median; added > SeatTarget {
		return fmt.Sprintf("short by %s", msFine(added-SeatTarget))
	}
	return "met"
}

// JSON writes the leagues over the rounds and each round's, durations in
// milliseconds (CPU null when unknown).
func (r SeatsResult) JSON(w io.Writer) error {
	type spread struct {
		Median float64 `json:"median"`
		Min    float64 `json:"min"`
		Max    float64 `json:"max"`
	}
	in := func(s Spread) *spread {
		return &spread{Median: millis(s.Median), Min: millis(s.Min), Max: millis(s.Max)}
	}
	cpu := func(s Spread) *spread {
		if !r.CPUKnown() {
			return nil
		}
		return in(s)
	}
	type league struct {
		Kind          string  `json:"kind"`
		MoveMeanMS    *spread `json:"move_mean_ms"`
		AddedMoveMS   *spread `json:"added_to_move_ms,omitempty"`
		MatchP50MS    *spread `json:"match_p50_ms"`
		AddedP50MS    *spread `json:"added_to_p50_ms,omitempty"`
		CPUMatchMS    *spread `json:"cpu_per_match_ms"`
		CPUAddedMS    *spread `json:"cpu_added_per_match_ms,omitempty"`
		TargetVerdict string  `json:"target,omitempty"`
	}
	type played struct {
		Kind       string             `json:"kind"`
		Matches    int                `json:"matches"`
		WallS      float64            `json:"wall_s"`
		MoveMeanMS float64            `json:"move_mean_ms"`
		MatchP50MS float64            `json:"match_p50_ms"`
		MatchP99MS float64            `json:"match_p99_ms"`
		CPUMS      *float64           `json:"cpu_ms"`
		ByProcess  map[string]float64 `json:"cpu_by_process_ms,omitempty"`
	}
	out := struct {
		Game     string     `json:"game"`
		Players  int        `json:"players"`
		TargetMS float64    `json:"target_added_ms"`
		Leagues  []league   `json:"leagues"`
		Rounds   [][]played `json:"rounds"`
	}{Game: r.Game, Players: r.Players, TargetMS: millis(SeatTarget)}
	for kind, name := range SeatKinds {
		l := league{Kind: name, MoveMeanMS: in(r.MoveMean(kind)), MatchP50MS: in(r.MatchP50(kind)), CPUMatchMS: cpu(r.CPUPerMatch(kind))}
		if kind > 0 {
			l.AddedMoveMS, l.AddedP50MS, l.CPUAddedMS, l.TargetVerdict = in(r.MoveAdded(kind)), in(r.Added(kind)), cpu(r.CPUAdded(kind)), r.verdict(kind)
		}
		out.Leagues = append(out.Leagues, l)
	}
	for _, round := range r.Rounds {
		var leagues []played
		for _, l := range round {
			p := played{Kind: l.Kind, Matches: l.Matches, WallS: l.Wall.Seconds(), MoveMeanMS: millis(l.MoveMean),
				MatchP50MS: millis(l.MatchP50), MatchP99MS: millis(l.MatchP99)}
			if l.CPUKnown {
				ms := millis(l.CPU)
				p.CPUMS = &ms
				p.ByProcess = map[string]float64{}
				for name, d := range l.ByProcess {
					p.ByProcess[name] = millis(d)
				}
			}
			leagues = append(leagues, p)
		}
		out.Rounds = append(out.Rounds, leagues)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func msFine(d time.Duration) string { return fmt.Sprintf("%.3f ms", millis(d)) }
