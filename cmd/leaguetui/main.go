// Command leaguetui runs and shows leagues of autonomous game-playing agents.
//
//	leaguetui                 the console: start a local league and watch it
//	leaguetui --no-ui         the same league headless, for CI
//	leaguetui manager|referee|player   one agent alone
//	leaguetui check -- COMMAND         test any agent against league.v2
package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/leaguetui/leaguetui/agents/manager"
	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/agents/referee"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/agents/tlsconf"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/launcher"
	"github.com/leaguetui/leaguetui/league/noui"
	"github.com/leaguetui/leaguetui/league/sandbox"
	"github.com/leaguetui/leaguetui/tui"
)

const usage = `leaguetui runs and shows leagues of autonomous game-playing agents.

Usage:
  leaguetui [flags]              start a local league in the console
  leaguetui --attach URL         watch (and with its admin token, control) a running manager
  leaguetui --no-ui [flags]      run the same league headless and print the standings
  leaguetui manager [flags]      run the league manager alone
  leaguetui referee [flags]      run one referee
  leaguetui player [flags]       run one player
  leaguetui seats [flags]        host MCP-client seats: MCP clients play the league through tools
  leaguetui pages [flags]        serve a page graph to link-race referees (MCP)
  leaguetui bench [flags]        measure how close a league runs to the machine's limit
  leaguetui check [flags] -- COMMAND   test a player or referee of any implementation against league.v2
  leaguetui report DATA [flags]  write a data folder's league as an HTML report and CSV files
  leaguetui web --attach URL     serve a running manager's live web view for spectators
  leaguetui replay DATA          step through a finished league's matches in the console
  leaguetui season DIR [flags]   the table of a season folder (leagues added with --season DIR)
  leaguetui scan DATA [flags]    why each model game not won was lost, in named categories
  leaguetui export DATA [flags]  one JSON line per model move (--format jsonl), or the CSV files
  leaguetui probe [flags] URL    exit 0 when the agent at URL answers healthy (for container health checks)
  leaguetui completion SHELL     print the completion script for bash, zsh or fish

Run "leaguetui COMMAND --help" for a command's flags.

Exit status (every command):
  0    done: the league completed, or the agent was stopped (SIGTERM)
  1    an error, named on stderr
  2    a bad command line or setting: the flag, or the config file and key, is named on stderr
  130  interrupted with Ctrl-C: the league is saved and resumes on the same --data

Flags:
`

func main() {
	// A closed terminal (SIGHUP) ends leaguetui like a quit, so the agents it
	// started are stopped rather than left running.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// Ctrl-C is read apart: a headless league drains on the first and stops
	// on the second; everything else stops on the first.
	interrupts := make(chan os.Signal, 2)
	signal.Notify(interrupts, os.Interrupt)
	if err := run(ctx, interrupts, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "leaguetui:", err)
		}
		os.Exit(exitCode(err))
	}
}

// Exit statuses, as --help and docs/running.md list them.
const (
	exitError       = 1
	exitUsage       = 2
	exitInterrupted = 130 // the shell's code for Ctrl-C
)

// exitCode is 0 for --help, 2 for a bad command line, 130 for a run
// interrupted with Ctrl-C, and 1 for any other failure.
func exitCode(err error) int {
	var interrupted *noui.InterruptedError
	var usage *usageError
	var badValue *config.FlagError
	var badRoster *config.RosterError
	var badSetting *settingsError
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &interrupted), errors.Is(err, errInterrupted), errors.Is(err, tui.ErrInterrupted):
		return exitInterrupted
	case errors.As(err, &usage), errors.As(err, &badValue), errors.As(err, &badRoster), errors.As(err, &badSetting):
		return exitUsage
	}
	return exitError
}

// errInterrupted ends a console or an agent stopped with Ctrl-C.
var errInterrupted = errors.New("interrupted")

// usageError is a command line leaguetui cannot read. Its text is one line
// naming the flag and pointing at --help, not the whole usage.
type usageError struct{ msg string }

