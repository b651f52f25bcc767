package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/launcher"
	"github.com/leaguetui/leaguetui/league/lifecycle"
	"github.com/leaguetui/leaguetui/league/season"
	"github.com/leaguetui/leaguetui/league/web"
	"github.com/leaguetui/leaguetui/tui"
)

// consoleOutputs are where the console writes, besides its screen: what
// it says before it takes the terminal and after it gives it back, and
// the web view it serves alongside (--web).
type consoleOutputs struct {
	Stderr  io.Writer
	WebAddr string
}

// attachOptions say which running manager the console shows instead of
// starting its own league.
type attachOptions struct {
	URL        string // "" starts a local league
	AdminToken string // for start/pause/resume/stop of that league
}

// runConsole starts the interactive console: on a local league it starts
// (manager, referees and players as child processes, stopped on quit), or
// on the manager at attach.URL. The local league's lifecycle is
// league/lifecycle's; the console shows it (consolePresenter) and its
// screen follows the league.
func runConsole(ctx context.Context, opts launcher.Spec, outs consoleOutputs, attach attachOptions) error {
	instead := "run with --no-ui to play the league headless"
	if attach.URL != "" {
		instead = "serve its web view with leaguetui web --attach " + attach.URL + ", or read it with curl " + attach.URL + "/standings"
	}
	if err := tui.CheckTerminal(os.Stdin, os.Stdout, instead); err != nil {
		return err
	}
	if attach.URL != "" {
		return runAttached(ctx, opts, outs, attach)
	}
	closeLog, err := logToFile(opts.DataDir)
	if err != nil {
		return err
	}
	defer closeLog()
	shown := &consolePresenter{stderr: outs.Stderr, dataDir: opts.DataDir}
	league, err := lifecycle.Launch(ctx, opts, shown, lifecycle.Options{WebAddr: outs.WebAddr, WebOut: outs.Stderr})
	if league != nil {
		defer league.Stop()
	}
	if err != nil {
		return err
	}
	league.Background(ctx)
	var joining func() string // the line shown while the league waits for its joiners
	if w := league.Waiter(); w != nil {
		joining = func() string { return w.State().Line() }
	}
	return tui.Run(ctx, tui.Options{Control: league.Control, Children: childrenOf(league.League), Joining: joining,
		Scoring: engine.Scoring(opts.Config.Scoring), Seed: league.Seed, Logger: slog.Default(), Notice: shown.notice,
		Info:          consoleInfo(league.League),
		Season:        seasonTable(opts.Config.Season),
		ResumeCommand: launcher.ResumeCommand(opts.DataDir, opts.FreePorts)})
}

// runAttached shows the league of a manager that runs elsewhere. The
// console writes nothing anywhere: the league and its files are the
// manager's, and the log pane holds the rest.
func runAttached(ctx context.Context, opts launcher.Spec, outs consoleOutputs, attach attachOptions) error {
	previous := slog.Default()
	slog.SetDefault(slog.New(slog.DiscardHandler))
	defer slog.SetDefault(previous)
	if outs.WebAddr != "" {
		if _, err := web.Serve(ctx, attach.URL, outs.WebAddr, outs.Stderr); err != nil {
			return err
		}
	}
	return tui.Run(ctx, tui.Options{Control: control.New(attach.URL, attach.AdminToken), Attached: true,
		Scoring: engine.Scoring(opts.Config.Scoring)})
}

// consolePresenter shows the lifecycle of the console's league: in the
// console's log (its log pane and file), and on stderr before the console
// takes the terminal and after it gives it back.
type consolePresenter struct {
	stderr            io.Writer
	dataDir           string
	players, referees int
	// notice is said in the console when the data folder held a league.
	notice string
}

var _ lifecycle.Presenter = (*consolePresenter)(nil)

func (p *consolePresenter) Launching(players, referees int) {
	p.players, p.referees = players, referees
	fmt.Fprintf(p.stderr, "leaguetui: starting the manager, referees (%d) and players (%d)…\n", referees, players)
}

