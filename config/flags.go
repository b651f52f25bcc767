package config

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Flags are the command-line and environment overrides shared by every
// leaguetui command. Create them with AddFlags, parse the FlagSet, then call
// Resolve.
type Flags struct {
	fs *flag.FlagSet
}

// Names of the two overrides that choose which files to read, so Resolve
// must look at them before loading anything.
const (
	flagConfig = "config"
	flagLeague = "league-id"
)

// override is one setting the command line and the environment can change.
type override struct {
	flag     string
	env      string
	usage    string
	register func(fs *flag.FlagSet, name, usage string)
	// apply parses raw and stores it in c. It is nil for the overrides
	// that choose files (config folder, league id), which Resolve reads
	// before loading.
	apply func(c *Config, raw string) error
}

// overrides lists every override in the order Args emits them.
var overrides = []override{
	stringOverride(flagConfig, "LEAGUETUI_CONFIG",
		"read the config `folder` (system.json, leagues/, defaults/) over the built-in defaults (default none)", nil),
	stringOverride(flagLeague, "LEAGUETUI_LEAGUE_ID",
		fmt.Sprintf("league `id`; also selects leagues/<id>.json in the config folder (default system.json's default_league_id, else %s)",
			Default().LeagueID), nil),
	stringOverride("host", "LEAGUETUI_HOST",
		fmt.Sprintf("`host` agents listen on; localhost means 127.0.0.1 (default %s)", Default().Network.Host),
		func(c *Config, raw string) error {
			c.Network.Host = listenHost(raw)
			return nil
		}),
	stringOverride("game", "LEAGUETUI_GAME",
		fmt.Sprintf("the `game` the league plays (default %s)", Default().GameType),
		func(c *Config, raw string) error {
			c.GameType = raw
			return nil
		}),
	durationOverride("join-timeout", "LEAGUETUI_JOIN_TIMEOUT", "deadline for a player's GAME_JOIN_ACK", positive,
		func(c *Config) *time.Duration { return &c.Timeouts.JoinAck }),
	durationOverride("move-timeout", "LEAGUETUI_MOVE_TIMEOUT", "deadline for a player's move (CHOOSE_PARITY)", positive,
		func(c *Config) *time.Duration { return &c.Timeouts.Move }),
	durationOverride("generic-timeout", "LEAGUETUI_GENERIC_TIMEOUT", "deadline for any reply without a timeout of its own", positive,
		func(c *Config) *time.Duration { return &c.Timeouts.Generic }),
	durationOverride("report-timeout", "LEAGUETUI_REPORT_TIMEOUT", "deadline for the league manager to take a MATCH_RESULT_REPORT", positive,
		func(c *Config) *time.Duration { return &c.Timeouts.Report }),
	durationOverride("retry-delay", "LEAGUETUI_RETRY_DELAY", "wait before the first retry; later waits grow by the backoff multiplier", nonNegative,
		func(c *Config) *time.Duration { return &c.Retry.InitialDelay }),
	intOverride("attempts", "LEAGUETUI_ATTEMPTS", "attempts per call in total, the first one included", 1,
		func(c *Config) *int { return &c.Retry.Attempts }),
	intOverride("suspend-after", "LEAGUETUI_SUSPEND_AFTER",
		"technical losses in a row after which the manager suspends a player; 0 never suspends", 0,
		func(c *Config) *int { return &c.Suspension.AfterTechnicalLosses }),
}

// The flags are registered with zero defaults so that flag.PrintDefaults
// does not print a "(default …)" of its own: the real default may come from
// a config file, and each usage string names the built-in one instead.

func stringOverride(name, env, usage string, apply func(*Config, string) error) override {
	return override{
		flag:     name,
		env:      env,
		usage:    fmt.Sprintf("%s; env %s", usage, env),
		register: func(fs *flag.FlagSet, name, usage string) { fs.String(name, "", usage) },
		apply:    apply,
	}
}

func durationOverride(name, env, what string, least time.Duration, field func(*Config) *time.Duration) override {
	def := Default()
	return override{
		flag:     name,
		env:      env,
		usage:    fmt.Sprintf("%s, a `duration` such as 5s or 1m30s (default %v); env %s", what, *field(&def), env),
		register: func(fs *flag.FlagSet, name, usage string) { fs.Var(new(durationText), name, usage) },
		apply: func(c *Config, raw string) error {
			d, err := parseDuration(raw)
			if err != nil {
				return err
			}
			if d < least && least > 0 {
				return fmt.Errorf("must be more than 0 (got %v)", d)
			}
			if d < least {
				return fmt.Errorf("must not be negative (got %v)", d)
			}
			*field(c) = d
			return nil
		},
	}
}

// The least durations allowed: timeouts must be positive; the retry delay
// may be 0.
const (
	positive    = time.Nanosecond
	nonNegative = 0
)

// parseDuration reads a Go duration and, when it is not one, says how to
// write it: a bare number is the usual mistake.
func parseDuration(raw string) (time.Duration, error) {
	d, err := time.ParseDuration(raw)
	if err == nil {
		return d, nil
	}
	if _, numErr := strconv.ParseFloat(raw, 64); numErr == nil {
		return 0, fmt.Errorf("a duration needs a unit: write %ss (or e.g. 500ms, 1m30s)", raw)
	}
	return 0, fmt.Errorf("not a duration: write e.g. 5s, 500ms or 1m30s")
}

