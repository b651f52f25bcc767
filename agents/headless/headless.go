// Package headless runs a whole league without a console: it starts the
// manager, referees and players as child processes, starts the league,
// prints progress to stderr and the final standings to stdout, and stops
// every child it started. It is what `leaguetui --no-ui` does, for CI.
package headless

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/leaguetui/leaguetui/agents/control"
	"github.com/leaguetui/leaguetui/agents/launch"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// Options describe a league to run.
type Options struct {
	Config     config.Config
	ConfigArgs []string // flags that reproduce Config for the children
	Executable string   // this binary
	DataDir    string
	Players    int
	Referees   int
	Seed       int64
	SeedSet    bool
	FreePorts  bool
	Stdout     io.Writer // final standings
	Stderr     io.Writer // progress
}

// League is a set of running agent processes.
type League struct {
	Manager    *launch.Child
	Referees   []*launch.Child
	Players    []*launch.Child
	Control    *control.Client
	AdminToken string
}

// Children lists every process started, the manager first.
func (l *League) Children() []*launch.Child {
	all := []*launch.Child{}
	if l.Manager != nil {
		all = append(all, l.Manager)
	}
	return append(append(all, l.Referees...), l.Players...)
}

// Stop ends every child: the manager first, so that it delivers what it
// still has queued for the others, then the referees and players.
func (l *League) Stop() {
	if l.Manager != nil {
		_ = l.Manager.Stop(10 * time.Second)
	}
	for _, c := range append(append([]*launch.Child{}, l.Referees...), l.Players...) {
		_ = c.Stop(5 * time.Second)
	}
}

// Run plays a whole league and returns when it is completed.
func Run(ctx context.Context, opts Options) error {
	if opts.Players < 2 || opts.Referees < 1 {
		return fmt.Errorf("a league needs at least 2 players and 1 referee (got --players %d --referees %d)", opts.Players, opts.Referees)
	}
	if !opts.SeedSet {
		opts.Seed = randomSeed()
	}
	fmt.Fprintf(opts.Stderr, "leaguetui: seed %d (repeat this league with --seed %d)\n", opts.Seed, opts.Seed)
	league, err := Launch(ctx, opts)
	if league != nil {
		defer league.Stop()
	}
	if err != nil {
		return err
	}
	if err := league.Control.Start(ctx); err != nil {
		return err
	}
	if err := follow(ctx, league.Control, opts.Stderr); err != nil {
		return err
	}
	standings, err := league.Control.Standings(ctx)
	if err != nil {
		return err
	}
	PrintStandings(opts.Stdout, standings)
	return nil
}

// Launch starts the manager, then the referees and players one by one, each
// registered before the next starts so that ids follow the launch order and
// the same seed gives the same league.
func Launch(ctx context.Context, opts Options) (*League, error) {
	cfg := opts.Config
	if err := checkPorts(opts); err != nil {
		return nil, err
	}
	layout := store.Layout{Root: opts.DataDir, LeagueID: cfg.LeagueID}
	if err := os.MkdirAll(filepath.Dir(layout.ProcessOutput("x")), 0o755); err != nil {
		return nil, fmt.Errorf("data folder %s is not writable: %w", opts.DataDir, err)
	}
	league := &League{AdminToken: newAdminToken()}
	common := append([]string{"--data", opts.DataDir}, opts.ConfigArgs...)
	ready := 30 * time.Second

	manager, err := launch.Start(ctx, opts.Executable, launch.Spec{
		Name: "manager", OutputPath: layout.ProcessOutput("league_manager"),
		Args: append([]string{"manager", "--port", port(opts, cfg.Network.ManagerPort, 0),
			"--seed", strconv.FormatInt(opts.Seed, 10)}, common...),
		Env: []string{"LEAGUETUI_ADMIN_TOKEN=" + league.AdminToken},
	}, ready)
	if err != nil {
		return league, err
	}
	league.Manager = manager
	league.Control = control.New(manager.Endpoint, league.AdminToken)

	for i := range opts.Referees {
		name := fmt.Sprintf("REF%02d", i+1)
		child, err := launch.Start(ctx, opts.Executable, launch.Spec{
			Name: "referee " + name, OutputPath: layout.ProcessOutput(name), Register: true,
			Args: append([]string{"referee", "--port", port(opts, cfg.Network.RefereePortFirst, i),
				"--manager", manager.Endpoint, "--name", name}, common...),
		}, ready)
		if err != nil {
			return league, err
		}
		league.Referees = append(league.Referees, child)
	}
	strategies := engine.StrategyNames()
	for i := range opts.Players {
		name := fmt.Sprintf("P%02d", i+1)
		child, err := launch.Start(ctx, opts.Executable, launch.Spec{
			Name: "player " + name, OutputPath: layout.ProcessOutput(name), Register: true,
			Args: append([]string{"player", "--port", port(opts, cfg.Network.PlayerPortFirst, i),
				"--manager", manager.Endpoint, "--name", name, "--strategy", strategies[i%len(strategies)],
				"--seed", strconv.FormatInt(opts.Seed, 10)}, common...),
		}, ready)
		if err != nil {
			return league, err
		}
		league.Players = append(league.Players, child)
	}
	return league, nil
}

