// Package config holds the settings every leaguetui process (league manager,
// referee, player, console) needs before it starts.
//
// Settings come in layers, each overriding the one before:
//
//  1. Default(): the values of the specification's config layer, so a
//     process runs correctly with no files at all;
//  2. a config folder laid out like the specification's SHARED/config/
//     (Load), so folders written for other implementations work unchanged;
//  3. LEAGUETUI_* environment variables;
//  4. command-line flags the user actually typed (Flags.Resolve).
//
// A Config is a plain comparable value: copy it freely, compare it with ==.
package config

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/engine"
)

// Config is everything an agent or the console needs to know before it starts.
type Config struct {
	LeagueID string // default "league_2025_even_odd"
	GameType string // default "even_odd"
	// GameFile is the manifest of a game program (--game FILE.json, or
	// the config folder's games/<game_type>.json), absolute; "" for a
	// built-in game. GameType is then the manifest's name.
	GameFile string
	// Season is the season folder a completed league's results are added
	// to (league/season); "" keeps the league on its own.
	Season string

	Network      Network
	Timeouts     Timeouts
	Retry        Retry
	Breaker      Breaker
	Scoring      Scoring
	Security     Security
	Referee      RefereeDefaults
	Player       PlayerDefaults
	Participants Participants
	Suspension   Suspension
	Ratings      Ratings
	Format       Format
	Pages        Pages
	Joining      Joining

	// Dir is the absolute path of the config folder Load read, or "" when
	// the Config came from defaults alone. Agents that need files this
	// package does not interpret (agents/agents_config.json, the "phone
	// book", or games/games_registry.json) find them here.
	Dir string
}

// Joining says who a league that leaguetui starts waits for before it
// begins: the roster's players (and referees), and seats open to anyone.
type Joining struct {
	RosterFile string        // --roster; "" reads the config folder's roster.json, if any
	OpenSeats  int           // --open-seats: registrations from anyone the league waits for
	MCPSeats   int           // --mcp-seats: MCP-client seats, seat-1 to seat-N, the league waits for
	Window     time.Duration // --join-window: how long it waits at most; 0 until everyone is there
}

// Pages is where a game that reads pages (the link race) finds them.
type Pages struct {
	URL         string // a page server's /mcp URL; "" starts our own
	File        string // the page graph our own server reads (SQLite or JSONL); "" generates one from the seed
	MaxSteps    int    // 8: moves each player has to reach the target
	MaxDistance int    // 4: the longest shortest path from a race's start to its target

	// What a referee takes from a page server, whoever runs it (see
	// docs/limits.md): a page server may be hostile or broken.
	ReplyBytes int64 // 4 MiB: one reply; a longer one is refused (REPLY_TOO_LARGE)
	MaxLinks   int   // 1000: links a page keeps; the rest are dropped and recorded
	CacheBytes int64 // 64 MiB: the pages a referee keeps between matches, least recently used dropped first
	DrawLoads  int   // 200: pages one race draw may load, its only bound (no clock: the same on any machine)
}

// Network says where agents listen. Each agent is its own HTTP process, so
// referees and players take ports from disjoint ranges.
type Network struct {
	// Host is the address agents listen on. It defaults to loopback so a
	// league never opens ports to the network unless asked to; the
	// specification's "localhost" is mapped to 127.0.0.1 for the same reason
	// (it can resolve to ::1 first and miss IPv4-only peers).
	Host             string // "127.0.0.1"
	ManagerPort      int    // 8000
	RefereePortFirst int    // 8001
	RefereePortLast  int    // 8010
	PlayerPortFirst  int    // 8101
	PlayerPortLast   int    // 8200

	// Advertise is the /mcp URL an agent registers as its contact
	// endpoint, for agents behind an address other machines see
	// differently. "" derives it from where the agent listens.
	Advertise string
	// TLSCert and TLSKey are PEM files; with them an agent serves HTTPS.
	TLSCert string
	TLSKey  string
	// TLSCA is a PEM file of CA certificates trusted beside the system's,
	// for leagues whose certificates a private CA signed.
	TLSCA string
	// RequireTLS makes the manager refuse agents whose endpoint is not https://.
	RequireTLS bool
	// MessageBytes bounds a league message an agent reads (1 MiB): a
	// request body over it is refused (413), a reply over it is
	// REPLY_TOO_LARGE.
	MessageBytes int64
}

