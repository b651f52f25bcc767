package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// A data folder remembers how its league was started (store.StartSpec):
// the flags of the first run, given again before the user's own on every
// later run on that folder, so that `leaguetui --no-ui --data DIR`
// resumes a roster, open-seat or link race league with nothing repeated.

// notRemembered are the flags that concern one run, not the league: how
// it is shown, and the admin token (a secret, never written).
var notRemembered = []string{"data", "no-ui", "json", "quiet", "csv", "web", "attach", "admin-token", "version", "advertise"}

// leagueShaping are the remembered flags a later run may not change: they
// make another league (who plays, what, in which format). The others
// (timeouts, retries, ports, TLS, …) are remembered but may be given anew.
var leagueShaping = []string{"config", "league-id", "game", "format", "rounds", "challengers", "games-per-pair", "sprt",
	"max-games", "roster", "open-seats", "mcp-seats", "strategies", "pages", "pages-url", "race-steps", "race-distance", "page-links",
	"race-draw-loads", "players"}

// pathFlags hold file names: remembered absolute, as a later run may be
// started from another working folder.
var pathFlags = []string{"config", "roster", "pages", "tls-cert", "tls-key", "tls-ca", "llm-api-key-file", "admin-token-file"}

// withRemembered is the command line that runs the league of dataDir:
// the flags its data folder remembers, then args, the user's own; ok is
// false when the folder remembers none (a new folder, or an old one). A
// league-shaping flag given that disagrees with the folder is a usage
// error, before anything starts.
func withRemembered(fs *flag.FlagSet, dataDir string, args []string) (merged []string, ok bool, err error) {
	spec, ok, err := store.LoadStartSpec(dataDir)
	if err != nil || !ok {
		return nil, false, err
	}
	remembered := flagValues(spec.Args)
	var differ []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(leagueShaping, f.Name) {
			return
		}
		given := rememberedValue(f.Name, f.Value.String())
		switch was, had := remembered[f.Name]; {
		case !had:
			differ = append(differ, fmt.Sprintf("--%s %s (it was started without --%s)", f.Name, given, f.Name))
		case was != given:
			differ = append(differ, fmt.Sprintf("--%s %s (it was started with --%s %s)", f.Name, given, f.Name, was))
		}
	})
	if len(differ) > 0 {
		return nil, false, &usageError{fmt.Sprintf("--data %s holds a league started otherwise (%s): %s; "+
			"leave it out to resume that league, or pass another --data folder for a new one",
			dataDir, store.StartSpecFile(dataDir), strings.Join(differ, " and "))}
	}
	return append(slices.Clone(spec.Args), args...), true, nil
}

// startArgs are the flags a new league's data folder remembers: those
// given on the command line or, for the config's, in the environment
// (but the run's own), and --players, always (an open-seat league's
// standings count the seats too).
func startArgs(fs *flag.FlagSet, getenv func(string) string) []string {
	var args []string
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		given[f.Name] = true
		if !slices.Contains(notRemembered, f.Name) {
			args = append(args, "--"+f.Name+"="+rememberedValue(f.Name, f.Value.String()))
		}
	})
	fs.VisitAll(func(f *flag.Flag) {
		env := config.EnvOf(f.Name)
		if given[f.Name] || env == "" || getenv(env) == "" || slices.Contains(notRemembered, f.Name) {
			return
		}
		args = append(args, "--"+f.Name+"="+rememberedValue(f.Name, getenv(env)))
	})
	if !given["players"] {
		args = append(args, "--players="+fs.Lookup("players").Value.String())
	}
	return args
}

// rememberedValue is a flag's value as the folder keeps it: a file name
// (a game program's manifest too) absolute.
func rememberedValue(name, value string) string {
	if (slices.Contains(pathFlags, name) || (name == "game" && config.IsGameFile(value))) && value != "" {
		if abs, err := filepath.Abs(value); err == nil {
			return abs
		}
	}
	return value
}

