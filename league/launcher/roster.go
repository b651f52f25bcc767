package launcher

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/leaguetui/leaguetui/agents/llm"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/league/control"
	"github.com/leaguetui/leaguetui/league/process"
	"github.com/leaguetui/leaguetui/league/sandbox"
)

// CheckRoster validates a roster against the league's settings before
// anything starts: every entry's kind and fields, the model players'
// settings and the programs' placeholders. The error is a
// *config.RosterError naming the file, the entry and the field.
func CheckRoster(r *config.Roster, cfg config.Config) error {
	checkLLM := func(l config.LLM) error { return llm.CheckIn(cfg, l) }
	return r.Validate(cfg.GameType, checkLLM, func(e config.RosterEntry) error {
		_, err := programSpec(e, programSite{dataDir: "/dev/null"}, 1).Resolve()
		return err
	})
}

// programSite is where a roster program runs: the league's manager, its
// data folder, leaguetui's executable (which confines the program), the
// ports of the league it may connect to, and what it must never read.
type programSite struct {
	managerURL string
	dataDir    string // absolute
	shim       string
	ports      []uint16 // the manager's and the referees'
	referee    bool     // a referee calls players wherever they are
	hide       []string
	require    bool   // --require-sandbox
	diskCap    uint64 // the disk cap of an entry that sets none; 0: the default
}

// programSpec is how a roster program is started: its placeholders, its
// log file, its sandbox and its limits.
func programSpec(e config.RosterEntry, site programSite, port int) process.ProgramSpec {
	own := filepath.Join(site.dataDir, "programs", e.Name)
	limits := e.EffectiveLimits()
	confine := process.Confinement{Off: !e.Sandboxed(), Require: site.require, AnyPort: site.referee,
		Connect: slices.Clone(site.ports), Hide: site.hide, DiskBytes: uint64(limits.DiskMB) << 20}
	if e.Sandboxed() && e.Limits.DiskMB == 0 && site.diskCap > 0 {
		confine.DiskBytes = site.diskCap
	}
	for _, hostPort := range e.Connect {
		port, _ := config.ConnectPort(hostPort) // checked with the roster
		confine.Connect = append(confine.Connect, port)
		confine.UDP = true // names to resolve
	}
	for _, path := range e.Read {
		if !filepath.IsAbs(path) && e.Dir != "" {
			path = filepath.Join(e.Dir, path)
		}
		if abs, err := filepath.Abs(path); err == nil {
			confine.Read = append(confine.Read, abs)
		}
	}
	return process.ProgramSpec{
		Name:    "program " + e.Name,
		Command: e.Command, Dir: e.Dir, Env: e.Env,
		Placeholders: process.Placeholders{
			process.PlaceholderManager: site.managerURL,
			process.PlaceholderPort:    strconv.Itoa(port),
			process.PlaceholderName:    e.Name,
			process.PlaceholderData:    own,
		},
		LogPath: ProgramLog(site.dataDir, e.Name),
		Limits: sandbox.Limits{MemoryBytes: uint64(limits.MemoryMB) << 20, CPUSeconds: uint64(limits.CPUSeconds),
			Processes: uint64(limits.Processes), FileBytes: uint64(limits.FileMB) << 20},
		Shim:    site.shim,
		Sandbox: confine,
	}
}

// ProgramLog is where a roster program's output goes.
func ProgramLog(dataDir, name string) string {
	return filepath.Join(dataDir, "logs", "programs", name+".log")
}

// playerEntries are the players a league starts: the roster's, or
// --players built-in ones named by their ids, their strategies cycled.
func playerEntries(opts Spec) ([]config.RosterEntry, error) {
	seats := mcpSeatEntries(opts.Config.Joining.MCPSeats) // --mcp-seats, after the others
	if opts.Roster != nil {
		return append(slices.Clone(opts.Roster.Players), seats...), nil
	}
	strategies, err := PlayerStrategies(opts.Config)
	if err != nil {
		return nil, err
	}
	entries := make([]config.RosterEntry, opts.Players)
	for i := range entries {
		entries[i] = config.RosterEntry{Name: config.PlayerIDAt(i), Strategy: strategies[i%len(strategies)]}
	}
	return append(entries, seats...), nil
}