// Timeouts are the per-exchange deadlines of the specification (section 5.1).
// A peer that misses one is treated as not having answered.
type Timeouts struct {
	RegisterReferee time.Duration // 10s  register_referee_timeout_sec
	RegisterPlayer  time.Duration // 10s  register_player_timeout_sec
	JoinAck         time.Duration // 5s   game_join_ack_timeout_sec
	Move            time.Duration // 30s  move_timeout_sec
	GameOver        time.Duration // 5s   game_over_timeout_sec (our extension)
	Report          time.Duration // 10s  match_result_report_timeout_sec (our extension): MATCH_RESULT_REPORT
	Query           time.Duration // 10s  league_query_timeout_sec (our extension): LEAGUE_QUERY
	Generic         time.Duration // 10s  generic_response_timeout_sec
}

// Retry is the policy for retryable failures (timeout E001, connection
// E009). When the attempts run out the non-responder takes a technical loss.
type Retry struct {
	// Attempts counts every try, the first included: the specification's
	// code makes 3 attempts in total, and system.json's max_retries means
	// the same number.
	Attempts     int           // 3
	InitialDelay time.Duration // 2s (the specification's code: 2 s then 4 s)
	Multiplier   float64       // 2 for "exponential" backoff, 1 for "fixed"
}

// Delay is the wait before attempt n+1 after attempt n failed (n>=1):
// InitialDelay * Multiplier^(n-1). It returns 0 for n < 1 and saturates at
// the largest Duration instead of overflowing.
func (r Retry) Delay(n int) time.Duration {
	if n < 1 {
		return 0
	}
	return saturate(float64(r.InitialDelay) * math.Pow(r.Multiplier, float64(n-1)))
}

// Breaker configures the circuit breaker a caller keeps per peer, so a dead
// agent stops costing a full timeout on every call (specification 5.2).
type Breaker struct {
	Failures int           // 5 consecutive failures open the circuit
	Reset    time.Duration // 60s until a trial call is let through
}

// Scoring gives the league points per match outcome. TechnicalLoss goes to
// the offender; the other side scores Win.
type Scoring struct {
	Win           int // 3
	Draw          int // 1, to each player
	Loss          int // 0
	TechnicalLoss int // 0
	// Tiebreakers orders the players tied on points (scoring.tiebreakers);
	// the zero value is wins then draws, then player id.
	Tiebreakers engine.Tiebreakers
}

// Security configures the auth tokens the league manager hands out at
// registration.
type Security struct {
	// TokenBytes is the token's length in random bytes (system.json's
	// token_length: 32 means 32 bytes, not 32 characters; hex encoding
	// makes the text twice as long).
	TokenBytes int           // 32
	AuthTokens bool          // true  enable_auth_tokens
	TokenTTL   time.Duration // 24h   token_ttl_hours
	// RefereeKeyFile names the file that holds the referee key (ours:
	// security.referee_key_file, relative to the config folder); see
	// RefereeKey.
	RefereeKeyFile string
	// AdminTokenFile names a file holding the admin token of a league
	// leaguetui starts (--admin-token-file), or that an attached console
	// presents; LEAGUETUI_ADMIN_TOKEN overrides it.
	AdminTokenFile string
}

// RefereeDefaults are the settings of defaults/referee.json.
type RefereeDefaults struct {
	MaxConcurrentMatches int // 2
}

// PlayerDefaults are the settings of defaults/player.json.
type PlayerDefaults struct {
	// Strategy names the player's strategy. This package does not check it:
	// the set of strategies belongs to the player code.
	Strategy string // "random"
	// Strategies, when set, is a comma-separated list cycled over the
	// players a league starts ("llm,random,counter"); otherwise the game's
	// own strategies are. A string keeps Config comparable.
	Strategies string
	// LLM configures the llm strategy.
	LLM LLM
}

