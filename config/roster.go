package config

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/leaguetui/leaguetui/engine"
)

// RosterFile is the roster's name in a config folder: read when no
// --roster names another.
const RosterFile = "roster.json"

// Roster lists who plays a league (and, optionally, who referees it), each
// entry one of: a built-in strategy, a model player with its own settings,
// a program leaguetui starts, or an agent someone else runs, which the
// league waits for. Names are the display names the standings show.
type Roster struct {
	Players  []RosterEntry `json:"players"`
	Referees []RosterEntry `json:"referees,omitempty"`
	// SeasonNames maps a player's name here to the name a season knows it
	// by (--season), where they differ: "alice-v2": "alice".
	SeasonNames map[string]string `json:"season_names,omitempty"`
	// Path is the file it was read from, for messages.
	Path string `json:"-"`
}

// RosterEntry is one agent of the roster. Exactly one of Strategy,
// Command and External says what it is (a referee's built-in entry needs
// none of them).
type RosterEntry struct {
	Name     string `json:"name"`
	Strategy string `json:"strategy,omitempty"` // a built-in strategy of the game, or "llm"
	LLM      *LLM   `json:"-"`                  // the llm strategy's own settings (read from "llm")
	// Command starts a program, any language, with the placeholders
	// {manager}, {port}, {name} and {data} filled in; Dir is its working
	// folder and Env what it gets beside leaguetui's environment.
	Command  []string          `json:"command,omitempty"`
	Dir      string            `json:"dir,omitempty"`
	Env      map[string]string `json:"env,omitempty"`
	Restarts *int              `json:"restarts,omitempty"` // times a program is started again after it exits (default 3)
	Limits   ProgramLimits     `json:"limits"`
	External bool              `json:"external,omitempty"` // registered by someone else, under Name
	// MCP is an MCP-client seat: an MCP client takes it with its join code
	// at the league's seat host (agents/seat) and plays through tools.
	MCP bool `json:"mcp,omitempty"`
	// JoinCode false lets an external entry be taken without a join code,
	// by whoever registers under its name first: for an agent that
	// cannot send one (another implementation's, unmodified) on a
	// network where everyone is trusted. Default (nil, true): a code.
	JoinCode *bool `json:"join_code,omitempty"`
	// Sandbox false runs a program unconfined, as leaguetui's own user:
	// only for a program the organiser trusts (default: confined).
	Sandbox *bool `json:"sandbox,omitempty"`
	// Connect names the hosts, "host:port", a confined program may reach
	// beside the league (a model provider).
	Connect []string `json:"connect,omitempty"`
	// Read names more files and folders a confined program may read
	// (relative ones from its dir).
	Read []string `json:"read,omitempty"`
}

// NeedsJoinCode reports whether an external entry is taken only with
// its join code (the default; "join_code": false says not).
func (e RosterEntry) NeedsJoinCode() bool { return e.JoinCode == nil || *e.JoinCode }

// Sandboxed reports whether the program runs confined.
func (e RosterEntry) Sandboxed() bool { return e.Sandbox == nil || *e.Sandbox }

// ProgramLimits are a roster program's resource limits, applied by the
// operating system before the program runs (a cgroup where leaguetui can
// make one, rlimits otherwise); 0 is the default, DefaultProgramLimits
// for a confined program and none for one run with "sandbox": false.
type ProgramLimits struct {
	MemoryMB   int `json:"memory_mb,omitempty"`   // private memory (RLIMIT_DATA; memory.max), in MiB
	CPUSeconds int `json:"cpu_seconds,omitempty"` // CPU time (RLIMIT_CPU)
	Processes  int `json:"processes,omitempty"`   // processes and threads (pids.max; RLIMIT_NPROC of the user where no cgroup holds it)
	FileMB     int `json:"file_mb,omitempty"`     // the largest file it may write (RLIMIT_FSIZE), in MiB
	DiskMB     int `json:"disk_mb,omitempty"`     // what its data and temporary folders may hold together, in MiB
}

// DefaultProgramLimits are a confined program's limits where its entry
// sets none: room for an interpreter and a strategy, not for a flood.
var DefaultProgramLimits = ProgramLimits{MemoryMB: 1024, Processes: 64, FileMB: 256, DiskMB: 1024}

