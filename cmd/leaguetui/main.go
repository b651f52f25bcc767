// Command leaguetui runs and shows leagues of autonomous game-playing agents.
//
//	leaguetui                 the console: start a local league and watch it
//	leaguetui --no-ui         the same league headless, for CI
//	leaguetui manager|referee|player   one agent alone
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/leaguetui/leaguetui/agents/headless"
	"github.com/leaguetui/leaguetui/agents/manager"
	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/agents/referee"
	"github.com/leaguetui/leaguetui/agents/tlsconf"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

const usage = `leaguetui runs and shows leagues of autonomous game-playing agents.

Usage:
  leaguetui [flags]              start a local league in the console
  leaguetui --attach URL         watch (and with --admin-token, control) a running manager
  leaguetui --no-ui [flags]      run the same league headless and print the standings
  leaguetui manager [flags]      run the league manager alone
  leaguetui referee [flags]      run one referee
  leaguetui player [flags]       run one player
  leaguetui bench [flags]        measure how close a league runs to the machine's limit

Run "leaguetui COMMAND --help" for a command's flags.

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

// exitCode is 0 for --help, 130 (the shell's code for Ctrl-C) for a league
// interrupted, and 1 for any other failure.
func exitCode(err error) int {
	var interrupted *headless.InterruptedError
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &interrupted):
		return 130
	}
	return 1
}

func run(ctx context.Context, interrupts <-chan os.Signal, args []string, stdout, stderr io.Writer) error {
	commands := map[string]func(context.Context, []string) error{
		"manager": func(ctx context.Context, args []string) error { return runManager(ctx, args, stderr) },
		"referee": func(ctx context.Context, args []string) error { return runReferee(ctx, args, stderr) },
		"player":  func(ctx context.Context, args []string) error { return runPlayer(ctx, args, stderr) },
		"bench":   func(ctx context.Context, args []string) error { return runBench(ctx, args, stdout, stderr) },
	}
	if len(args) > 0 && commands[args[0]] != nil {
		ctx, cancel := cancelOnInterrupt(ctx, interrupts)
		defer cancel()
		return commands[args[0]](ctx, args[1:])
	}
	return runLeague(ctx, interrupts, args, stdout, stderr)
}

// cancelOnInterrupt ends ctx at the first Ctrl-C.
func cancelOnInterrupt(ctx context.Context, interrupts <-chan os.Signal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-interrupts:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// newFlagSet makes a command's flag set with the shared config flags.
func newFlagSet(name, help string, stderr io.Writer) (*flag.FlagSet, *config.Flags) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, help)
		fs.PrintDefaults()
	}
	return fs, config.AddFlags(fs)
}

func parse(fs *flag.FlagSet, cf *config.Flags, args []string) (config.Config, error) {
	if err := fs.Parse(args); err != nil {
		return config.Config{}, err
	}
	if fs.NArg() > 0 {
		return config.Config{}, fmt.Errorf("unexpected argument %q (see --help)", fs.Arg(0))
	}
	cfg, err := cf.Resolve()
	if err != nil {
		return cfg, err
	}
	return cfg, tlsconf.Setup(cfg.Network.TLSCA) // before any client is built
}

func runLeague(ctx context.Context, interrupts <-chan os.Signal, args []string, stdout, stderr io.Writer) error {
	fs, cf := newFlagSet("leaguetui", usage, stderr)
	noUI := fs.Bool("no-ui", false, "run headless: progress on stderr, final standings on stdout")
	players := fs.Int("players", 4, "number of players to start (strategies cycle through "+fmt.Sprint(engine.StrategyNames())+")")
	referees := fs.Int("referees", 2, "number of referees to start")
	seed := fs.Int64("seed", 0, "seed for the schedule, draws and strategies (default random; printed and saved)")
	data := fs.String("data", "./data", "data `folder` for standings, rounds, matches, histories and logs")
	freePorts := fs.Bool("free-ports", false, "take free ports instead of the configured ones (run leagues side by side)")
	attach := fs.String("attach", "", "show the league of a manager already running at `URL` (e.g. http://HOST:8000) instead of starting one")
	adminToken := fs.String("admin-token", "", "the attached manager's admin `token`, for start, pause, resume and stop (default $LEAGUETUI_ADMIN_TOKEN)")
	cfg, err := parse(fs, cf, args)
	if err != nil {
		return err
	}
	if *attach != "" && *noUI {
		return errors.New("--attach shows a league in the console; without it, read the league with curl URL/standings")
	}
	if *adminToken == "" {
		*adminToken = os.Getenv("LEAGUETUI_ADMIN_TOKEN")
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find this program to start the agents: %w", err)
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	opts := headless.Options{Config: cfg, ConfigArgs: cf.Args(), Executable: exe, DataDir: *data,
		Players: *players, Referees: *referees, Seed: *seed, SeedSet: seedSet, FreePorts: *freePorts,
		Stdout: stdout, Stderr: stderr}
	if !*noUI {
		// In the console Ctrl-C is a key; a signal from elsewhere quits.
		ctx, cancel := cancelOnInterrupt(ctx, interrupts)
		defer cancel()
		return runConsole(ctx, opts, attachOptions{URL: *attach, AdminToken: *adminToken})
	}
	opts.Interrupts = interrupts
	return headless.Run(ctx, opts)
}

// agentFlags are the flags every agent command has.
type agentFlags struct {
	port    *int
	data    *string
	name    *string
	manager *string
}

func addAgentFlags(fs *flag.FlagSet, defaultPort int, defaultName string) agentFlags {
	return agentFlags{
		port:    fs.Int("port", defaultPort, "port to listen on (0 takes a free one)"),
		data:    fs.String("data", "./data", "data `folder`"),
		name:    fs.String("name", defaultName, "display name, also the log file's name"),
		manager: fs.String("manager", "http://127.0.0.1:8000/mcp", "the league manager's /mcp `URL`"),
	}
}

// serve runs an agent until a signal, then stops it cleanly.
func serve(ctx context.Context, start func(context.Context) error, wait func(), shutdown func(context.Context) error) error {
	if err := start(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	if wait != nil {
		wait()
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return shutdown(shutdownCtx)
}

func runManager(ctx context.Context, args []string, stderr io.Writer) error {
	fs, cf := newFlagSet("leaguetui manager", "leaguetui manager: run the league manager.\n\nThe admin token comes from LEAGUETUI_ADMIN_TOKEN.\n\nFlags:\n", stderr)
	af := addAgentFlags(fs, config.Default().Network.ManagerPort, "league_manager")
	seed := fs.Int64("seed", 0, "league seed (default random, saved in the journal)")
	hold := fs.Bool("hold", false, "when the data folder holds a league in progress, keep it paused until resumed (so restarted agents can register first)")
	cfg, err := parse(fs, cf, args)
	if err != nil {
		return err
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	m, err := manager.New(manager.Options{Config: cfg, DataDir: *af.data, Port: *af.port, Seed: *seed, SeedSet: seedSet,
		AdminToken: os.Getenv("LEAGUETUI_ADMIN_TOKEN"), Hold: *hold})
	if err != nil {
		return err
	}
	return serve(ctx, m.Start, nil, m.Close)
}

func runReferee(ctx context.Context, args []string, stderr io.Writer) error {
	fs, cf := newFlagSet("leaguetui referee", "leaguetui referee: run one referee; it registers with the manager.\n\nFlags:\n", stderr)
	af := addAgentFlags(fs, config.Default().Network.RefereePortFirst, "referee")
	maxConcurrent := fs.Int("max-concurrent", 0, "matches run at once (default from the config: 2)")
	cfg, err := parse(fs, cf, args)
	if err != nil {
		return err
	}
	r, err := referee.New(referee.Options{Config: cfg, DataDir: *af.data, Port: *af.port, ManagerURL: *af.manager,
		Name: *af.name, MaxConcurrent: *maxConcurrent})
	if err != nil {
		return err
	}
	return serve(ctx, r.Start, r.Wait, r.Shutdown)
}

func runPlayer(ctx context.Context, args []string, stderr io.Writer) error {
	fs, cf := newFlagSet("leaguetui player", "leaguetui player: run one player; it registers with the manager.\n\nFlags:\n", stderr)
	af := addAgentFlags(fs, config.Default().Network.PlayerPortFirst, "player")
	strategy := fs.String("strategy", config.Default().Player.Strategy, fmt.Sprintf("strategy, one of %v", engine.StrategyNames()))
	seed := fs.Int64("seed", 0, "seed for the strategy's randomness")
	cfg, err := parse(fs, cf, args)
	if err != nil {
		return err
	}
	p, err := player.New(player.Options{Config: cfg, DataDir: *af.data, Port: *af.port, ManagerURL: *af.manager,
		Name: *af.name, Strategy: *strategy, Seed: *seed})
	if err != nil {
		return err
	}
	return serve(ctx, p.Start, nil, p.Shutdown)
}