// LLM is which language model the llm strategy asks, and where its key is.
// It never holds the key itself.
type LLM struct {
	Provider   string // "openai" (or any OpenAI-compatible server; the default), "anthropic", or a preset (Presets)
	Model      string
	BaseURL    string // "" for the provider's own
	APIKeyEnv  string // the variable holding the key; "" for the preset's, OPENAI_API_KEY or ANTHROPIC_API_KEY
	APIKeyFile string // a file holding the key, read instead of the environment
	Fallback   string // "random": a random legal move when the provider fails; "" for none
	// MaxTokensPerMatch caps the tokens (in and out) a model player spends
	// in one match; 0 is no cap.
	MaxTokensPerMatch int
	// ReplyBytes caps one reply of the provider (1 MiB): a longer one is
	// refused (REPLY_TOO_LARGE), a MODEL_GENERATION_ERROR.
	ReplyBytes int64
	// RPM and TPM are ceilings on the requests and the tokens a minute
	// that all the model players of one provider and key send together
	// (agents/ratelimit); 0 is none: the provider's headers and 429s pace
	// them alone.
	RPM int
	TPM int
	// Price is this model's price (--llm-price); unset, the price table's.
	Price Price
	// RecordDir (--record-models) keeps every request to the provider
	// and its reply in a folder; ReplayDir (--replay-models) answers
	// every request from such a folder, without a network.
	RecordDir string
	ReplayDir string
	// BudgetUSD and BudgetTokens cap what this model player spends in the
	// league (0: no cap); LeagueBudgetUSD and LeagueBudgetTokens what all
	// the league's model players spend together.
	BudgetUSD          float64
	BudgetTokens       int64
	LeagueBudgetUSD    float64
	LeagueBudgetTokens int64
	// ToolCalls is whether the model's server takes tools: "on", "off"
	// (the move is asked for as JSON in the answer's text) or "auto"
	// ("" too: tools, and text once the server refuses them).
	ToolCalls string
	// LeagueBudgetEnd is what becomes of a league whose budget is spent:
	// "stop" (the default, "" too) ends it, "pause" pauses it.
	LeagueBudgetEnd string
	// Harness is how the model is asked (harness.go); zero is the built-in.
	Harness Harness
}

// Participants bounds how many agents a league needs before it can start.
type Participants struct {
	MinPlayers  int // 2
	MaxPlayers  int // 10000
	MinReferees int // 1
}

// Suspension says when the league manager gives up on a failing player
// (protocol.md §5.2: ACTIVE -> SUSPENDED after "max failures"): a suspended
// player gets no more invitations and its remaining matches are scored as
// its technical losses at once, instead of each waiting out every timeout.
type Suspension struct {
	// AfterTechnicalLosses is how many technical losses in a row, as the
	// offender, suspend a player; 0 never suspends.
	AfterTechnicalLosses int // 3
	// AfterMissedReports is how many matches in a row a referee may be
	// given and not report (its match deadline passed, or it went away)
	// before it is suspended: given no more matches, its own going to the
	// other referees at once. The last referee in play is never
	// suspended; 0 never suspends a referee.
	AfterMissedReports int // 2
}

// Format is the league's format (see engine.Formats). Challengers is a
// comma-separated list so that Config stays comparable.
type Format struct {
	Name         string // "round-robin" ("" too, the default), "double-round-robin", "swiss", "gauntlet"
	Rounds       int    // swiss: rounds to play
	Challengers  string // gauntlet: "P01,P02"
	GamesPerPair int    // round robins and gauntlet: games each pair plays, seats alternating (0 is 1)
	SPRT         string // "elo0=0,elo1=10,alpha=0.05,beta=0.05": a gauntlet of two players stops when decided
	MaxGames     int    // the SPRT's bound on games (0: the engine's default)
	// UntilSeparated is how many separating matches may follow the
	// schedule (engine.FormatSpec.UntilSeparated); Place the one player a
	// --place league places by them alone.
	UntilSeparated int
	Place          string
	// UntilDecided is UntilSeparated that also stops for adjacent pairs
	// shown equivalent within EquivalenceMargin Elo
	// (engine.FormatSpec.UntilDecided; 0: engine.DefaultEquivalenceMargin).
	UntilDecided      int
	EquivalenceMargin int
}