func (p *consolePresenter) Launched(league *launcher.League) {
	if resumed := league.Resumed; resumed != nil {
		// The data folder held this league: its seed is the journal's. It
		// waits paused until resumed with the console's key.
		p.notice = launcher.DescribeLeague(p.dataDir, *resumed)
		fmt.Fprintf(p.stderr, "leaguetui: %s\n", p.notice)
		slog.Info("league reopened from its journal", "state", string(resumed.State),
			"matches_done", resumed.MatchesDone, "matches_total", resumed.MatchesTotal)
	} else {
		fmt.Fprintf(p.stderr, "leaguetui: seed %d (repeat this league with --seed %d)\n", league.Seed, league.Seed)
	}
	slog.Info("league launched", "manager", league.Control.Base(), "seed", league.Seed,
		"referees", p.referees, "players", p.players)
}

func (p *consolePresenter) Joining(step lifecycle.JoinStep, j launcher.Joining) {
	switch step {
	case lifecycle.JoinWaiting:
		slog.Info("waiting for players to join", "register_at", j.URL, "waiting_for", j.Waiting())
	case lifecycle.JoinJoined:
		slog.Info("joined: " + j.Joined[len(j.Joined)-1])
	case lifecycle.JoinEnded:
		if !j.Started { // the console's s started it: nothing to say
			slog.Info(j.DescribeEnd())
		}
	}
}

// Beginning says nothing: the console's keys begin its league, and its
// screen shows how.
func (p *consolePresenter) Beginning(lifecycle.Begun) {}

func (p *consolePresenter) Say(level slog.Level, msg string, err error) {
	if err != nil {
		slog.Log(context.Background(), level, msg, "err", err)
		return
	}
	slog.Log(context.Background(), level, msg)
}

// Stopped says how many agents stopped, once the console has given the
// terminal back.
func (p *consolePresenter) Stopped(league *launcher.League) {
	n := len(league.Children())
	slog.Info("agents stopped", "count", n)
	fmt.Fprintf(p.stderr, "leaguetui: stopped %d agents; the league's files are in %s (seed %d)\n", n, p.dataDir, league.Seed)
}

// seasonTable reads the season's table for the standings pane (e), nil
// without --season.
func seasonTable(dir string) func() ([]engine.SeasonRow, error) {
	if dir == "" {
		return nil
	}
	return func() ([]engine.SeasonRow, error) {
		s, err := season.Read(dir)
		if err != nil {
			return nil, err
		}
		return s.Table(), nil
	}
}

// consoleInfo is what the info view (?) says about the league the console
// started: where to register and how a second console controls it.
func consoleInfo(league *launcher.League) []string {
	info := []string{"manager: " + league.Manager.Endpoint + " (agents register here)"}
	where, attach := "from $"+launcher.AdminTokenEnv, "with $"+launcher.AdminTokenEnv+" set, leaguetui --attach "+league.Control.Base()
	if league.AdminTokenFile != "" {
		where, attach = "kept in "+league.AdminTokenFile, "leaguetui --attach "+league.Control.Base()+" --admin-token-file "+league.AdminTokenFile
	}
	info = append(info, "admin token: "+league.AdminToken+" ("+where+")",
		"control it from elsewhere: "+attach)
	return info
}

// childrenOf lists the started processes for the agents pane.
func childrenOf(league *launcher.League) func() []tui.ChildInfo {
	return func() []tui.ChildInfo {
		all := league.Children()
		out := make([]tui.ChildInfo, len(all))
		for i, c := range all {
			out[i] = tui.ChildInfo{Name: c.Name, ID: c.ID, Endpoint: c.Endpoint, PID: c.PID(), Running: c.Running()}
		}
		for _, p := range league.Programs {
			out = append(out, tui.ChildInfo{Name: "program " + p.Name, PID: p.PID(), Running: p.Running()})
		}
		return out
	}
}

// logToFile sends slog (and the log package) to the data folder: the
// console owns the screen, so nothing may print over it.
func logToFile(dataDir string) (func(), error) {
	path := store.Layout{Root: dataDir}.ConsoleLog()
	logger, closer, err := store.NewLogger(path, "console", "console", slog.LevelInfo)
	if err != nil {
		return nil, fmt.Errorf("cannot open the console log in %s: %w", dataDir, err)
	}
	previous := slog.Default()
	slog.SetDefault(logger)
	return func() {
		slog.SetDefault(previous)
		_ = closer.Close()
	}, nil
}