// adminTokenFlagRefused answers --admin-token, a flag leaguetui no longer
// has: a token on the command line shows in every local user's ps.
const adminTokenFlagRefused = "--admin-token would show the token to every local user (ps): set LEAGUETUI_ADMIN_TOKEN or pass --admin-token-file FILE"

func (e *usageError) Error() string { return e.msg + " (see --help)" }

// badCommandLine turns the flag package's error into one line that names
// the flag as it is documented, with two dashes.
func badCommandLine(fs *flag.FlagSet, err error) *usageError {
	msg := err.Error()
	if msg == "flag provided but not defined: -admin-token" {
		return &usageError{adminTokenFlagRefused}
	}
	if msg == "flag provided but not defined: -race-draw-timeout" {
		return &usageError{"--race-draw-timeout is gone: a race draw is bounded by its page loads (--race-draw-loads), so a seed draws the same race on any machine"}
	}
	for prefix, format := range map[string]string{
		"flag provided but not defined: -": "unknown flag --%s",
		"flag needs an argument: -":        "--%s needs a value",
	} {
		if name, ok := strings.CutPrefix(msg, prefix); ok {
			return &usageError{fmt.Sprintf(format, name)}
		}
	}
	// invalid value "5" for flag -move-timeout: why
	if value, rest, ok := strings.Cut(strings.TrimPrefix(msg, "invalid value "), " for flag -"); ok && value != msg {
		if name, why, ok := strings.Cut(rest, ": "); ok {
			return &usageError{fmt.Sprintf("--%s %s: %s", name, value, expected(fs.Lookup(name), why))}
		}
	}
	// invalid boolean value "maybe" for -no-ui: parse error
	if value, rest, ok := strings.Cut(strings.TrimPrefix(msg, "invalid boolean value "), " for -"); ok && value != msg {
		if name, _, ok := strings.Cut(rest, ": "); ok {
			return &usageError{fmt.Sprintf("--%s=%s: want true or false", name, value)}
		}
	}
	return &usageError{msg}
}

// expected says what a flag takes where the flag package says only
// "parse error".
func expected(f *flag.Flag, why string) string {
	if f == nil || why != "parse error" {
		return why
	}
	switch kind, _ := flag.UnquoteUsage(f); kind {
	case "":
		return "want true or false"
	case "int", "uint":
		return "want a whole number"
	default:
		return "want a " + kind
	}
}

func run(ctx context.Context, interrupts <-chan os.Signal, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == sandbox.ExecCommand {
		return sandbox.Exec(args[1:]) // returns only on failure
	}
	commands := commandTable(stdout, stderr)
	if len(args) > 0 && commands[args[0]] != nil {
		ctx, interrupted := cancelOnInterrupt(ctx, interrupts)
		return whenInterrupted(commands[args[0]](ctx, args[1:]), interrupted)
	}
	return runLeague(ctx, interrupts, args, stdout, stderr)
}

// commandTable is every command leaguetui takes as its first argument;
// without one it runs a league. A command listed here, its flags and its
// help are in docs/cli.md and the shell completions by themselves (see
// commandLine), provided it makes its flag set with newFlagSet or
// newCommandFlagSet and prints its help on stdout.
func commandTable(stdout, stderr io.Writer) map[string]func(context.Context, []string) error {
	return map[string]func(context.Context, []string) error{
		"manager":    func(ctx context.Context, args []string) error { return runManager(ctx, args, stdout) },
		"referee":    func(ctx context.Context, args []string) error { return runReferee(ctx, args, stdout) },
		"player":     func(ctx context.Context, args []string) error { return runPlayer(ctx, args, stdout) },
		"seats":      func(ctx context.Context, args []string) error { return runSeats(ctx, args, stdout) },
		"bench":      func(ctx context.Context, args []string) error { return runBench(ctx, args, stdout, stderr) },
		"pages":      func(ctx context.Context, args []string) error { return runPages(ctx, args, stdout, stderr) },
		"completion": func(_ context.Context, args []string) error { return runCompletion(args, stdout) },
		"probe":      func(ctx context.Context, args []string) error { return runProbe(ctx, args, stdout) },
		"check":      func(ctx context.Context, args []string) error { return runCheck(ctx, args, stdout, stderr) },
		"report":     func(ctx context.Context, args []string) error { return runReport(ctx, args, stdout) },
		"web":        func(ctx context.Context, args []string) error { return runWeb(ctx, args, stdout, stderr) },
		"replay":     func(ctx context.Context, args []string) error { return runReplay(ctx, args, stdout) },
		"season":     func(ctx context.Context, args []string) error { return runSeason(ctx, args, stdout) },
		"scan":       func(ctx context.Context, args []string) error { return runScan(ctx, args, stdout) },
		"export":     func(ctx context.Context, args []string) error { return runExport(ctx, args, stdout, stderr) },
	}
}