// refereeEntries are the referees a league starts: the roster's, when it
// lists any, or --referees built-in ones.
func refereeEntries(opts Spec) []config.RosterEntry {
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
	args = append(args, l.Harness.Args()...) // the entry's harness, every setting, over the league's
	if l.APIKeyFile != "" {
		args = append(args, "--llm-api-key-file", l.APIKeyFile)
	}
	return args
}

// startProgram starts a roster program under supervision, on a free port:
// a player, or a referee (which gets the league's referee key in its
// environment).
func (l *League) startProgram(opts Spec, e config.RosterEntry, notify func(string), refereeKey string) error {
	port, err := process.FreePort(opts.Config.Network.Host)
	if err != nil {
		return fmt.Errorf("program %s: %w", e.Name, err)
	}
	site, err := l.programSite(opts, refereeKey != "")
	if err != nil {
		return fmt.Errorf("program %s: %w", e.Name, err)
	}
	spec := programSpec(e, site, port)
	if refereeKey != "" {
		spec.Secrets = []string{refereeKey}
		l.addLeaguePort(port) // the players' programs may call it there: it keeps its port
	} else {
		spec.PortHost = opts.Config.Network.Host // a player tells the league its endpoint itself
	}
	if err := os.MkdirAll(spec.Placeholders[process.PlaceholderData], 0o755); err != nil {
		return fmt.Errorf("program %s: %w", e.Name, err)
	}
	s, err := process.Supervise(spec, e.RestartLimit(), notify)
	if err != nil {
		return err
	}
	l.programsMu.Lock() // programs start concurrently with the other agents
	l.Programs = append(l.Programs, Program{Name: e.Name, Supervised: s, log: spec.LogPath})
	l.programsMu.Unlock()
	return nil
}

// programSite is where the league's programs run. A player may connect to
// the manager and the referees leaguetui started (players start after
// them); none may read the data folder but its own part, the config
// folder, the roster (which holds the keys it gives others in their
// env), a .env in leaguetui's working folder or beside the roster, or
// any key file the league uses.
func (l *League) programSite(opts Spec, referee bool) (programSite, error) {
	dataDir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return programSite{}, err
	}
	hide := []string{dataDir}
	cfg := opts.Config
	secrets := []string{cfg.Dir, cfg.Security.RefereeKeyFile, cfg.Security.AdminTokenFile, cfg.Network.TLSKey,
		cfg.Player.LLM.APIKeyFile, EnvFile}
	if opts.Roster != nil && opts.Roster.Path != "" {
		secrets = append(secrets, opts.Roster.Path, filepath.Join(filepath.Dir(opts.Roster.Path), EnvFile))
	}
	if opts.Roster != nil {
		for _, e := range append(slices.Clone(opts.Roster.Players), opts.Roster.Referees...) {
			if e.LLM != nil {
				secrets = append(secrets, e.LLM.APIKeyFile)
			}
		}
	}
	for _, path := range secrets {
		if path != "" {
			if abs, err := filepath.Abs(path); err == nil {
				hide = append(hide, abs)
			}
		}
	}
	l.programsMu.Lock()
	ports := slices.Clone(l.leaguePorts)
	l.programsMu.Unlock()
	l.diskOnce.Do(func() { l.diskCap = l.defaultDiskCap(opts, dataDir) })
	return programSite{managerURL: l.Manager.Endpoint, dataDir: dataDir, shim: opts.Executable, ports: ports,
		referee: referee, hide: hide, require: opts.RequireSandbox, diskCap: l.diskCap}, nil
}

// EnvFile is the file of secrets an organiser may keep beside the roster
// or in leaguetui's working folder, which no program may read.
const EnvFile = ".env"