// ChallengerIDs are the player ids Challengers names, in order.
func (f Format) ChallengerIDs() []string {
	var ids []string
	for _, c := range strings.Split(f.Challengers, ",") {
		if c = strings.TrimSpace(c); c != "" {
			ids = append(ids, c)
		}
	}
	return ids
}

// CheckPlayers refuses a format its players cannot play, better said
// before anything starts than when the league would: a swiss league of
// more rounds than they can be paired in without a rematch, or a
// gauntlet's challenger that is none of them, when they are the first
// player ids (P01 to Pnn), as in a league leaguetui starts.
func (f Format) CheckPlayers(players int) error {
	if f.Name == "swiss" {
		return engine.CheckSwissRounds(players, f.Rounds)
	}
	if f.Name != "gauntlet" {
		return nil
	}
	for _, c := range f.ChallengerIDs() {
		if !slices.Contains(playerIDs(players), c) {
			return fmt.Errorf("--challengers: %q is not one of the league's players, %s to %s", c, PlayerIDAt(0), PlayerIDAt(players-1))
		}
	}
	return nil
}

// playerIDs are the first n player ids.
func playerIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = PlayerIDAt(i)
	}
	return ids
}

// Ratings choose what the Elo fit counts.
type Ratings struct {
	ExcludeTechnical bool // leave technical losses out (default: they count as losses)
}

// Default returns the built-in defaults, equal to the specification's config layer.
//
// One deliberate difference: the sample system.json says initial_delay_sec
// 1.0, while the specification's retry code (and our Retry) waits 2 s then
// 4 s; the code is what peers actually run.
func Default() Config {
	return Config{
		LeagueID: LeagueIDFor("even_odd"),
		GameType: "even_odd",
		Pages: Pages{MaxSteps: 8, MaxDistance: 4, ReplyBytes: 4 << 20, MaxLinks: 1000, CacheBytes: 64 << 20,
			DrawLoads: 200},
		Network: Network{
			Host:             "127.0.0.1",
			ManagerPort:      8000,
			RefereePortFirst: 8001,
			RefereePortLast:  8010,
			PlayerPortFirst:  8101,
			PlayerPortLast:   8200,
			MessageBytes:     1 << 20,
		},
		Timeouts: Timeouts{
			RegisterReferee: 10 * time.Second,
			RegisterPlayer:  10 * time.Second,
			JoinAck:         5 * time.Second,
			Move:            30 * time.Second,
			GameOver:        5 * time.Second,
			Report:          10 * time.Second,
			Query:           10 * time.Second,
			Generic:         10 * time.Second,
		},
		Retry:        Retry{Attempts: 3, InitialDelay: 2 * time.Second, Multiplier: 2},
		Breaker:      Breaker{Failures: 5, Reset: 60 * time.Second},
		Scoring:      Scoring{Win: 3, Draw: 1, Loss: 0, TechnicalLoss: 0},
		Security:     Security{TokenBytes: 32, AuthTokens: true, TokenTTL: 24 * time.Hour},
		Referee:      RefereeDefaults{MaxConcurrentMatches: 2},
		Player:       PlayerDefaults{Strategy: "random", LLM: LLM{ReplyBytes: 1 << 20}},
		Participants: Participants{MinPlayers: 2, MaxPlayers: 10000, MinReferees: 1},
		Suspension:   Suspension{AfterTechnicalLosses: 3, AfterMissedReports: 2},
	}
}

// saturate converts a nanosecond count to a Duration, clamping values that do
// not fit so that absurd inputs stay absurd instead of wrapping negative.
func saturate(ns float64) time.Duration {
	switch {
	case ns >= math.MaxInt64:
		return math.MaxInt64
	case ns <= math.MinInt64:
		return math.MinInt64
	}
	return time.Duration(math.Round(ns))
}

// leagueIDPrefix starts the id of a league nobody named.
const leagueIDPrefix = "league_2025_"

// LeagueIDFor is the id of a league of game that neither --league-id,
// LEAGUETUI_LEAGUE_ID nor a config folder names: the game's name after
// league_2025_, so that a link race's folders, report and header say
// link_race (the even/odd league keeps league_2025_even_odd).
func LeagueIDFor(game string) string { return leagueIDPrefix + game }