// port is the port for the i-th agent from first, or 0 (any free port).
func port(opts Options, first, i int) string {
	if opts.FreePorts {
		return "0"
	}
	return strconv.Itoa(first + i)
}

func checkPorts(opts Options) error {
	if opts.FreePorts {
		return nil
	}
	net := opts.Config.Network
	if opts.Referees > net.RefereePortLast-net.RefereePortFirst+1 || opts.Players > net.PlayerPortLast-net.PlayerPortFirst+1 {
		return fmt.Errorf("more agents than ports in the configured ranges (referees %d-%d, players %d-%d); pass --free-ports",
			net.RefereePortFirst, net.RefereePortLast, net.PlayerPortFirst, net.PlayerPortLast)
	}
	ports := []int{net.ManagerPort}
	for i := range opts.Referees {
		ports = append(ports, net.RefereePortFirst+i)
	}
	for i := range opts.Players {
		ports = append(ports, net.PlayerPortFirst+i)
	}
	return launch.CheckPortsFree(net.Host, ports...)
}

// follow prints a line per finished match and round until the league ends.
func follow(ctx context.Context, c *control.Client, out io.Writer) error {
	var cursor int64
	var done, total int
	for {
		page, err := c.Events(ctx, cursor, 10*time.Second)
		if err != nil {
			return err
		}
		for _, ev := range page.Events {
			switch ev.Kind {
			case engine.EventLeagueStarted:
				total = 0
				for _, r := range ev.Start.Rounds {
					total += len(r.Matches)
				}
				fmt.Fprintf(out, "league started: %d players, %d rounds, %d matches\n", len(ev.Start.Players), len(ev.Start.Rounds), total)
			case engine.EventMatchResult:
				done++
				fmt.Fprintf(out, "[%d/%d] %s\n", done, total, DescribeResult(*ev.Result))
			case engine.EventPlayerSuspended:
				fmt.Fprintln(out, ev.Detail)
			case engine.EventRoundCompleted:
				fmt.Fprintf(out, "round %d completed\n", ev.Round)
			case engine.EventLeagueCompleted:
				fmt.Fprintln(out, "league completed")
				return nil
			case engine.EventStopped:
				return errors.New("the league was stopped before it completed")
			}
		}
		cursor = page.LastSeq
	}
}

// DescribeResult is one line for a result: "R1M1 P01 vs P02: P01 wins".
func DescribeResult(r engine.Result) string {
	line := fmt.Sprintf("%s %s vs %s: ", r.MatchID, r.PlayerA, r.PlayerB)
	switch r.Status {
	case engine.StatusWin:
		return line + r.Winner + " wins"
	case engine.StatusDraw:
		return line + "draw"
	}
	if r.Winner == "" {
		return line + fmt.Sprintf("technical loss for both (%v)", r.Offenders)
	}
	return line + fmt.Sprintf("%s wins, technical loss for %v", r.Winner, r.Offenders)
}

// PrintStandings writes the standings as a table.
func PrintStandings(w io.Writer, s control.StandingsFile) {
	fmt.Fprintf(w, "league %s  seed %d  %d matches in %d rounds  %s\n\n", s.LeagueID, s.Seed, s.MatchesTotal, s.RoundsTotal, s.State)
	fmt.Fprintf(w, "%4s  %-8s %-16s %6s %4s %4s %4s %4s %6s\n", "rank", "player", "name", "played", "W", "D", "L", "TL", "points")
	for _, r := range s.Standings {
		fmt.Fprintf(w, "%4d  %-8s %-16s %6d %4d %4d %4d %4d %6d\n", r.Rank, r.PlayerID, r.DisplayName, r.Played,
			r.Wins, r.Draws, r.Losses, r.TechnicalLosses, r.Points)
	}
}

func newAdminToken() string {
	buf := make([]byte, 32)
	_, _ = rand.Read(buf)
	return "adm-" + hex.EncodeToString(buf)
}

func randomSeed() int64 {
	buf := make([]byte, 8)
	_, _ = rand.Read(buf)
	var n int64
	for _, b := range buf[:6] {
		n = n<<8 | int64(b)
	}
	return n
}