// cancelOnInterrupt ends ctx at the first Ctrl-C; interrupted tells,
// once the command is done with ctx, whether that is why it ended.
func cancelOnInterrupt(ctx context.Context, interrupts <-chan os.Signal) (_ context.Context, interrupted func() bool) {
	ctx, cancel := context.WithCancel(ctx)
	var byCtrlC atomic.Bool
	go func() {
		select {
		case <-interrupts:
			byCtrlC.Store(true)
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() bool {
		cancel()
		return byCtrlC.Load()
	}
}

// whenInterrupted is errInterrupted for a command that ended cleanly
// because of Ctrl-C, so that it exits 130 like --no-ui.
func whenInterrupted(err error, interrupted func() bool) error {
	if interrupted() && err == nil {
		return errInterrupted
	}
	return err
}

// newFlagSet makes a command's flag set with the shared config flags it
// reads (config.CommandFlags, by the command's name: "leaguetui manager"
// is "manager", "leaguetui" the league). --help prints help and the flags
// on stdout; parse reports any other mistake in one line.
func newFlagSet(name, help string, stdout io.Writer) (*flag.FlagSet, *config.Flags) {
	command := strings.TrimSpace(strings.TrimPrefix(name, program))
	if _, ok := config.CommandFlags[command]; !ok {
		panic(fmt.Sprintf("config.CommandFlags says nothing of %q: add the shared flag groups it reads", name))
	}
	fs := newCommandFlagSet(name, help, stdout)
	return fs, config.AddCommandFlags(fs, command)
}

// newCommandFlagSet makes a command's flag set without the config flags,
// for a command that reads no config. When leaguetui describes its
// command line (commandLine), stdout is a recorder that keeps the set.
func newCommandFlagSet(name, help string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// The flag package prints the usage on --help and on every mistake
	// alike; it goes to a buffer that parse shows only for --help.
	fs.SetOutput(&helpText{to: stdout})
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), help)
		fs.PrintDefaults()
	}
	if recorder, ok := stdout.(*flagSetRecorder); ok {
		recorder.record(fs, help)
	}
	return fs
}

// helpText holds what the flag package printed until parse knows whether
// it was asked for.
type helpText struct {
	bytes.Buffer
	to io.Writer
}

// parseArgs parses the command line into fs: --help prints the help,
// any other mistake is one line naming the flag.
func parseArgs(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil {
		return nil
	}
	if errors.Is(err, flag.ErrHelp) {
		if help, ok := fs.Output().(*helpText); ok {
			_, _ = help.WriteTo(help.to)
		}
		return err
	}
	return badCommandLine(fs, err)
}

