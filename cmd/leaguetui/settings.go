package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/launcher"
	"github.com/leaguetui/leaguetui/league/season"
)

// settingsError is a value leaguetui cannot run with, from the command
// line, the environment or the config folder. It is a usage error (exit
// status 2), said in one line that names where the value came from.
type settingsError struct{ err error }

func (e *settingsError) Error() string {
	return strings.ReplaceAll(strings.TrimSpace(e.err.Error()), "\n", "; ")
}

func (e *settingsError) Unwrap() error { return e.err }

// badSettings marks err as a bad setting.
func badSettings(err error) error {
	if err == nil {
		return nil
	}
	return &settingsError{err}
}

// checkGame refuses a game leaguetui does not know before any agent
// starts, naming where the game was chosen.
func checkGame(cf *config.Flags, cfg config.Config) error {
	if _, ok := engine.LookupGame(cfg.GameType); ok {
		return nil
	}
	return badSettings(fmt.Errorf("%s %q: want one of %s", cf.Origin("game", cfg), cfg.GameType,
		strings.Join(engine.GameTypes(), ", ")))
}

// checkLeague refuses, before any agent starts, the settings that only a
// league's start would find wrong: the game, an --sprt test that does not
// read, and, for a league that starts its own agents, a page graph file
// its page server could not open and --strategies its players could not
// play.
func checkLeague(cf *config.Flags, cfg config.Config, startsPlayers bool) error {
	if err := checkGame(cf, cfg); err != nil {
		return err
	}
	if cfg.Format.SPRT != "" {
		if _, err := engine.ParseSPRT(cfg.Format.SPRT); err != nil {
			return badSettings(fmt.Errorf("%s %q: %v; want e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05",
				cf.Origin("sprt", cfg), cfg.Format.SPRT, strings.TrimPrefix(err.Error(), "sprt: ")))
		}
	}
	if cfg.Season != "" {
		s, err := season.Read(cfg.Season)
		if err == nil {
			err = s.CheckGame(cfg.GameType)
		}
		if err != nil {
			return badSettings(fmt.Errorf("%s: %w", cf.Origin("season", cfg), err))
		}
	}
	if !startsPlayers {
		return nil
	}
	if err := checkPageGraph(cf, cfg); err != nil {
		return err
	}
	if _, err := launcher.PlayerStrategies(cfg); err != nil {
		// The list may come from the environment or a config file rather
		// than the flag its message names.
		if rest, ok := strings.CutPrefix(err.Error(), "--strategies:"); ok {
			err = errors.New(cf.Origin("strategies", cfg) + ":" + rest)
		}
		return badSettings(err)
	}
	return nil
}

// checkAgentFlags refuses, before the agent starts, a port no socket can
// have and a manager URL that is not one.
func checkAgentFlags(af agentFlags) error {
	if err := checkPort(*af.port); err != nil {
		return err
	}
	if af.manager == nil {
		return nil
	}
	if u, err := url.Parse(*af.manager); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return badSettings(fmt.Errorf("--manager %q is not a valid URL: want the manager's /mcp URL, e.g. http://127.0.0.1:8000/mcp", *af.manager))
	}
	return nil
}

// checkPort refuses a --port no socket can have, rather than failing to
// listen on it as if it were taken.
func checkPort(port int) error {
	if port < 0 || port > maxPort {
		return badSettings(fmt.Errorf("--port %d is out of range: want 0 (a free port) to %d", port, maxPort))
	}
	return nil
}

const maxPort = 65535

// checkStrategy refuses a player strategy the game has none of.
func checkStrategy(cfg config.Config, strategy string) error {
	own := engine.StrategyNamesFor(cfg.GameType)
	if strategy == llm.StrategyName {
		return badSettings(llm.CheckIn(cfg, cfg.Player.LLM))
	}
	if slices.Contains(own, strategy) {
		return nil
	}
	if len(own) == 0 {
		return badSettings(errors.New("no built-in player plays " + cfg.GameType))
	}
	return badSettings(fmt.Errorf("--strategy %q: want one of %s, or %s", strategy,
		strings.Join(own, ", "), llm.StrategyName))
}

// checkListenFlag refuses an address flag (--web, --addr) no socket could
// listen on, before anything starts rather than once the league has.
func checkListenFlag(name, addr string) error {
	if addr == "" {
		return nil
	}
	if err := config.CheckListenAddress(addr); err != nil {
		return &usageError{fmt.Sprintf("--%s %s: %v", name, addr, err)}
	}
	return nil
}

// checkManagerURL refuses an --attach that is not a manager's URL, which
// would otherwise be asked for its league for ever.
func checkManagerURL(name, raw string) error {
	if raw == "" {
		return nil
	}
	if u, err := url.Parse(raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || config.CheckHost(u.Hostname()) != nil {
		return &usageError{fmt.Sprintf("--%s %q is not a manager's URL: want e.g. http://127.0.0.1:8000", name, raw)}
	}
	return nil
}

// checkOutputFolder makes sure the folder an output flag names (--csv)
// takes files, before a league is played to fill it.
func checkOutputFolder(name, dir string) error {
	if dir == "" {
		return nil
	}
	if err := store.CheckFolderWritable(dir); err != nil {
		return &usageError{fmt.Sprintf("--%s %s: %v", name, dir, err)}
	}
	return nil
}

// warnWeakSecrets says on stderr, a line each, which admin token or
// referee key anyone could guess, and where it came from.
func warnWeakSecrets(cfg config.Config) {
	for _, warning := range cfg.WeakSecrets(os.Getenv) {
		fmt.Fprintln(os.Stderr, "leaguetui:", warning) // an agent's stderr is its output file: the warning lands there too
	}
}

// checkOutputFile makes sure a file an output flag names (--junit) can be
// written, before the run that fills it: its folder takes files, and it
// is no folder itself.
func checkOutputFile(name, path string) error {
	if path == "" {
		return nil
	}
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return &usageError{fmt.Sprintf("--%s %s: is a folder, want a file", name, path)}
	}
	if err := store.CheckFolderWritable(filepath.Dir(path)); err != nil {
		return &usageError{fmt.Sprintf("--%s %s: its folder is %v", name, path, err)}
	}
	return nil
}

// checkPageGraph refuses a page graph file (--pages) that cannot be
// opened, before the page server that reads it has started, after the
// league's manager.
func checkPageGraph(cf *config.Flags, cfg config.Config) error {
	if cfg.Pages.File == "" {
		return nil
	}
	f, err := os.Open(cfg.Pages.File)
	if err == nil {
		var info os.FileInfo
		if info, err = f.Stat(); err == nil && info.IsDir() {
			err = errors.New("is a folder, want a SQLite or JSONL file")
		}
		f.Close()
	}
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		err = pathErr.Err // the line names the file already
	}
	if err != nil {
		return badSettings(fmt.Errorf("%s %s: %w", cf.Origin("pages", cfg), cfg.Pages.File, err))
	}
	return nil
}
