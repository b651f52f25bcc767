package headless

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/leaguetui/leaguetui/agents/control"
	"github.com/leaguetui/leaguetui/agents/launch"
	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/config"
)

// CheckRoster validates a roster against the league's settings before
// anything starts: every entry's kind and fields, the model players'
// settings and the programs' placeholders. The error is a
// *config.RosterError naming the file, the entry and the field.
func CheckRoster(r *config.Roster, cfg config.Config) error {
	checkLLM := func(l config.LLM) error { return llm.CheckIn(cfg, l) }
	return r.Validate(cfg.GameType, checkLLM, func(e config.RosterEntry) error {
		_, err := programSpec(e, "", "", "/dev/null", 1).Resolve()
		return err
	})
}

// programSpec is how a roster program is started: its placeholders, its
// log file and its limits.
func programSpec(e config.RosterEntry, managerURL, dataDir, shim string, port int) launch.ProgramSpec {
	own := filepath.Join(dataDir, "programs", e.Name)
	return launch.ProgramSpec{
		Name:    "program " + e.Name,
		Command: e.Command, Dir: e.Dir, Env: e.Env,
		Placeholders: launch.Placeholders{
			launch.PlaceholderManager: managerURL,
			launch.PlaceholderPort:    strconv.Itoa(port),
			launch.PlaceholderName:    e.Name,
			launch.PlaceholderData:    own,
		},
		LogPath: ProgramLog(dataDir, e.Name),
		Limits: launch.Limits{MemoryBytes: uint64(e.Limits.MemoryMB) << 20, CPUSeconds: uint64(e.Limits.CPUSeconds),
			Processes: uint64(e.Limits.Processes)},
		Shim: shim,
	}
}

// ProgramLog is where a roster program's output goes.
func ProgramLog(dataDir, name string) string {
	return filepath.Join(dataDir, "logs", "programs", name+".log")
}

// playerEntries are the players a league starts: the roster's, or
// --players built-in ones named by their ids, their strategies cycled.
func playerEntries(opts Options) ([]config.RosterEntry, error) {
	if opts.Roster != nil {
		return opts.Roster.Players, nil
	}
	strategies, err := PlayerStrategies(opts.Config)
	if err != nil {
		return nil, err
	}
	entries := make([]config.RosterEntry, opts.Players)
	for i := range entries {
		entries[i] = config.RosterEntry{Name: config.PlayerIDAt(i), Strategy: strategies[i%len(strategies)]}
	}
	return entries, nil
}

// refereeEntries are the referees a league starts: the roster's, when it
// lists any, or --referees built-in ones.
func refereeEntries(opts Options) []config.RosterEntry {
	if opts.Roster != nil && len(opts.Roster.Referees) > 0 {
		return opts.Roster.Referees
	}
	entries := make([]config.RosterEntry, opts.Referees)
	for i := range entries {
		entries[i] = config.RosterEntry{Name: fmt.Sprintf("REF%02d", i+1)}
	}
	return entries
}

// modelArgs are a model player's own llm settings as flags, after the
// league's (the last of a flag given twice wins).
func modelArgs(e config.RosterEntry) []string {
	if e.LLM == nil {
		return nil // the league's --llm-* settings, passed on to every player
	}
	l := e.LLM
	args := []string{"--llm-provider", l.Provider, "--llm-model", l.Model, "--llm-base-url", l.BaseURL,
		"--llm-api-key-env", l.APIKeyEnv, "--llm-fallback", l.Fallback,
		"--llm-max-tokens-per-match", strconv.Itoa(l.MaxTokensPerMatch), "--llm-price", l.Price.String(),
		"--llm-budget-usd", strconv.FormatFloat(l.BudgetUSD, 'f', -1, 64), "--llm-budget-tokens", strconv.FormatInt(l.BudgetTokens, 10),
		"--llm-tool-calls", l.ToolCalls}
	if l.APIKeyFile != "" {
		args = append(args, "--llm-api-key-file", l.APIKeyFile)
	}
	return args
}

// startProgram starts a roster program under supervision, on a free port.
func (l *League) startProgram(opts Options, e config.RosterEntry, notify func(string), secrets ...string) error {
	port, err := launch.FreePort(opts.Config.Network.Host)
	if err != nil {
		return fmt.Errorf("program %s: %w", e.Name, err)
	}
	spec := programSpec(e, l.Manager.Endpoint, opts.DataDir, opts.Executable, port)
	spec.Secrets = secrets
	if err := os.MkdirAll(spec.Placeholders[launch.PlaceholderData], 0o755); err != nil {
		return fmt.Errorf("program %s: %w", e.Name, err)
	}
	s, err := launch.Supervise(spec, e.RestartLimit(), notify)
	if err != nil {
		return err
	}
	l.programsMu.Lock() // programs start concurrently with the other agents
	l.Programs = append(l.Programs, Program{Name: e.Name, Supervised: s})
	l.programsMu.Unlock()
	return nil
}

// Program is a roster program the league started.
type Program struct {
	Name string
	*launch.Supervised
}

// joinTarget is who a new league waits for before it starts: the roster's
// players and referees that register on their own (programs and outside
// agents), and the open seats.
type joinTarget struct {
	names []string
	seats int
}

func (j joinTarget) empty() bool { return len(j.names) == 0 && j.seats == 0 }

func (j joinTarget) describe() string {
	var parts []string
	if len(j.names) > 0 {
		parts = append(parts, strings.Join(j.names, ", "))
	}
	if j.seats > 0 {
		parts = append(parts, plural(j.seats, "open seat"))
	}
	return strings.Join(parts, " and ")
}

var plural = control.Plural

func names(entries []config.RosterEntry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name
	}
	return out
}
