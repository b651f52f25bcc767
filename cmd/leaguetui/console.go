package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/launcher"
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
// on the manager at attach.URL.
func runConsole(ctx context.Context, opts launcher.Spec, outs consoleOutputs, attach attachOptions) error {
	instead := "run with --no-ui to play the league headless"
	if attach.URL != "" {
		instead = "serve its web view with leaguetui web --attach " + attach.URL + ", or read it with curl " + attach.URL + "/standings"
	}
	if err := tui.CheckTerminal(os.Stdin, os.Stdout, instead); err != nil {
		return err
	}
	scoring := engine.Scoring(opts.Config.Scoring)
	if attach.URL != "" {
		// Attached, the console writes nothing anywhere: the league and
		// its files are the manager's, and the log pane holds the rest.
		previous := slog.Default()
		slog.SetDefault(slog.New(slog.DiscardHandler))
		defer slog.SetDefault(previous)
		if outs.WebAddr != "" {
			if _, err := web.Serve(ctx, attach.URL, outs.WebAddr, outs.Stderr); err != nil {
				return err
			}
		}
		return tui.Run(ctx, tui.Options{Control: control.New(attach.URL, attach.AdminToken), Attached: true,
			Scoring: scoring})
	}
	closeLog, err := logToFile(opts.DataDir)
	if err != nil {
		return err
	}
	defer closeLog()
	if err := opts.CheckSize(); err != nil {
		return err
	}
	opts.Notify = func(line string) { slog.Warn(line) } // the log pane and file: the console owns the screen
	players, referees := opts.Size()
	fmt.Fprintf(outs.Stderr, "leaguetui: starting the manager, referees (%d) and players (%d)…\n", referees, players)
	league, err := launcher.Launch(ctx, opts)
	var view *web.Server // --web's, told the final standings before the manager stops
	if league != nil {
		defer func() { stopLeague(league, view, opts.DataDir, outs.Stderr) }()
	}
	if err != nil {
		return err
	}
	notice := "" // said in the console when the data folder held a league
	if resumed := league.Resumed; resumed != nil {
		// The data folder held this league: its seed is the journal's. It
		// waits paused until resumed with the console's key.
		notice = launcher.DescribeLeague(opts.DataDir, *resumed)
		fmt.Fprintf(outs.Stderr, "leaguetui: %s\n", notice)
		slog.Info("league reopened from its journal", "state", string(resumed.State),
			"matches_done", resumed.MatchesDone, "matches_total", resumed.MatchesTotal)
	} else {
		fmt.Fprintf(outs.Stderr, "leaguetui: seed %d (repeat this league with --seed %d)\n", league.Seed, league.Seed)
	}
	if outs.WebAddr != "" {
		if view, err = web.Serve(ctx, league.Control.Base(), outs.WebAddr, outs.Stderr); err != nil {
			return err
		}
	}
	slog.Info("league launched", "manager", league.Control.Base(), "seed", league.Seed,
		"referees", referees, "players", players)
	joining := awaitJoining(ctx, league, opts)
	if opts.Config.Season != "" {
		go addWhenCompleted(ctx, league, opts)
	}
	go league.WatchLeagueBudget(ctx, opts) // the log pane says why a league whose model budget is spent stops
	return tui.Run(ctx, tui.Options{Control: league.Control, Children: childrenOf(league), Joining: joining,
		Scoring: scoring, Seed: league.Seed, Logger: slog.Default(), Notice: notice,
		Info:          consoleInfo(league),
		Season:        seasonTable(opts.Config.Season),
		ResumeCommand: launcher.ResumeCommand(opts.DataDir, opts.FreePorts)})
}

// awaitJoining waits, for a new league with a roster's outside agents or
// open seats, until they have registered or the join window has passed,
// and then starts it (s starts it before); it returns the line the console
// shows meanwhile, nil when there is nobody to wait for.
func awaitJoining(ctx context.Context, league *launcher.League, opts launcher.Spec) func() string {
	w := league.NewWaiter(opts)
	resumed := league.Resumed != nil
	if resumed {
		// A resumed league's outside agents and programs register again:
		// the console says who is back; its key resumes the league.
		w = league.NewReturnWaiter(opts)
	}
	if w == nil {
		return nil
	}
	slog.Info("waiting for players to join", "register_at", w.State().URL, "waiting_for", w.State().Waiting())
	go func() {
		end, err := w.Await(ctx, func(j launcher.Joining) {
			slog.Info("joined: " + j.Joined[len(j.Joined)-1])
		})
		if err != nil && ctx.Err() == nil {
			slog.Error("the league waits for no one more", "err", err) // a roster program that stays down
		}
		if err != nil || end.Started {
			return
		}
		slog.Info(end.DescribeEnd())
		if resumed {
			return
		}
		if err := league.Control.Start(ctx); err != nil && ctx.Err() == nil {
			slog.Error("the league could not be started", "err", err)
		}
	}()
	return func() string { return w.State().Line() }
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

// addWhenCompleted adds the league to its season (--season) once it has
// completed: the console stays open on the final standings, and the
// season has the league from then on. A console quit before that adds
// nothing; the same command run again on the completed league adds it.
func addWhenCompleted(ctx context.Context, league *launcher.League, opts launcher.Spec) {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		if st, err := league.Control.Standings(ctx); err == nil && st.State == engine.LeagueCompleted {
			var log strings.Builder
			if err := season.AddLeague(opts.Config.Season, opts.DataDir, opts.Config.LeagueID, &st, opts.Roster.NamesInSeason(), &log); err != nil {
				slog.Error("the league could not be added to its season", "err", err)
			} else {
				slog.Info(strings.TrimSpace(strings.TrimPrefix(log.String(), "leaguetui: ")))
			}
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
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

// stopLeague stops every child the console started and says so, once the
// console has given the terminal back. A league that has ended first ends
// its web view's pages on its final standings.
func stopLeague(league *launcher.League, view *web.Server, dataDir string, stderr io.Writer) {
	n := len(league.Children())
	if view != nil {
		ctx, cancel := context.WithTimeout(context.Background(), web.FinishTimeout)
		if err := view.Finish(ctx); err != nil && !errors.Is(err, web.ErrNotOver) {
			slog.Warn("the web view's pages did not all get the final standings", "err", err)
		}
		cancel()
	}
	league.Stop()
	slog.Info("agents stopped", "count", n)
	fmt.Fprintf(stderr, "leaguetui: stopped %d agents; the league's files are in %s (seed %d)\n", n, dataDir, league.Seed)
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
