package config

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/leaguetui/leaguetui/engine"
)

// Flags are the command-line and environment overrides shared by every
// leaguetui command. Create them with AddFlags, parse the FlagSet, then call
// Resolve.
type Flags struct {
	fs     *flag.FlagSet
	getenv func(string) string // the environment Resolve read
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
	// boolean flags take their value after "=" only (--name=true).
	boolean bool
	// perAgent settings (one agent's own address) are not passed on by
	// Args to the several children a parent starts.
	perAgent bool
}

// overrides lists every override in the order Args emits them.
var overrides = []override{
	stringOverride(flagConfig, "LEAGUETUI_CONFIG",
		"read the config `folder` (system.json, leagues/, defaults/) over the built-in defaults (default none)", nil),
	stringOverride(flagLeague, "LEAGUETUI_LEAGUE_ID",
		fmt.Sprintf("league `id`; also selects leagues/<id>.json in the config folder (default system.json's default_league_id, else %s, the game's name after %s)",
			Default().LeagueID, leagueIDPrefix), nil),
	stringOverride("host", "LEAGUETUI_HOST",
		fmt.Sprintf("`host` agents listen on; localhost means 127.0.0.1 (default %s)", Default().Network.Host),
		func(c *Config, raw string) error {
			c.Network.Host = listenHost(raw)
			return CheckHost(c.Network.Host)
		}),
	stringOverride("game", "LEAGUETUI_GAME",
		fmt.Sprintf("the `game` the league plays: a game's name, or a game program's manifest FILE.json (docs/games.md, Writing a game) (default %s)", Default().GameType),
		func(c *Config, raw string) error {
			c.GameType, c.GameFile = raw, ""
			if IsGameFile(raw) {
				return c.useGameFile(raw) // a game program's manifest
			}
			return nil
		}),
	func() override {
		o := stringOverride("advertise", "LEAGUETUI_ADVERTISE",
			"the /mcp `URL` this agent registers as its endpoint, as other machines reach it (default: where it listens; on a wildcard --host, its address on the route to the manager)",
			func(c *Config, raw string) error {
				c.Network.Advertise = strings.TrimSpace(raw)
				return nil
			})
		o.perAgent = true
		return o
	}(),
	stringOverride("tls-cert", "LEAGUETUI_TLS_CERT", "PEM certificate `file`: with --tls-key, agents serve HTTPS (default plain HTTP)",
		func(c *Config, raw string) error { c.Network.TLSCert = absPath(raw); return nil }),
	stringOverride("tls-key", "LEAGUETUI_TLS_KEY", "PEM private key `file` of --tls-cert",
		func(c *Config, raw string) error { c.Network.TLSKey = absPath(raw); return nil }),
	stringOverride("tls-ca", "LEAGUETUI_TLS_CA", "PEM `file` of CA certificates to trust beside the system's, for https:// agents and managers",
		func(c *Config, raw string) error { c.Network.TLSCA = absPath(raw); return nil }),
	boolOverride("require-tls", "LEAGUETUI_REQUIRE_TLS", "the manager refuses agents whose endpoint is not https://",
		func(c *Config) *bool { return &c.Network.RequireTLS }),
	stringOverride("pages-url", "LEAGUETUI_PAGES_URL",
		"the page server (its /mcp `URL`) a link race reads pages from (default: start our own)",
		func(c *Config, raw string) error {
			c.Pages.URL = raw
			return checkURL(raw, "a page server's /mcp URL, e.g. http://127.0.0.1:8300/mcp")
		}),
	stringOverride("pages", "LEAGUETUI_PAGES",
		"the page graph `file` our own page server reads: SQLite (core_articles(title, links_json)) or JSONL (default: generated from the seed)",
		func(c *Config, raw string) error {
			c.Pages.File = raw
			return nil
		}),
	intOverride("race-steps", "LEAGUETUI_RACE_STEPS", "moves each player has in a link race", 1,
		func(c *Config) *int { return &c.Pages.MaxSteps }),
	intOverride("race-distance", "LEAGUETUI_RACE_DISTANCE", "the longest shortest path from a link race's start to its target", 2,
		func(c *Config) *int { return &c.Pages.MaxDistance }),
	sizeOverride("message-bytes", "LEAGUETUI_MESSAGE_BYTES",
		"the most a league message an agent reads may hold: a longer request is refused (413), a longer reply is REPLY_TOO_LARGE",
		func(c *Config) *int64 { return &c.Network.MessageBytes }),
	sizeOverride("page-reply-bytes", "LEAGUETUI_PAGE_REPLY_BYTES",
		"the most a page server's reply may hold; a longer one is refused (REPLY_TOO_LARGE)",
		func(c *Config) *int64 { return &c.Pages.ReplyBytes }),
	intOverride("page-links", "LEAGUETUI_PAGE_LINKS", "links a page keeps; the rest are dropped and recorded", 1,
		func(c *Config) *int { return &c.Pages.MaxLinks }),
	sizeOverride("page-cache-bytes", "LEAGUETUI_PAGE_CACHE_BYTES",
		"the pages a referee keeps between matches; the least recently used go first",
		func(c *Config) *int64 { return &c.Pages.CacheBytes }),
	intOverride("race-draw-loads", "LEAGUETUI_RACE_DRAW_LOADS", "pages one link race draw may load", 2,
		func(c *Config) *int { return &c.Pages.DrawLoads }),
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
	intOverride("suspend-referee-after", "LEAGUETUI_SUSPEND_REFEREE_AFTER",
		"matches in a row a referee is given and does not report after which the manager suspends it (never the last referee); 0 never suspends", 0,
		func(c *Config) *int { return &c.Suspension.AfterMissedReports }),
	boolOverride("ratings-exclude-technical", "LEAGUETUI_RATINGS_EXCLUDE_TECHNICAL",
		"leave technical losses out of the Elo ratings (a Bradley-Terry fit, 95% intervals from the model's standard errors; by default technical losses count as losses)",
		func(c *Config) *bool { return &c.Ratings.ExcludeTechnical }),
	stringField("format", "LEAGUETUI_FORMAT",
		"league `format`: round-robin, double-round-robin (every pair twice, seats swapped), swiss (with --rounds) or gauntlet (with --challengers) (default round-robin)",
		func(c *Config) *string { return &c.Format.Name }),
	intOverride("rounds", "LEAGUETUI_ROUNDS", "rounds of a swiss league", 1,
		func(c *Config) *int { return &c.Format.Rounds }),
	stringField("challengers", "LEAGUETUI_CHALLENGERS",
		"a gauntlet's challengers, comma-separated player ids (e.g. P01,P02): they play everyone else, who never meet each other",
		func(c *Config) *string { return &c.Format.Challengers }),
	intOverride("games-per-pair", "LEAGUETUI_GAMES_PER_PAIR",
		"games each pair plays in a round robin or gauntlet, seats alternating", 1,
		func(c *Config) *int { return &c.Format.GamesPerPair }),
	stringField("sprt", "LEAGUETUI_SPRT",
		"sequential test for a gauntlet of one challenger against one opponent, e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05: the league ends as soon as a hypothesis is accepted (logistic GSPRT) on the games counted in their seat-swapped pairs (model=pentanomial, the default); model=trinomial counts them one by one",
		func(c *Config) *string { return &c.Format.SPRT }),
	intOverride("max-games", "LEAGUETUI_MAX_GAMES", "games an --sprt test plays at most (0: 10000)", 0,
		func(c *Config) *int { return &c.Format.MaxGames }),
	intOverride("until-separated", "LEAGUETUI_UNTIL_SEPARATED",
		"after the schedule, play up to `N` more matches, each between the adjacent pair of the ranking whose 95% intervals overlap the most, until every adjacent pair is separated (0: none)", 0,
		func(c *Config) *int { return &c.Format.UntilSeparated }),
	intOverride("until-decided", "LEAGUETUI_UNTIL_DECIDED",
		"after the schedule, play up to `N` more matches, each between the adjacent pair of the ranking whose 95% interval of their difference is the widest of those not yet decided, until every adjacent pair is separated or shown equivalent within --equivalence-margin (0: none)", 0,
		func(c *Config) *int { return &c.Format.UntilDecided }),
	intOverride("equivalence-margin", "LEAGUETUI_EQUIVALENCE_MARGIN",
		"with --until-decided, the `Elo` within which two adjacent players are equivalent: a sequential test of a difference of 0 against one of ELO, looked at after every result, errs at most 2.5% each way (0: 100)", 0,
		func(c *Config) *int { return &c.Format.EquivalenceMargin }),
	stringField("place", "LEAGUETUI_PLACE",
		"with --until-separated, play only separating matches that involve this `player` (id or display name), placing it among the others and the season's players",
		func(c *Config) *string { return &c.Format.Place }),
	stringOverride("season", "LEAGUETUI_SEASON",
		"the season `folder` the league's results are added to when it completes (see leaguetui season)",
		func(c *Config, raw string) error { c.Season = absPath(raw); return nil }),
	parentOnly(stringOverride("roster", "LEAGUETUI_ROSTER",
		"the roster `file` (JSON): who plays, as built-in strategies, model players, programs leaguetui starts or agents registered from outside (default the config folder's roster.json, else --players built-in players)",
		func(c *Config, raw string) error { c.Joining.RosterFile = absPath(raw); return nil })),
	parentOnly(intOverride("open-seats", "LEAGUETUI_OPEN_SEATS",
		"registrations from anyone the league waits for beside its own players, and the most its manager admits", 0,
		func(c *Config) *int { return &c.Joining.OpenSeats })),
	parentOnly(intOverride("mcp-seats", "LEAGUETUI_MCP_SEATS",
		"MCP-client seats the league opens, seat-1 to seat-`N`, beside its players: an MCP client takes one with its join code (DATA/seats.json) and plays through tools (docs/joining.md)", 0,
		func(c *Config) *int { return &c.Joining.MCPSeats })),
	parentOnly(durationOverride("join-window", "LEAGUETUI_JOIN_WINDOW",
		"how long the league waits for the roster's outside agents and the open seats before it starts without them (0: until all are there, or s in the console)", nonNegative,
		func(c *Config) *time.Duration { return &c.Joining.Window })),
	parentOnly(stringOverride("admin-token-file", "LEAGUETUI_ADMIN_TOKEN_FILE",
		"a `file` holding the admin token: of the league leaguetui starts (default $LEAGUETUI_ADMIN_TOKEN, else a new one written to the data folder's admin.token, mode 0600), or of the manager --attach shows",
		func(c *Config, raw string) error { c.Security.AdminTokenFile = absPath(raw); return nil })),
	stringField("strategies", "LEAGUETUI_STRATEGIES",
		"comma-separated player `strategies` cycled over the players a league starts, e.g. llm,random,counter (default the game's own)",
		func(c *Config) *string { return &c.Player.Strategies }),
	stringField("llm-provider", "LEAGUETUI_LLM_PROVIDER",
		"the llm strategy's `provider`: openai (or any OpenAI-compatible server, with --llm-base-url), anthropic, or a preset of an OpenAI-compatible service that fills in its base URL and key variable: "+
			strings.Join(PresetNames(), ", ")+" (docs/games.md) (default openai)",
		func(c *Config) *string { return &c.Player.LLM.Provider }),
	stringField("llm-model", "LEAGUETUI_LLM_MODEL", "the `model` the llm strategy asks",
		func(c *Config) *string { return &c.Player.LLM.Model }),
	stringOverride("llm-base-url", "LEAGUETUI_LLM_BASE_URL",
		"the provider's API `URL`, e.g. http://127.0.0.1:11434/v1 for a local Ollama (default the provider's own, or the preset's)",
		func(c *Config, raw string) error {
			c.Player.LLM.BaseURL = raw
			return checkURL(raw, "the provider's API URL, e.g. http://127.0.0.1:11434/v1")
		}),
	stringField("llm-api-key-env", "LEAGUETUI_LLM_API_KEY_ENV",
		"the environment `variable` holding the llm provider's key (default OPENAI_API_KEY or ANTHROPIC_API_KEY, or the preset's)",
		func(c *Config) *string { return &c.Player.LLM.APIKeyEnv }),
	stringOverride("llm-api-key-file", "LEAGUETUI_LLM_API_KEY_FILE",
		"a `file` holding the llm provider's key, read instead of the environment",
		func(c *Config, raw string) error { c.Player.LLM.APIKeyFile = absPath(raw); return nil }),
	stringField("llm-fallback", "LEAGUETUI_LLM_FALLBACK",
		"random: a model player answers a random legal move, marked as a fallback, when its provider fails (default none)",
		func(c *Config) *string { return &c.Player.LLM.Fallback }),
	intOverride("llm-max-tokens-per-match", "LEAGUETUI_LLM_MAX_TOKENS_PER_MATCH",
		"tokens (in and out) a model player may spend in one match; 0 is no cap", 0,
		func(c *Config) *int { return &c.Player.LLM.MaxTokensPerMatch }),
	stringOverride("llm-price", "LEAGUETUI_LLM_PRICE",
		"the llm model's `price` in USD per million input and output tokens, e.g. 0.15,0.60, for an estimate of what it spends (default the price table's: the built-in one and the config folder's prices.json)",
		func(c *Config, raw string) error {
			price, err := parsePrice(raw)
			c.Player.LLM.Price = price
			return err
		}),
	stringOverride("record-models", "LEAGUETUI_RECORD_MODELS",
		"a `folder` in which model players keep every request to their provider and its reply (no key, no header), a JSON file per request in a folder per player, to replay the league with --replay-models",
		func(c *Config, raw string) error { c.Player.LLM.RecordDir = absPath(raw); return nil }),
	stringOverride("replay-models", "LEAGUETUI_REPLAY_MODELS",
		"a `folder` --record-models wrote: model players answer every request from it, reaching no network; a request it lacks fails the move (MODEL_GENERATION_ERROR, RecordMissing)",
		func(c *Config, raw string) error { c.Player.LLM.ReplayDir = absPath(raw); return nil }),
	usdOverride("llm-budget-usd", "LEAGUETUI_LLM_BUDGET_USD",
		"US dollars a model player may spend in the league, at its price (0: no cap); then its moves are --llm-fallback's, or fail (BudgetSpent)",
		func(c *Config) *float64 { return &c.Player.LLM.BudgetUSD }),
	int64Override("llm-budget-tokens", "LEAGUETUI_LLM_BUDGET_TOKENS",
		"tokens (in and out) a model player may spend in the league (0: no cap); then its moves are --llm-fallback's, or fail (BudgetSpent)",
		func(c *Config) *int64 { return &c.Player.LLM.BudgetTokens }),
	usdOverride("league-budget-usd", "LEAGUETUI_LEAGUE_BUDGET_USD",
		"US dollars all the league's model players may spend together (0: no cap); then no model is asked again",
		func(c *Config) *float64 { return &c.Player.LLM.LeagueBudgetUSD }),
	int64Override("league-budget-tokens", "LEAGUETUI_LEAGUE_BUDGET_TOKENS",
		"tokens all the league's model players may spend together (0: no cap); then no model is asked again",
		func(c *Config) *int64 { return &c.Player.LLM.LeagueBudgetTokens }),
	stringField("llm-tool-calls", "LEAGUETUI_LLM_TOOL_CALLS",
		"auto, on or off: whether the model's server takes tools; off asks for the move as one JSON object in the answer's text, auto uses tools and turns to text once the server refuses them (default auto)",
		func(c *Config) *string { return &c.Player.LLM.ToolCalls }),
	stringField("league-budget-end", "LEAGUETUI_LEAGUE_BUDGET_END",
		"stop or pause: what --no-ui does with a league whose model budget (--league-budget-usd, --league-budget-tokens) is spent (default stop)",
		func(c *Config) *string { return &c.Player.LLM.LeagueBudgetEnd }),
	sizeOverride("llm-reply-bytes", "LEAGUETUI_LLM_REPLY_BYTES",
		"the most a model provider's reply may hold; a longer one is refused (REPLY_TOO_LARGE, a MODEL_GENERATION_ERROR)",
		func(c *Config) *int64 { return &c.Player.LLM.ReplyBytes }),
	intOverride("llm-rpm", "LEAGUETUI_LLM_RPM",
		"requests a minute all the model players of one provider and key may send together, a ceiling under what its headers and 429s teach (docs/games.md); 0 is none", 0,
		func(c *Config) *int { return &c.Player.LLM.RPM }),
	intOverride("llm-tpm", "LEAGUETUI_LLM_TPM",
		"tokens (prompt and answer cap) a minute all the model players of one provider and key may send together, a ceiling under what its headers teach; 0 is none", 0,
		func(c *Config) *int { return &c.Player.LLM.TPM }),
}