// parse reads a command's flags and resolves the config. A bad value,
// whether on the command line, in the environment or in the config
// folder, is a usage error: one line, exit status 2, before anything starts.
func parse(fs *flag.FlagSet, cf *config.Flags, args []string) (config.Config, error) {
	if err := parseArgs(fs, args); err != nil {
		return config.Config{}, err
	}
	if fs.NArg() > 0 {
		return config.Config{}, &usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	return resolve(cf)
}

// parseWithArgs is parse for a command that takes arguments after its
// flags (probe's URL); it returns them.
func parseWithArgs(fs *flag.FlagSet, cf *config.Flags, args []string) (config.Config, []string, error) {
	if err := parseArgs(fs, args); err != nil {
		return config.Config{}, nil, err
	}
	cfg, err := resolve(cf)
	return cfg, fs.Args(), err
}

// resolve makes the config from the flags, the environment and the config
// folder, and sets up TLS before any client is built. TLS files that
// cannot be read are bad settings too, found here rather than when an
// agent the console started fails to listen.
func resolve(cf *config.Flags) (config.Config, error) {
	cfg, err := cf.Resolve()
	if err != nil {
		return cfg, badSettings(err)
	}
	if err := useGameProgram(cfg); err != nil {
		return cfg, err
	}
	if _, err := tlsconf.Server(cfg.Network.TLSCert, cfg.Network.TLSKey); err != nil {
		return cfg, badSettings(err)
	}
	if warning := tlsconf.LooseKey(cfg.Network.TLSKey); warning != "" {
		fmt.Fprintln(os.Stderr, "leaguetui:", warning) // an agent's stderr is its output file: the warning lands there too
	}
	return cfg, badSettings(tlsconf.Setup(cfg.Network.TLSCA))
}

const requireSandboxUsage = "refuse to start a roster program (or the checked agent) where this machine cannot confine its files, ports, signals and listening sockets (Landlock ABI 6, seccomp and its user notification with pidfd_getfd); without it such a program runs unconfined, said plainly"

// sandboxRequired refuses, before anything starts, a league whose roster
// programs this machine cannot confine.
func sandboxRequired(roster *config.Roster) error {
	support := sandbox.Probe()
	if support.Confines() || roster == nil {
		return nil
	}
	for _, e := range append(append([]config.RosterEntry{}, roster.Players...), roster.Referees...) {
		if e.Kind() == config.KindProgram && e.Sandboxed() {
			return &usageError{fmt.Sprintf("--require-sandbox: this machine cannot confine program %s (%s)", e.Name,
				support.Describe(sandbox.Limits{}, false))}
		}
	}
	return nil
}

func runLeague(ctx context.Context, interrupts <-chan os.Signal, args []string, stdout, stderr io.Writer) error {
	f, err := readLeagueFlags(args, stdout)
	if err != nil {
		return err
	}
	if f.version {
		fmt.Fprintln(stdout, versionLine())
		return nil
	}
	spec, err := leagueSpec(f)
	if err != nil {
		return err
	}
	if f.noUI {
		return noui.Run(ctx, spec, noui.Outputs{Stdout: stdout, Stderr: stderr, JSON: f.asJSON, Quiet: f.quiet,
			CSVDir: f.csvDir, WebAddr: f.webAddr, Interrupts: interrupts})
	}
	attach := attachOptions{URL: f.attach}
	if f.attach != "" { // the attached manager's token, for start, pause, resume and stop
		if attach.AdminToken, err = f.cfg.AdminToken(os.Getenv); err != nil {
			return err
		}
	}
	// In the console Ctrl-C is a key; a signal from elsewhere quits.
	ctx, interrupted := cancelOnInterrupt(ctx, interrupts)
	return whenInterrupted(runConsole(ctx, spec, consoleOutputs{Stderr: stderr, WebAddr: f.webAddr}, attach), interrupted)
}

// leagueFlags are the command line of a league (leaguetui without a
// command), read.
type leagueFlags struct {
	fs  *flag.FlagSet
	cf  *config.Flags
	cfg config.Config

	version, noUI, asJSON, quiet            bool
	freePorts, openReferees, requireSandbox bool
	players, referees, managerPort          int
	seed                                    int64
	data, attach, csvDir, webAddr           string
}

// newLeagueFlags defines the league's flags on a new flag set.
func newLeagueFlags(stdout io.Writer) *leagueFlags {
	f := &leagueFlags{}
	f.fs, f.cf = newFlagSet("leaguetui", usage, stdout)
	fs := f.fs
	fs.BoolVar(&f.version, "version", false, "print the version (module version and source revision) and exit")
	fs.BoolVar(&f.noUI, "no-ui", false, "run headless: progress on stderr, final standings on stdout")
	fs.BoolVar(&f.asJSON, "json", false, "with --no-ui: every league event as a JSON line on stdout, then the final standings as one")
	fs.BoolVar(&f.quiet, "quiet", false, "with --no-ui: print only the final standings (the table, or its JSON line with --json)")
	fs.IntVar(&f.players, "players", 4, "number of players to start (strategies cycle through "+fmt.Sprint(engine.StrategyNames())+")")
	fs.IntVar(&f.referees, "referees", 2, "number of referees to start")
	fs.Int64Var(&f.seed, "seed", 0, "seed for the schedule, draws and strategies (default random; printed and saved)")
	fs.StringVar(&f.data, "data", "./data", "data `folder` for standings, rounds, matches, histories and logs")
	fs.BoolVar(&f.freePorts, "free-ports", false, "take free ports instead of the configured ones (run leagues side by side)")
	fs.StringVar(&f.attach, "attach", "", "show the league of a manager already running at `URL` (e.g. http://HOST:8000) instead of starting one")
	fs.BoolVar(&f.openReferees, "open-referees", false, openRefereesUsage)
	fs.StringVar(&f.csvDir, "csv", "", "with --no-ui: write the league's standings.csv, crosstable.csv, matches.csv and results.jsonl into `folder` when it completes")
	fs.StringVar(&f.webAddr, "web", "", webFlagUsage)
	fs.BoolVar(&f.requireSandbox, "require-sandbox", false, requireSandboxUsage)
	fs.IntVar(&f.managerPort, "manager-port", 0,
		"the `port` the manager of the league leaguetui starts listens on (default network.default_league_manager_port, 8000)")
	return f
}

// given says the command line set the flag.
func (f *leagueFlags) given(name string) bool {
	set := false
	f.fs.Visit(func(fl *flag.Flag) { set = set || fl.Name == name })
	return set
}

// flagRule is one check of the league's flags against each other: the
// flags it concerns, when it refuses them, and what it says then.
type flagRule struct {
	flags  []string
	refuse func(f *leagueFlags) bool
	msg    string
}

// leagueFlagRules are the league's flags that do not go together, in the
// order they are checked.
var leagueFlagRules = []flagRule{
	{[]string{"manager-port", "free-ports"}, func(f *leagueFlags) bool { return f.given("manager-port") && f.freePorts },
		"--manager-port and --free-ports: give one (--free-ports takes a free port for the manager too)"},
	{[]string{"manager-port", "attach"}, func(f *leagueFlags) bool { return f.given("manager-port") && f.attach != "" },
		"--manager-port is the port of a manager leaguetui starts; --attach shows one already running"},
	{[]string{"json", "quiet", "no-ui"}, func(f *leagueFlags) bool { return (f.asJSON || f.quiet) && !f.noUI },
		"--json and --quiet go with --no-ui"},
	{[]string{"csv", "no-ui"}, func(f *leagueFlags) bool { return f.csvDir != "" && !f.noUI },
		"--csv goes with --no-ui; for the console's league, run leaguetui report DATA afterwards"},
	{[]string{"attach", "no-ui"}, func(f *leagueFlags) bool { return f.attach != "" && f.noUI },
		"--attach shows a league in the console; without it, read the league with curl URL/standings"},
}

// checkFlagRules is the first of leagueFlagRules that refuses f's flags.
func checkFlagRules(f *leagueFlags) error {
	for _, rule := range leagueFlagRules {
		if slices.ContainsFunc(rule.flags, f.given) && rule.refuse(f) {
			return &usageError{rule.msg}
		}
	}
	return nil
}

// readLeagueFlags reads the league's command line: args, after the flags
// the data folder remembers when it holds a league (withRemembered).
func readLeagueFlags(args []string, stdout io.Writer) (*leagueFlags, error) {
	f, err := parseLeagueFlags(args, stdout)
	if err != nil || f.version || f.attach != "" {
		return f, err
	}
	// A data folder that holds a league remembers how it was started.
	merged, ok, err := withRemembered(f.fs, f.data, args)
	if err != nil || !ok {
		return f, err
	}
	return parseLeagueFlags(merged, stdout)
}

// parseLeagueFlags parses args and checks the flags against each other
// and the values no league could run with, before anything starts.
func parseLeagueFlags(args []string, stdout io.Writer) (*leagueFlags, error) {
	f := newLeagueFlags(stdout)
	cfg, err := parse(f.fs, f.cf, args)
	if err != nil {
		return nil, err
	}
	warnWeakSecrets(cfg)
	if f.version {
		return f, nil
	}
	if err := checkFlagRules(f); err != nil {
		return nil, err
	}
	if f.cfg, err = withManagerPort(f, cfg); err != nil {
		return nil, err
	}
	return f, cmp.Or(checkManagerURL("attach", f.attach), checkListenFlag("web", f.webAddr))
}

// withManagerPort puts --manager-port into the league's configuration,
// checked like the config folder's port: a league started with --no-ui or
// in the console gets a known manager URL without a config folder.
func withManagerPort(f *leagueFlags, cfg config.Config) (config.Config, error) {
	if !f.given("manager-port") {
		return cfg, nil
	}
	cfg.Network.ManagerPort = f.managerPort
	if err := cfg.Validate(); err != nil {
		return cfg, &usageError{"--manager-port " + strconv.Itoa(f.managerPort) + ": " + err.Error()}
	}
	return cfg, nil
}

// leagueSpec is the league the flags describe, checked before anything
// starts: its roster, its sandbox, its size, its settings, and, for a
// league leaguetui starts, that it agrees with its data folder.
func leagueSpec(f *leagueFlags) (launcher.Spec, error) {
	roster, err := loadRoster(f.cfg, f.attach != "")
	if err != nil {
		return launcher.Spec{}, err
	}
	if f.requireSandbox {
		if err := sandboxRequired(roster); err != nil {
			return launcher.Spec{}, err
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return launcher.Spec{}, fmt.Errorf("cannot find this program to start the agents: %w", err)
	}
	given := launcher.Given{Seed: f.given("seed"), Players: f.given("players"), Referees: f.given("referees")}
	spec := launcher.Spec{Config: f.cfg, ConfigArgs: f.cf.Args(), Executable: exe, DataDir: f.data,
		Players: f.players, Referees: f.referees, Seed: f.seed, Given: given, FreePorts: f.freePorts,
		OpenReferees: f.openReferees, Roster: roster, RequireSandbox: f.requireSandbox, StartArgs: startArgs(f.fs, os.Getenv)}
	if f.attach == "" {
		if err := checkStartedLeague(f, spec); err != nil {
			return spec, err
		}
	}
	return spec, checkOutputFolder("csv", f.csvDir)
}

// checkStartedLeague checks a league leaguetui starts: its size, its
// settings, and that a data folder's league keeps its seed, players and
// game.
func checkStartedLeague(f *leagueFlags, spec launcher.Spec) error {
	if err := checkSize(spec); err != nil {
		return err
	}
	if err := checkLeague(f.cf, f.cfg, true); err != nil {
		return err
	}
	return agreesWithDataFolder(spec)
}

// checkSize is the one check of the league's size: players (with the
// open seats) and referees enough, said in the flags' terms for a league
// of built-in players, and a format those players fit
// (launcher.Spec.CheckSize).
func checkSize(spec launcher.Spec) error {
	if spec.Roster == nil && (spec.Players+spec.Config.Joining.OpenSeats+spec.Config.Joining.MCPSeats < 2 || spec.Referees < 1) {
		return &usageError{fmt.Sprintf("a league needs --players 2 or more and --referees 1 or more (got --players %d --referees %d)", spec.Players, spec.Referees)}
	}
	if err := spec.CheckSize(); err != nil {
		return &usageError{err.Error()}
	}
	return nil
}

// loadRoster reads and checks the roster (--roster, else the config
// folder's roster.json) before anything starts; a roster that cannot be
// used is a bad command line, named in one line. Attached, there is none.
func loadRoster(cfg config.Config, attached bool) (*config.Roster, error) {
	if attached {
		return nil, nil
	}
	roster, err := config.LoadRoster(cfg.Joining.RosterFile, cfg.Dir)
	if err != nil || roster == nil {
		return nil, err
	}
	return roster, launcher.CheckRoster(roster, cfg)
}

// agentFlags are the flags every agent command has, and the manager's URL
// for those that register with one (nil for the manager itself).
type agentFlags struct {
	port    *int
	data    *string
	name    *string
	manager *string
}

func addAgentFlags(fs *flag.FlagSet, defaultPort int, defaultName string) agentFlags {
	return agentFlags{
		port: fs.Int("port", defaultPort, "port to listen on (0 takes a free one)"),
		data: fs.String("data", "./data", "data `folder`"),
		name: fs.String("name", defaultName, "display name, also the log file's name"),
	}
}

// addJoiningFlags are addAgentFlags and --manager, for a referee or a
// player.
func addJoiningFlags(fs *flag.FlagSet, defaultPort int, defaultName string) agentFlags {
	af := addAgentFlags(fs, defaultPort, defaultName)
	af.manager = fs.String("manager", "http://127.0.0.1:8000/mcp", "the league manager's /mcp `URL`")
	return af
}

// serve runs an agent until a signal, then stops it cleanly. An agent
// whose start fails is shut down all the same, so that what it opened is
// closed.
func serve(ctx context.Context, role string, agent node.Agent) error {
	stopProfile, err := node.ProfileCPU(role)
	if err != nil {
		return err
	}
	defer stopProfile()
	if err := agent.Start(ctx); err != nil {
		_ = shutdown(agent) // what the start opened is closed; its error is the one to report
		return err
	}
	<-ctx.Done()
	return shutdown(agent)
}

// shutdown gives an agent's Shutdown a bounded time.
func shutdown(agent node.Agent) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return agent.Shutdown(ctx)
}

func runManager(ctx context.Context, args []string, stdout io.Writer) error {
	fs, cf := newFlagSet("leaguetui manager", "leaguetui manager: run the league manager.\n\nThe admin token comes from LEAGUETUI_ADMIN_TOKEN (or the file --admin-token-file or LEAGUETUI_ADMIN_TOKEN_FILE names), the referee key from LEAGUETUI_REFEREE_KEY (or the file LEAGUETUI_REFEREE_KEY_FILE names) or else from the file the config folder's system.json names in security.referee_key_file.\n\nFlags:\n", stdout)
	af := addAgentFlags(fs, config.Default().Network.ManagerPort, "league_manager")
	seed := fs.Int64("seed", 0, "league seed (default random, saved in the journal)")
	hold := fs.Bool("hold", false, "when the data folder holds a league in progress, keep it paused until resumed (so restarted agents can register first)")
	openReferees := fs.Bool("open-referees", false, openRefereesUsage)
	reserve := fs.String("reserve", "", "comma-separated display `names` of the league's own players, in order: the i-th gets the id P0i whenever it registers, and no one else takes it")
	joinCodes := fs.String("join-codes", "", "a JSON `file` of names and join codes (the data folder's join-codes.json): a player registers under such a name only with its code")
	cfg, err := parse(fs, cf, args)
	if err != nil {
		return err
	}
	warnWeakSecrets(cfg)
	if err := cmp.Or(checkAgentFlags(af), checkLeague(cf, cfg, false)); err != nil {
		return err
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	refereeKey, err := cfg.RefereeKey(os.Getenv)
	if err != nil {
		return err
	}
	adminToken, err := cfg.AdminToken(os.Getenv)
	if err != nil {
		return err
	}
	codes, err := loadJoinCodes(*joinCodes)
	if err != nil {
		return err
	}
	node.SetMemory(manager.Memory)
	m, err := manager.New(manager.Options{Config: cfg, DataDir: *af.data, Port: *af.port, Seed: *seed, SeedSet: seedSet,
		AdminToken: adminToken, Hold: *hold, SeasonPrior: seasonPrior,
		RefereeKey: refereeKey, OpenReferees: *openReferees, Reserved: splitNames(*reserve),
		LimitSeats: seatsGiven(fs), OpenSeats: cfg.Joining.OpenSeats, JoinCodes: codes})
	if err != nil {
		return err
	}
	return serve(ctx, "manager", m)
}

func runReferee(ctx context.Context, args []string, stdout io.Writer) error {
	fs, cf := newFlagSet("leaguetui referee", "leaguetui referee: run one referee; it registers with the manager, presenting the referee key from LEAGUETUI_REFEREE_KEY (or the file LEAGUETUI_REFEREE_KEY_FILE names) or else from the file the config folder's system.json names in security.referee_key_file.\n\nFlags:\n", stdout)
	af := addJoiningFlags(fs, config.Default().Network.RefereePortFirst, "referee")
	maxConcurrent := fs.Int("max-concurrent", 0, "matches run at once (default from the config: 2)")
	cfg, err := parse(fs, cf, args)
	if err != nil {
		return err
	}
	warnWeakSecrets(cfg)
	if err := cmp.Or(checkAgentFlags(af), checkGame(cf, cfg), refereeRunsGames(cfg, *af.data)); err != nil {
		return err
	}
	key, err := cfg.RefereeKey(os.Getenv)
	if err != nil {
		return err
	}
	node.OneProcessor()
	r, err := referee.New(referee.Options{Config: cfg, DataDir: *af.data, Port: *af.port, ManagerURL: *af.manager,
		Name: *af.name, MaxConcurrent: *maxConcurrent, Key: key})
	if err != nil {
		return err
	}
	return serve(ctx, "referee", r)
}

func runPlayer(ctx context.Context, args []string, stdout io.Writer) error {
	fs, cf := newFlagSet("leaguetui player", "leaguetui player: run one player; it registers with the manager, presenting the join code in LEAGUETUI_JOIN_CODE (never on the command line), which a league leaguetui starts asks of its own players and external entries.\n\nFlags:\n", stdout)
	af := addJoiningFlags(fs, config.Default().Network.PlayerPortFirst, "player")
	strategy := fs.String("strategy", config.Default().Player.Strategy, fmt.Sprintf("strategy, one of %v, or llm (a language model: --llm-*)", engine.StrategyNames()))
	seed := fs.Int64("seed", 0, "seed for the strategy's randomness")
	cfg, err := parse(fs, cf, args)
	if err != nil {
		return err
	}
	if err := cmp.Or(checkAgentFlags(af), checkGame(cf, cfg), checkStrategy(cfg, *strategy)); err != nil {
		return err
	}
	node.OneProcessor()
	p, err := player.New(player.Options{Config: cfg, DataDir: *af.data, Port: *af.port, ManagerURL: *af.manager,
		Name: *af.name, Strategy: *strategy, Seed: *seed, JoinCode: os.Getenv(config.JoinCodeEnv)})
	if err != nil {
		return err
	}
	return serve(ctx, "player", p)
}

// loadJoinCodes reads --join-codes' file, which must be there when named:
// a bad one is a bad command line.
func loadJoinCodes(path string) (store.JoinCodes, error) {
	if path == "" {
		return nil, nil
	}
	var codes store.JoinCodes
	_, err := os.Stat(path)
	if err == nil {
		codes, err = store.LoadJoinCodes(path)
	}
	if err != nil {
		return nil, &usageError{fmt.Sprintf("--join-codes %s: %v", path, err)}
	}
	return codes, nil
}

// seatsGiven says --open-seats (or LEAGUETUI_OPEN_SEATS) was given: the
// manager then takes that many players beside its own (--reserve), no
// more.
func seatsGiven(fs *flag.FlagSet) bool {
	given := os.Getenv("LEAGUETUI_OPEN_SEATS") != ""
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "open-seats" })
	return given
}

// splitNames reads a comma-separated list, leaving out empty items.
func splitNames(list string) []string {
	var names []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}

const openRefereesUsage = "admit referees without the referee key (LEAGUETUI_REFEREE_KEY or the config's security.referee_key_file), e.g. other implementations'; /health and the console say the league is open"