// EffectiveLimits are the entry's limits with the defaults of a confined
// program filled in.
func (e RosterEntry) EffectiveLimits() ProgramLimits {
	l := e.Limits
	if !e.Sandboxed() {
		return l
	}
	d := DefaultProgramLimits
	l.MemoryMB = cmp.Or(l.MemoryMB, d.MemoryMB)
	l.Processes = cmp.Or(l.Processes, d.Processes)
	l.FileMB = cmp.Or(l.FileMB, d.FileMB)
	l.DiskMB = cmp.Or(l.DiskMB, d.DiskMB)
	return l
}

// JoinCodeEnv holds the join code a player registers with (see
// Roster): leaguetui gives its own players theirs in the environment, and
// an external entry's author may do the same for leaguetui's player.
const JoinCodeEnv = "LEAGUETUI_JOIN_CODE"

// DefaultRestarts is how many times a roster program that exits is
// started again when its entry does not say.
const DefaultRestarts = 3

// Entry kinds, as RosterEntry.Kind names them.
const (
	KindBuiltin  = "built-in"
	KindModel    = "model"
	KindProgram  = "program"
	KindExternal = "external"
	KindMCP      = "mcp" // an MCP-client seat
)

// Kind says which kind of entry e is.
func (e RosterEntry) Kind() string {
	switch {
	case e.External:
		return KindExternal
	case e.MCP:
		return KindMCP
	case len(e.Command) > 0:
		return KindProgram
	case e.Strategy == "llm":
		return KindModel
	}
	return KindBuiltin
}

// RestartLimit is the entry's restarts, or the default.
func (e RosterEntry) RestartLimit() int {
	if e.Restarts == nil {
		return DefaultRestarts
	}
	return *e.Restarts
}

// rosterLLM is the llm block as the roster spells it.
type rosterLLM struct {
	Provider          string      `json:"provider"`
	Model             string      `json:"model"`
	BaseURL           string      `json:"base_url"`
	APIKeyEnv         string      `json:"api_key_env"`
	APIKeyFile        string      `json:"api_key_file"`
	Fallback          string      `json:"fallback"`
	MaxTokensPerMatch int         `json:"max_tokens_per_match"`
	Price             *priceEntry `json:"price"`
	BudgetUSD         float64     `json:"budget_usd"`
	BudgetTokens      int64       `json:"budget_tokens"`
	ToolCalls         string      `json:"tool_calls"`
	harnessJSON
}