// usdOverride is an amount of US dollars, not negative.
func usdOverride(name, env, what string, field func(*Config) *float64) override {
	return stringOverride(name, env, what+" (default 0)", func(c *Config, raw string) error {
		v, err := strconv.ParseFloat(strings.TrimPrefix(raw, "$"), 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Errorf("want an amount of US dollars, e.g. 2.50 (got %q)", raw)
		}
		*field(c) = v
		return nil
	})
}

// int64Override is a count, not negative.
func int64Override(name, env, what string, field func(*Config) *int64) override {
	return stringOverride(name, env, what+" (default 0)", func(c *Config, raw string) error {
		v, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || v < 0 {
			return fmt.Errorf("want a whole number, not negative (got %q)", raw)
		}
		*field(c) = v
		return nil
	})
}

// parentOnly marks an override that concerns the league leaguetui starts,
// not the agents it starts: Args does not pass it on.
func parentOnly(o override) override {
	o.perAgent = true
	return o
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

// absPath makes a file name absolute, so a child started in another
// working directory reads the same file.
func absPath(name string) string {
	if abs, err := filepath.Abs(name); err == nil && name != "" {
		return abs
	}
	return name
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

// sizeOverride is a byte count: 4194304, 4MiB or 4 MB (humanize's
// reading); at least 1 KiB, less than which no reply fits.
func sizeOverride(name, env, what string, field func(*Config) *int64) override {
	def := Default()
	return override{
		flag:     name,
		env:      env,
		usage:    fmt.Sprintf("%s, a `size` such as 4MiB or 500kB (default %s); env %s", what, humanize.IBytes(uint64(*field(&def))), env),
		register: func(fs *flag.FlagSet, name, usage string) { fs.String(name, "", usage) },
		apply: func(c *Config, raw string) error {
			n, err := humanize.ParseBytes(raw)
			if err != nil {
				return fmt.Errorf("not a size: write e.g. 4MiB, 500kB or 1048576")
			}
			if n < minSize || n > math.MaxInt64 {
				return fmt.Errorf("must be at least %s (got %s)", humanize.IBytes(minSize), humanize.IBytes(n))
			}
			*field(c) = int64(n)
			return nil
		},
	}
}

// minSize is the smallest byte cap a flag takes.
const minSize = 1 << 10

// stringField is an override that stores its text as it is.
func stringField(name, env, usage string, field func(*Config) *string) override {
	return stringOverride(name, env, usage, func(c *Config, raw string) error {
		*field(c) = raw
		return nil
	})
}

func boolOverride(name, env, what string, field func(*Config) *bool) override {
	return override{
		flag:     name,
		env:      env,
		usage:    fmt.Sprintf("%s; env %s", what, env),
		register: func(fs *flag.FlagSet, name, usage string) { fs.Bool(name, false, usage) },
		apply: func(c *Config, raw string) error {
			b, err := strconv.ParseBool(raw)
			if err != nil {
				return fmt.Errorf("invalid boolean %q", raw)
			}
			*field(c) = b
			return nil
		},
		boolean: true,
	}
}

// AddFlags registers on fs the shared flags of groups, every one when
// none is named: --config DIR (config folder), --league-id, --host, and
// the overrides (--move-timeout, --attempts, …). Each usage string names
// its default and its environment variable. The environment variables of
// the flags left out are read all the same.
func AddFlags(fs *flag.FlagSet, groups ...FlagGroup) *Flags {
	names := GroupFlags(groups...)
	for _, o := range overrides {
		if len(groups) == 0 || slices.Contains(names, o.flag) {
			o.register(fs, o.flag, o.usage)
		}
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
	f.getenv = getenv
	set := f.explicit()
	cfg, err := loadChosen(set, getenv)
	if err != nil {
		return Config{}, err
	}
	if err := cfg.validateFolder(); err != nil {
		return Config{}, err // naming the file and the key as written there
	}
	named := cfg.LeagueID != Default().LeagueID || chosen(flagLeague, set, getenv) != ""
	if err := applyOverrides(&cfg, set, getenv); err != nil {
		return Config{}, err
	}
	if err := cfg.resolveGameFile(); err != nil {
		return Config{}, fmt.Errorf("config: game_type %q: %w", cfg.GameType, err)
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err // the folder's own problems were named above, by file and key
	}
	if _, known := engine.LookupGame(cfg.GameType); (known || cfg.GameFile != "") && !named {
		cfg.LeagueID = LeagueIDFor(cfg.GameType) // a link race is not called league_2025_even_odd
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
// another working directory, and so are the TLS files. Environment
// variables are left out: children inherit them. --advertise is left out
// too: it is one agent's own address, not its children's.
func (f *Flags) Args() []string {
	set := f.explicit()
	var args []string
	for _, o := range overrides {
		raw, ok := set[o.flag]
		if !ok || o.perAgent {
			continue
		}
		if o.flag == flagConfig || (o.flag == "game" && IsGameFile(raw)) || strings.HasPrefix(o.flag, "tls-") || strings.HasSuffix(o.flag, "-file") || strings.HasSuffix(o.flag, "-models") {
			raw = absPath(raw)
		}
		if o.boolean {
			args = append(args, "--"+o.flag+"="+raw)
			continue
		}
		args = append(args, "--"+o.flag, raw)
	}
	return args
}

// SharedFlag says whether name is one of the flags AddFlags registers,
// which the commands that read the config take, each those it reads
// (CommandFlags).
func SharedFlag(name string) bool {
	for _, o := range overrides {
		if o.flag == name {
			return true
		}
	}
	return false
}

// fileKeys are where a config folder holds the settings some overrides
// change, by flag, for messages that name a bad value's origin (as
// settingFiles does for Validate's).
var fileKeys = map[string]fileKey{
	"game":       {"leagues/%s.json", "game_type"},
	"strategies": {"defaults/player.json", "settings.strategies"},
}

// Origin names where the value of the setting the flag name overrides
// came from, as a user would go and change it: "--game" when the command
// line set it, "LEAGUETUI_GAME" when the environment did, else the config
// file and key, else "--game" (the built-in default, changed there).
// Call it after Resolve.
func (f *Flags) Origin(name string, cfg Config) string {
	if _, ok := f.explicit()[name]; ok {
		return "--" + name
	}
	for _, o := range overrides {
		if o.flag == name && f.getenv != nil && f.getenv(o.env) != "" {
			return o.env
		}
	}
	if at, ok := fileKeys[name]; ok && cfg.Dir != "" {
		file := at.file
		if strings.Contains(file, "%s") {
			file = fmt.Sprintf(file, cfg.LeagueID)
		}
		return fmt.Sprintf("config %s: %s", filepath.Join(cfg.Dir, file), at.key)
	}
	return "--" + name
}

// FlagError is a bad value given to a command-line flag. It names the flag
// as the user typed it, not the setting it overrides.
type FlagError struct {
	Flag, Value string
	Err         error
}

func (e *FlagError) Error() string { return fmt.Sprintf("--%s %s: %v", e.Flag, e.Value, e.Err) }

func (e *FlagError) Unwrap() error { return e.Err }

// EnvOf names the environment variable that sets the shared flag name, ""
// for a flag that has none.
func EnvOf(name string) string {
	for _, o := range overrides {
		if o.flag == name {
			return o.env
		}
	}
	return ""
}