// defaultDiskCap is the disk cap of the roster's confined programs whose
// entries set none: the default, or less where the data folder's disk is
// small (process.DiskCap), said once.
func (l *League) defaultDiskCap(opts Spec, dataDir string) uint64 {
	most := uint64(config.DefaultProgramLimits.DiskMB) << 20
	if opts.Roster == nil {
		return most
	}
	n := 0
	for _, e := range append(slices.Clone(opts.Roster.Players), opts.Roster.Referees...) {
		if e.Kind() == config.KindProgram && e.Sandboxed() && e.Limits.DiskMB == 0 {
			n++
		}
	}
	limit, shared := process.DiskCap(most, dataDir, n)
	if shared {
		l.say(fmt.Sprintf("the disk of %s is short of room: a program with no disk_mb may hold %d MiB (half its free space, shared among %s)",
			dataDir, limit>>20, plural(n, "program")))
	}
	return limit
}

// addLeaguePort records a port of the league's own agents, which a
// player program may connect to.
func (l *League) addLeaguePort(port int) {
	l.programsMu.Lock()
	l.leaguePorts = append(l.leaguePorts, uint16(port))
	l.programsMu.Unlock()
}

// addLeagueEndpoint records the port of an agent's /mcp URL.
func (l *League) addLeagueEndpoint(endpoint string) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return
	}
	if port, err := strconv.Atoi(u.Port()); err == nil {
		l.addLeaguePort(port)
	}
}

// seatArgs are the manager's arguments that say whom it takes beside its
// own players (--reserve): exactly the open seats; and each of its own
// players but the programs only with its join code, so that no one
// registering first under its name takes its id. The codes are made (or
// kept from an earlier run) in the data folder's join-codes.json, where
// the organiser finds the external players' to hand out; leaguetui gives
// its built-in and model players theirs in their environment.
//
// A league launched with no player of its own and no seat is one whose
// players its caller registers (the bench's, inside its own process): its
// manager takes anyone, as one started by hand.
func (l *League) seatArgs(opts Spec, layout store.Layout, players []config.RosterEntry) ([]string, error) {
	if len(players) == 0 && opts.Config.Joining.OpenSeats == 0 {
		return nil, nil
	}
	args := []string{"--open-seats", strconv.Itoa(opts.Config.Joining.OpenSeats)}
	var coded, external, codeless []string
	for _, e := range players {
		switch k := e.Kind(); {
		case k == config.KindExternal && !e.NeedsJoinCode():
			codeless = append(codeless, e.Name)
		case k == config.KindExternal:
			external = append(external, e.Name)
			coded = append(coded, e.Name)
		case k == config.KindBuiltin, k == config.KindModel, k == config.KindMCP: // an MCP seat's code is in seats.json
			coded = append(coded, e.Name)
		}
	}
	path := layout.JoinCodes()
	if err := l.leaveCodeless(path, codeless); err != nil {
		return nil, err
	}
	if len(coded) == 0 {
		return args, nil
	}
	codes, err := store.EnsureJoinCodes(path, coded)
	if err != nil {
		return nil, err
	}
	l.joinCodes = codes
	if len(external) > 0 {
		l.say(fmt.Sprintf("the join codes of %s are in %s (readable by you only): hand each its own; it registers with it in player_meta.join_code",
			strings.Join(external, ", "), path))
	}
	return append(args, "--join-codes", path), nil
}

// leaveCodeless makes sure the external entries that need no join code
// ("join_code": false) have none in the file the manager reads, and says
// what that gives up: whoever registers under such a name first takes it.
// Their names stay the league's own (--reserve), so no look-alike of
// them is taken.
func (l *League) leaveCodeless(path string, codeless []string) error {
	if len(codeless) == 0 {
		return nil
	}
	if err := store.ForgetJoinCodes(path, codeless); err != nil {
		return err
	}
	l.say(fmt.Sprintf("no join code for %s (\"join_code\": false): whoever registers first under such a name takes it",
		strings.Join(codeless, ", ")))
	return nil
}

// joinCodeEnv is the environment that gives our own player name its join
// code, none when it has none.
func (l *League) joinCodeEnv(name string) []string {
	if code, ok := l.joinCodes.Lookup(name); ok {
		return []string{config.JoinCodeEnv + "=" + code}
	}
	return nil
}

// Program is a roster program the league started.
type Program struct {
	Name string
	*process.Supervised
	log string // where its output goes
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