// flagValues reads "--name=value" arguments into a map by name.
func flagValues(args []string) map[string]string {
	values := map[string]string{}
	for _, a := range args {
		name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		values[name] = value
	}
	return values
}

// agreesWithDataFolder refuses, before anything starts, a --seed,
// --players or --game that disagrees with the league the data folder
// holds and has started (its journal's league_started): a usage error,
// exit status 2, in one line that gives the two ways on. A league that
// has not started has no seed of its own yet, and is begun again.
func agreesWithDataFolder(spec launcher.Spec) error {
	layout := store.Layout{Root: spec.DataDir, LeagueID: spec.Config.LeagueID}
	if layout.Validate() != nil {
		return nil // the launcher names a bad --league-id
	}
	start, ok := journaledStart(layout.Journal())
	if !ok {
		return nil
	}
	var differ, given []string
	// The league's players count the open seats taken too.
	if n := len(start.Players); spec.Given.Players && spec.Roster == nil && n > 0 &&
		(n < spec.Players || n > spec.Players+spec.Config.Joining.OpenSeats+spec.Config.Joining.MCPSeats) {
		differ = append(differ, fmt.Sprintf("--players %d (it has %d)", spec.Players, n))
		given = append(given, fmt.Sprintf("--players %d", spec.Players))
	}
	if spec.Given.Seed && spec.Seed != start.Seed {
		differ = append(differ, fmt.Sprintf("--seed %d (its seed is %d)", spec.Seed, start.Seed))
		given = append(given, fmt.Sprintf("--seed %d", spec.Seed))
	}
	if game := spec.Config.GameType; gameGiven(spec.ConfigArgs) && start.GameType != "" && game != start.GameType {
		differ = append(differ, fmt.Sprintf("--game %s (it plays %s)", game, start.GameType))
		given = append(given, "--game "+game)
	}
	if len(differ) == 0 {
		return nil
	}
	verb := "disagrees"
	if len(differ) > 1 {
		verb = "disagree"
	}
	return &usageError{fmt.Sprintf("%s; %s %s with it. Either open it as it is (leave out %s), "+
		"or start a new league in another folder (--data NEW_FOLDER %s)",
		describeStarted(layout, start), strings.Join(differ, " and "), verb, strings.Join(given, " "), strings.Join(given, " "))}
}

// gameGiven says the command line (or the folder's remembered flags)
// names the game.
func gameGiven(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		return name == "game" && strings.HasPrefix(a, "-")
	})
}

// journaledStart is the start of the league whose journal is at path, as
// its league_started event has it; false when the league has not started
// (or there is no journal, or it cannot be read: the launcher says why).
func journaledStart(path string) (engine.StartInfo, bool) {
	var start *engine.StartInfo
	errFound := errors.New("found")
	_, err := store.NewJournalReader(path).Read(1, math.MaxInt64, func(raw json.RawMessage) error {
		var ev struct {
			Kind  engine.EventKind  `json:"kind"`
			Start *engine.StartInfo `json:"start"`
		}
		if json.Unmarshal(raw, &ev) == nil && ev.Kind == engine.EventLeagueStarted && ev.Start != nil {
			start = ev.Start
			return errFound
		}
		return nil
	})
	if start == nil || !errors.Is(err, errFound) {
		return engine.StartInfo{}, false
	}
	return *start, true
}

// describeStarted names the league of the data folder as the launcher
// does (its state, game, players, seed, progress) from its standings
// file, or, when that file is not of this start, from the journal alone.
func describeStarted(layout store.Layout, start engine.StartInfo) string {
	var doc protocol.StandingsFile
	if store.ReadJSON(layout.Standings(), &doc) == nil && doc.Seed == start.Seed && doc.State != "" {
		return launcher.DescribeLeague(layout.Root, doc)
	}
	return fmt.Sprintf("%s holds league %s: started, %s, %s, seed %d", layout.Root, layout.LeagueID, start.GameType,
		control.Plural(len(start.Players), "player"), start.Seed)
}