// UnmarshalJSON reads an entry, refusing keys it does not know: a
// misspelt "comand" must not become a built-in player.
func (e *RosterEntry) UnmarshalJSON(data []byte) error {
	type plain RosterEntry
	var raw struct {
		plain
		LLM *rosterLLM `json:"llm"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	*e = RosterEntry(raw.plain)
	if l := raw.LLM; l != nil {
		e.LLM = &LLM{Provider: l.Provider, Model: l.Model, BaseURL: l.BaseURL, APIKeyEnv: l.APIKeyEnv,
			APIKeyFile: l.APIKeyFile, Fallback: l.Fallback, MaxTokensPerMatch: l.MaxTokensPerMatch,
			BudgetUSD: l.BudgetUSD, BudgetTokens: l.BudgetTokens, ToolCalls: l.ToolCalls}
		if err := l.harnessJSON.applyTo(&e.LLM.Harness, "llm."); err != nil {
			return err
		}
		if l.BudgetUSD < 0 || l.BudgetTokens < 0 {
			return fmt.Errorf("llm.budget_usd, llm.budget_tokens: must not be negative")
		}
		if l.Price != nil {
			price, err := l.Price.price()
			if err != nil {
				return fmt.Errorf("llm.price: %w", err)
			}
			e.LLM.Price = price
		}
	}
	return nil
}

// RosterError is a roster that cannot be used, naming the file, the entry
// and the field.
type RosterError struct {
	Path  string
	Entry string // e.g. `players[2] "alice"`; "" for the file as a whole
	Field string
	Err   error
}

func (e *RosterError) Error() string {
	where := "roster " + e.Path
	if e.Entry != "" {
		where += ": " + e.Entry
	}
	if e.Field != "" {
		where += ": " + e.Field
	}
	return where + ": " + e.Err.Error()
}

func (e *RosterError) Unwrap() error { return e.Err }

// LoadRoster reads the roster at path, or, when path is "", the config
// folder's roster.json if there is one (nil, nil when there is none).
func LoadRoster(path, configDir string) (*Roster, error) {
	if path == "" {
		if configDir == "" {
			return nil, nil
		}
		path = filepath.Join(configDir, RosterFile)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &RosterError{Path: path, Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Roster
	if err := dec.Decode(&r); err != nil {
		return nil, &RosterError{Path: path, Err: fmt.Errorf("not a roster (want {\"players\": [...], \"referees\": [...]}): %w", err)}
	}
	r.Path = path
	if abs, err := filepath.Abs(path); err == nil {
		r.Path = abs
	}
	return &r, nil
}

// rosterNameProblem says what is wrong with a roster name, or "". A name
// is a display name, so it may be what registration takes ("Player P05",
// spaces inside included): 1 to 64 printable characters, no space at
// either end. It also names the entry's log file and data folder, and the
// manager's --reserve list separates names with commas: no '/', '\' or
// ',', and no leading '.'.
func rosterNameProblem(name string) string {
	switch {
	case name == "" || utf8.RuneCountInString(name) > 64:
		return "want 1 to 64 characters"
	case !utf8.ValidString(name) || strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
		return "holds a character that is not printable"
	case strings.TrimSpace(name) != name:
		return "begins or ends with a space"
	case strings.ContainsAny(name, `/\,`) || strings.HasPrefix(name, "."):
		return "holds '/', '\\' or ',', or begins with '.': it names the entry's files"
	}
	return ""
}

// fileSafeName is the name leaguetui's own agents take (agents/store names
// their log files after it).
var fileSafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// playerID is the form of a player id (P01); refereeID a referee's.
var (
	playerID  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[Pp][0-9]{2,4}$`) })
	refereeID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i)REF[0-9]{2,4}$`) })
)

// Validate checks every entry against the game the league plays, before
// anything starts. checkLLM checks a model player's settings;
// checkCommand a program's command line, folder and environment (the
// placeholders). The error names the file, the entry and the field.
func (r *Roster) Validate(game string, checkLLM func(LLM) error, checkCommand func(RosterEntry) error) error {
	if len(r.Players) == 0 {
		return &RosterError{Path: r.Path, Field: "players", Err: errors.New("lists no player")}
	}
	seen := map[string]string{}
	for _, group := range []struct {
		role string
		list []RosterEntry
	}{{"players", r.Players}, {"referees", r.Referees}} {
		role := group.role
		for i, e := range group.list {
			where := fmt.Sprintf("%s[%d] %q", role, i, e.Name)
			fail := func(field string, format string, args ...any) error {
				return &RosterError{Path: r.Path, Entry: where, Field: field, Err: fmt.Errorf(format, args...)}
			}
			if problem := rosterNameProblem(e.Name); problem != "" {
				return fail("name", "%s", problem)
			}
			if k := e.Kind(); (k == KindBuiltin || k == KindModel || k == KindMCP) && !fileSafeName().MatchString(e.Name) {
				return fail("name", "a %s entry is one of leaguetui's own agents, which names its files after it: "+
					"want 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (spaces go with \"external\" or a \"command\")", k)
			}
			if other, dup := seen[strings.ToLower(e.Name)]; dup {
				return fail("name", "is also %s's (names are display names, unique in any case)", other)
			}
			seen[strings.ToLower(e.Name)] = where
			if err := r.checkIDShape(role, i, e.Name); err != nil {
				return fail("name", "%v", err)
			}
			if err := checkEntry(role, game, e, checkLLM, checkCommand); err != nil {
				var field *fieldError
				if errors.As(err, &field) {
					return fail(field.field, "%v", field.err)
				}
				return fail("", "%v", err)
			}
		}
	}
	return nil
}

// checkIDShape refuses a name that has the form of another agent's id:
// the i-th player of the roster is P(i+1), so its name may be that id and
// no other.
func (r *Roster) checkIDShape(role string, i int, name string) error {
	switch {
	case role == "players" && playerID().MatchString(name) && !strings.EqualFold(name, PlayerIDAt(i)):
		return fmt.Errorf("has the form of a player id; the %s player is %s, so it may be called that or a name", ordinal(i), PlayerIDAt(i))
	case role == "players" && refereeID().MatchString(name), role == "referees" && playerID().MatchString(name):
		return errors.New("has the form of another role's id")
	}
	return nil
}

// PlayerIDAt is the id the i-th player of a roster (from 0) gets.
func PlayerIDAt(i int) string { return fmt.Sprintf("P%02d", i+1) }

func ordinal(i int) string { return fmt.Sprintf("#%d", i+1) }

type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return e.field + ": " + e.err.Error() }

func fieldErr(field, format string, args ...any) error {
	return &fieldError{field: field, err: fmt.Errorf(format, args...)}
}

// checkEntry checks one entry's own fields.
func checkEntry(role, game string, e RosterEntry, checkLLM func(LLM) error, checkCommand func(RosterEntry) error) error {
	kinds := 0
	for _, set := range []bool{e.External, e.MCP, len(e.Command) > 0, e.Strategy != ""} {
		if set {
			kinds++
		}
	}
	if kinds > 1 {
		return fieldErr("strategy", "an entry is one of a strategy, a command, external or mcp, not several")
	}
	if e.Kind() != KindProgram && (e.Dir != "" || len(e.Env) > 0 || e.Restarts != nil || e.Limits != (ProgramLimits{}) ||
		e.Sandbox != nil || len(e.Connect) > 0 || len(e.Read) > 0) {
		return fieldErr("command", "dir, env, restarts, limits, sandbox, connect and read go with a command")
	}
	if e.JoinCode != nil && e.Kind() != KindExternal {
		return fieldErr("join_code", "goes with \"external\": true (leaguetui gives its own players their codes, and a program needs none)")
	}
	if e.LLM != nil && e.Kind() != KindModel {
		return fieldErr("llm", "goes with \"strategy\": \"llm\"")
	}
	if e.MCP && role == "referees" {
		return fieldErr("mcp", "an MCP-client seat is a player's")
	}
	switch e.Kind() {
	case KindBuiltin:
		if role == "referees" {
			if e.Strategy != "" {
				return fieldErr("strategy", "a referee has no strategy")
			}
			return nil
		}
		own := engine.StrategyNamesFor(game)
		if e.Strategy == "" {
			return fieldErr("strategy", "missing: want one of %v, llm (with \"llm\"), or a \"command\" or \"external\": true", own)
		}
		if !slices.Contains(own, e.Strategy) {
			return fieldErr("strategy", "%q is not a strategy of %s (want one of %v, or llm)", e.Strategy, game, own)
		}
	case KindModel:
		if role == "referees" {
			return fieldErr("strategy", "a referee has no strategy")
		}
		if e.LLM == nil {
			return fieldErr("llm", "missing: a model player names its provider and model")
		}
		if err := checkLLM(*e.LLM); err != nil {
			return fieldErr("llm", "%v", err)
		}
	case KindProgram:
		if e.Restarts != nil && *e.Restarts < 0 {
			return fieldErr("restarts", "must not be negative")
		}
		if l := e.Limits; l.MemoryMB < 0 || l.CPUSeconds < 0 || l.Processes < 0 || l.FileMB < 0 || l.DiskMB < 0 {
			return fieldErr("limits", "must not be negative")
		}
		for _, hostPort := range e.Connect {
			if _, err := ConnectPort(hostPort); err != nil {
				return fieldErr("connect", "%v", err)
			}
		}
		if err := checkCommand(e); err != nil {
			return fieldErr("command", "%v", err)
		}
	}
	return nil
}

// PlayerNames are the roster's players' names, in order: the i-th gets
// the id PlayerIDAt(i).
func (r *Roster) PlayerNames() []string {
	names := make([]string, len(r.Players))
	for i, e := range r.Players {
		names[i] = e.Name
	}
	return names
}

// ConnectPort is the port of a roster entry's "connect" item, "host:port".
func ConnectPort(hostPort string) (uint16, error) {
	host, port, err := net.SplitHostPort(hostPort)
	if err != nil || host == "" {
		return 0, fmt.Errorf("%q: want host:port", hostPort)
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 {
		return 0, fmt.Errorf("%q: want a port from 1 to 65535", hostPort)
	}
	return uint16(n), nil
}

// NamesInSeason is SeasonNames, nil for no roster: the names a season
// knows the roster's players by, where they differ from the roster's.
func (r *Roster) NamesInSeason() map[string]string {
	if r == nil {
		return nil
	}
	return r.SeasonNames
}