// durationText is a duration flag checked as it is parsed, with the
// messages of parseDuration (the flag package's own says "parse error").
type durationText string

func (d *durationText) String() string { return string(*d) }

func (d *durationText) Set(raw string) error {
	if _, err := parseDuration(raw); err != nil {
		return err
	}
	*d = durationText(raw)
	return nil
}

func intOverride(name, env, what string, least int, field func(*Config) *int) override {
	def := Default()
	return override{
		flag:     name,
		env:      env,
		usage:    fmt.Sprintf("%s (default %d); env %s", what, *field(&def), env),
		register: func(fs *flag.FlagSet, name, usage string) { fs.Int(name, 0, usage) },
		apply: func(c *Config, raw string) error {
			n, err := strconv.Atoi(raw)
			if err != nil {
				return fmt.Errorf("not a whole number")
			}
			if n < least {
				return fmt.Errorf("must be at least %d (got %d)", least, n)
			}
			*field(c) = n
			return nil
		},
	}
}

// AddFlags registers on fs: --config DIR (config folder), --league-id,
// --host, and the overrides --join-timeout, --move-timeout,
// --generic-timeout, --report-timeout, --retry-delay (Go durations such as
// 2s), --attempts and --suspend-after. Each usage string names its default and its
// environment variable.
func AddFlags(fs *flag.FlagSet) *Flags {
	for _, o := range overrides {
		o.register(fs, o.flag, o.usage)
	}
	return &Flags{fs: fs}
}

// Resolve builds the Config in layers: Default(), then the config folder
// (--config, else LEAGUETUI_CONFIG) if any, then the LEAGUETUI_*
// environment variables, then the flags explicitly set on the command line,
// then Validate. Unset flags never override a file, even though they have
// zero values. A league id from the environment or the command line also
// selects which leagues/<id>.json to read. Bad environment values are
// errors naming the variable.
func (f *Flags) Resolve() (Config, error) {
	return f.ResolveWith(os.Getenv)
}

// ResolveWith is Resolve reading the environment through getenv, so tests
// need not touch the process environment. An empty value counts as unset.
func (f *Flags) ResolveWith(getenv func(string) string) (Config, error) {
	set := f.explicit()
	cfg, err := loadChosen(set, getenv)
	if err != nil {
		return Config{}, err
	}
	if err := applyOverrides(&cfg, set, getenv); err != nil {
		return Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// loadChosen returns the defaults, or the config folder with the league
// the user chose, if any.
func loadChosen(set map[string]string, getenv func(string) string) (Config, error) {
	dir := chosen(flagConfig, set, getenv)
	league := chosen(flagLeague, set, getenv)
	if dir != "" {
		return LoadLeague(dir, league)
	}
	cfg := Default()
	if league != "" {
		cfg.LeagueID = league
	}
	return cfg, nil
}

// chosen is the value of the named override: the flag if it was set, else
// its environment variable.
func chosen(name string, set map[string]string, getenv func(string) string) string {
	if v, ok := set[name]; ok {
		return v
	}
	for _, o := range overrides {
		if o.flag == name {
			return getenv(o.env)
		}
	}
	return ""
}

// applyOverrides applies the environment, then the explicit flags, and
// reports every bad value at once.
func applyOverrides(cfg *Config, set map[string]string, getenv func(string) string) error {
	var errs []error
	for _, o := range overrides {
		if raw := getenv(o.env); o.apply != nil && raw != "" {
			if err := o.apply(cfg, raw); err != nil {
				errs = append(errs, fmt.Errorf("config: %s=%q: %w", o.env, raw, err))
			}
		}
	}
	for _, o := range overrides {
		if raw, ok := set[o.flag]; o.apply != nil && ok {
			if err := o.apply(cfg, raw); err != nil {
				errs = append(errs, &FlagError{Flag: o.flag, Value: raw, Err: err})
			}
		}
	}
	return errors.Join(errs...)
}

// explicit returns the flags set on the command line, by name, as text.
func (f *Flags) explicit() map[string]string {
	set := make(map[string]string)
	f.fs.Visit(func(fl *flag.Flag) { set[fl.Name] = fl.Value.String() })
	return set
}

// Args returns the command-line arguments that reproduce the explicitly set
// overrides (e.g. ["--config", "/abs/dir", "--move-timeout", "2s"]), so a
// parent process can pass the same settings to the child processes it
// starts. The config folder is made absolute because a child may run in
// another working directory. Environment variables are left out: children
// inherit them.
func (f *Flags) Args() []string {
	set := f.explicit()
	var args []string
	for _, o := range overrides {
		raw, ok := set[o.flag]
		if !ok {
			continue
		}
		if o.flag == flagConfig && raw != "" {
			if abs, err := filepath.Abs(raw); err == nil {
				raw = abs
			}
		}
		args = append(args, "--"+o.flag, raw)
	}
	return args
}

// FlagError is a bad value given to a command-line flag. It names the flag
// as the user typed it, not the setting it overrides.
type FlagError struct {
	Flag, Value string
	Err         error
}

func (e *FlagError) Error() string { return fmt.Sprintf("--%s %s: %v", e.Flag, e.Value, e.Err) }

func (e *FlagError) Unwrap() error { return e.Err }
