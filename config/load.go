package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/engine"
)

// Load reads a config folder laid out as the specification's config layer
// (system.json, leagues/<league_id>.json, defaults/referee.json,
// defaults/player.json) on top of Default().
//
// Missing files keep the defaults, so a folder may hold only what it
// changes; a missing folder is an error naming it, because a mistyped path
// silently running on defaults is worse than stopping. Invalid JSON or a
// wrong type is a *FileError naming the file and, where known, the key.
// Durations in files are in seconds (fractions allowed), as the keys say.
// system.json's default_league_id selects which leagues/<id>.json to read.
// Files under games/ and agents/ are only checked to be valid JSON: other
// packages read them, and a broken one should stop the league at start-up
// rather than in the middle of a round. An unknown key is a *FileError
// naming it and the keys its object holds, so a misspelt key never runs a
// league on a default; the keys the specification's sample files carry are
// accepted, read or not, so folders written for other implementations
// load unchanged.
//
// Load does not call Validate, so callers can inspect odd values first.
func Load(dir string) (Config, error) {
	return LoadLeague(dir, "")
}

// LoadLeague is Load for a chosen league: it reads leagues/<leagueID>.json
// whatever system.json's default_league_id says, and the result's LeagueID
// is leagueID. An empty leagueID behaves like Load.
func LoadLeague(dir, leagueID string) (Config, error) {
	abs, err := checkFolder(dir)
	if err != nil {
		return Config{}, err
	}
	cfg := Default()
	cfg.Dir = abs
	if err := loadSystem(dir, &cfg); err != nil {
		return Config{}, err
	}
	if leagueID != "" {
		cfg.LeagueID = leagueID
	}
	if err := loadLeague(dir, &cfg); err != nil {
		return Config{}, err
	}
	if err := loadDefaults(dir, &cfg); err != nil {
		return Config{}, err
	}
	if _, err := LoadPrices(dir); err != nil {
		return Config{}, err
	}
	return cfg, checkOtherFiles(dir)
}

// FileError reports a problem with one config file, naming the file and,
// when it is known, the key at fault, so a user can go straight to it.
type FileError struct {
	Path  string // the file, as dir joined with its name inside the folder
	Field string // dotted JSON key, e.g. "timeouts.move_timeout_sec"; "" if unknown
	Err   error
}

func (e *FileError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("config: %s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("config: %s: %s: %v", e.Path, e.Field, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// checkFolder makes sure dir is an existing directory and returns its
// absolute path.
func checkFolder(dir string) (string, error) {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("config: config folder %q: %w", dir, fs.ErrNotExist)
	case err != nil:
		return "", fmt.Errorf("config: config folder %q: %w", dir, err)
	case !info.IsDir():
		return "", fmt.Errorf("config: config folder %q is not a directory", dir)
	}
	return filepath.Abs(dir)
}

// The file types below mirror the specification's files. Pointer fields
// tell a key that is absent (keep the default) from one set to zero.

type systemFile struct {
	DefaultLeagueID *string `json:"default_league_id"`
	Network         struct {
		BaseHost         *string `json:"base_host"`
		ManagerPort      *int    `json:"default_league_manager_port"`
		RefereePortRange []int   `json:"default_referee_port_range"`
		PlayerPortRange  []int   `json:"default_player_port_range"`
		Advertise        *string `json:"advertise_url"`
		TLSCert          *string `json:"tls_cert_file"`
		TLSKey           *string `json:"tls_key_file"`
		TLSCA            *string `json:"tls_ca_file"`
		RequireTLS       *bool   `json:"require_tls"`
	} `json:"network"`
	Security struct {
		EnableAuthTokens *bool    `json:"enable_auth_tokens"`
		TokenLength      *int     `json:"token_length"`
		TokenTTLHours    *float64 `json:"token_ttl_hours"`
		RefereeKeyFile   *string  `json:"referee_key_file"`
	} `json:"security"`
	Timeouts struct {
		RegisterReferee *float64 `json:"register_referee_timeout_sec"`
		RegisterPlayer  *float64 `json:"register_player_timeout_sec"`
		JoinAck         *float64 `json:"game_join_ack_timeout_sec"`
		Move            *float64 `json:"move_timeout_sec"`
		Generic         *float64 `json:"generic_response_timeout_sec"`
		GameOver        *float64 `json:"game_over_timeout_sec"`
		Report          *float64 `json:"match_result_report_timeout_sec"`
		Query           *float64 `json:"league_query_timeout_sec"`
	} `json:"timeouts"`
	RetryPolicy struct {
		MaxRetries      *int     `json:"max_retries"`
		BackoffStrategy *string  `json:"backoff_strategy"`
		InitialDelay    *float64 `json:"initial_delay_sec"`
	} `json:"retry_policy"`
	CircuitBreaker struct {
		FailureThreshold *int     `json:"failure_threshold"`
		ResetTimeout     *float64 `json:"reset_timeout_sec"`
	} `json:"circuit_breaker"`
}

type leagueFile struct {
	LeagueID *string `json:"league_id"`
	GameType *string `json:"game_type"`
	Scoring  struct {
		Win           *int      `json:"win_points"`
		Draw          *int      `json:"draw_points"`
		Loss          *int      `json:"loss_points"`
		TechnicalLoss *int      `json:"technical_loss_points"`
		Tiebreakers   *[]string `json:"tiebreakers"`
	} `json:"scoring"`
	Participants struct {
		MinPlayers  *int `json:"min_players"`
		MaxPlayers  *int `json:"max_players"`
		MinReferees *int `json:"min_referees"`
	} `json:"participants"`
	Suspension struct {
		AfterTechnicalLosses *int `json:"after_consecutive_technical_losses"`
		AfterMissedReports   *int `json:"referee_after_consecutive_missed_reports"`
	} `json:"suspension"`
}

type refereeFile struct {
	MaxConcurrentMatches *int `json:"max_concurrent_matches"`
}

type playerFile struct {
	Settings struct {
		Strategy   *string `json:"strategy"`
		Strategies *string `json:"strategies"`
		LLM        struct {
			Provider          *string `json:"provider"`
			Model             *string `json:"model"`
			BaseURL           *string `json:"base_url"`
			APIKeyEnv         *string `json:"api_key_env"`
			APIKeyFile        *string `json:"api_key_file"`
			Fallback          *string `json:"fallback"`
			MaxTokensPerMatch *int    `json:"max_tokens_per_match"`
			ReplyBytes        *int64  `json:"reply_bytes"`
			RPM               *int    `json:"rpm"`
			TPM               *int    `json:"tpm"`
			harnessJSON
		} `json:"llm"`
	} `json:"settings"`
}

func loadSystem(dir string, cfg *Config) error {
	var f systemFile
	path := filepath.Join(dir, "system.json")
	if found, err := readJSON(path, &f, keysOf(f, "system.json")); err != nil || !found {
		return err
	}
	return f.apply(path, cfg)
}

func (f *systemFile) apply(path string, cfg *Config) error {
	set(&cfg.LeagueID, f.DefaultLeagueID)
	if f.Network.BaseHost != nil {
		cfg.Network.Host = listenHost(*f.Network.BaseHost)
	}
	set(&cfg.Network.ManagerPort, f.Network.ManagerPort)
	set(&cfg.Network.Advertise, f.Network.Advertise)
	set(&cfg.Network.RequireTLS, f.Network.RequireTLS)
	for _, file := range []struct{ to, from *string }{
		{&cfg.Network.TLSCert, f.Network.TLSCert}, {&cfg.Network.TLSKey, f.Network.TLSKey}, {&cfg.Network.TLSCA, f.Network.TLSCA},
		{&cfg.Security.RefereeKeyFile, f.Security.RefereeKeyFile},
	} {
		if file.from != nil {
			*file.to = relativeTo(filepath.Dir(path), *file.from)
		}
	}
	err := errors.Join(
		setPortRange(path, "network.default_referee_port_range", f.Network.RefereePortRange,
			&cfg.Network.RefereePortFirst, &cfg.Network.RefereePortLast),
		setPortRange(path, "network.default_player_port_range", f.Network.PlayerPortRange,
			&cfg.Network.PlayerPortFirst, &cfg.Network.PlayerPortLast),
		setBackoff(path, f.RetryPolicy.BackoffStrategy, &cfg.Retry.Multiplier),
	)
	if err != nil {
		return err
	}

	set(&cfg.Security.AuthTokens, f.Security.EnableAuthTokens)
	set(&cfg.Security.TokenBytes, f.Security.TokenLength)
	if h := f.Security.TokenTTLHours; h != nil {
		cfg.Security.TokenTTL = saturate(*h * float64(time.Hour))
	}

	t := &cfg.Timeouts
	setSeconds(&t.RegisterReferee, f.Timeouts.RegisterReferee)
	setSeconds(&t.RegisterPlayer, f.Timeouts.RegisterPlayer)
	setSeconds(&t.JoinAck, f.Timeouts.JoinAck)
	setSeconds(&t.Move, f.Timeouts.Move)
	setSeconds(&t.Generic, f.Timeouts.Generic)
	setSeconds(&t.GameOver, f.Timeouts.GameOver)
	setSeconds(&t.Report, f.Timeouts.Report)
	setSeconds(&t.Query, f.Timeouts.Query)

	set(&cfg.Retry.Attempts, f.RetryPolicy.MaxRetries)
	setSeconds(&cfg.Retry.InitialDelay, f.RetryPolicy.InitialDelay)
	set(&cfg.Breaker.Failures, f.CircuitBreaker.FailureThreshold)
	setSeconds(&cfg.Breaker.Reset, f.CircuitBreaker.ResetTimeout)
	return nil
}

// loadLeague reads leagues/<cfg.LeagueID>.json. A league_id inside the file
// must agree with the file name: a copied file left unedited would
// otherwise run a league under an id nobody asked for.
func loadLeague(dir string, cfg *Config) error {
	if strings.ContainsAny(cfg.LeagueID, `/\`) || !filepath.IsLocal(cfg.LeagueID) {
		return fmt.Errorf("config: league id %q cannot name a file in %s", cfg.LeagueID,
			filepath.Join(dir, "leagues"))
	}
	var f leagueFile
	path := filepath.Join(dir, "leagues", cfg.LeagueID+".json")
	if found, err := readJSON(path, &f, keysOf(f, "league")); err != nil || !found {
		return err
	}
	if f.LeagueID != nil && *f.LeagueID != cfg.LeagueID {
		return &FileError{Path: path, Field: "league_id",
			Err: fmt.Errorf("%q does not match the file name (want %q)", *f.LeagueID, cfg.LeagueID)}
	}
	set(&cfg.GameType, f.GameType)
	s := &cfg.Scoring
	set(&s.Win, f.Scoring.Win)
	set(&s.Draw, f.Scoring.Draw)
	set(&s.Loss, f.Scoring.Loss)
	set(&s.TechnicalLoss, f.Scoring.TechnicalLoss)
	if f.Scoring.Tiebreakers != nil {
		order, err := engine.ParseTiebreakers(*f.Scoring.Tiebreakers)
		if err != nil {
			return &FileError{Path: path, Field: "scoring.tiebreakers", Err: err}
		}
		s.Tiebreakers = order
	}
	p := &cfg.Participants
	set(&p.MinPlayers, f.Participants.MinPlayers)
	set(&p.MaxPlayers, f.Participants.MaxPlayers)
	set(&p.MinReferees, f.Participants.MinReferees)
	set(&cfg.Suspension.AfterTechnicalLosses, f.Suspension.AfterTechnicalLosses)
	set(&cfg.Suspension.AfterMissedReports, f.Suspension.AfterMissedReports)
	return nil
}

func loadDefaults(dir string, cfg *Config) error {
	var ref refereeFile
	if _, err := readJSON(filepath.Join(dir, "defaults", "referee.json"), &ref, keysOf(ref, "referee.json")); err != nil {
		return err
	}
	set(&cfg.Referee.MaxConcurrentMatches, ref.MaxConcurrentMatches)

	var pl playerFile
	if _, err := readJSON(filepath.Join(dir, "defaults", "player.json"), &pl, keysOf(pl, "player.json")); err != nil {
		return err
	}
	set(&cfg.Player.Strategy, pl.Settings.Strategy)
	set(&cfg.Player.Strategies, pl.Settings.Strategies)
	llm, file := &cfg.Player.LLM, pl.Settings.LLM
	set(&llm.Provider, file.Provider)
	set(&llm.Model, file.Model)
	set(&llm.BaseURL, file.BaseURL)
	set(&llm.APIKeyEnv, file.APIKeyEnv)
	set(&llm.APIKeyFile, file.APIKeyFile)
	set(&llm.Fallback, file.Fallback)
	set(&llm.MaxTokensPerMatch, file.MaxTokensPerMatch)
	set(&llm.ReplyBytes, file.ReplyBytes)
	set(&llm.RPM, file.RPM)
	set(&llm.TPM, file.TPM)
	if err := file.harnessJSON.applyTo(&llm.Harness, "settings.llm."); err != nil {
		return &FileError{Path: filepath.Join(dir, "defaults", "player.json"), Err: err}
	}
	return nil
}

// checkOtherFiles checks that every *.json file in games/ and agents/ is
// valid JSON; their content belongs to other packages.
func checkOtherFiles(dir string) error {
	for _, sub := range []string{"games", "agents"} {
		paths, err := filepath.Glob(filepath.Join(dir, sub, "*.json"))
		if err != nil {
			return err
		}
		for _, path := range paths {
			var v any
			if _, err := readJSON(path, &v, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// readJSON decodes the file at path into v, refusing a key that shape
// does not hold (nil shape: any key). A missing file is not an error: it
// reports found == false and leaves v alone.
func readJSON(path string, v any, shape keys) (found bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is already in the FileError
		}
		return false, &FileError{Path: path, Err: err}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, decodeError(path, data, err)
	}
	return true, unknownKey(path, data, shape)
}

// decodeError turns an encoding/json error into a FileError that names the
// line and column of bad syntax, or the key whose value has the wrong type,
// without the Go type names of this package's internals.
func decodeError(path string, data []byte, err error) error {
	var syntax *json.SyntaxError
	var wrongType *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		line, col := position(data, syntax.Offset)
		return &FileError{Path: path, Err: fmt.Errorf("invalid JSON at line %d, column %d: %w", line, col, err)}
	case errors.As(err, &wrongType):
		return &FileError{Path: path, Field: wrongType.Field,
			Err: fmt.Errorf("got JSON %s, want %s", wrongType.Value, jsonKind(wrongType.Type))}
	}
	return &FileError{Path: path, Err: err}
}

// position converts a byte offset from encoding/json, which counts the bytes
// read up to and including the bad one, to a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	before := data[:min(max(offset, 0), int64(len(data)))]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n') - 1
	return line, max(col, 1)
}

// jsonKind names the JSON value a Go type expects, for error messages.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return t.String()
}

// set copies *src into *dst when the file had the key.
func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

// setSeconds stores a seconds count from a file as a Duration.
func setSeconds(dst *time.Duration, sec *float64) {
	if sec != nil {
		*dst = saturate(*sec * float64(time.Second))
	}
}

// setPortRange stores a [first, last] pair. Anything but two numbers is an
// error rather than a guess.
func setPortRange(path, field string, pair []int, first, last *int) error {
	switch len(pair) {
	case 0: // absent
		return nil
	case 2:
		*first, *last = pair[0], pair[1]
		return nil
	}
	return &FileError{Path: path, Field: field,
		Err: fmt.Errorf("want [first, last], got %d numbers", len(pair))}
}

// setBackoff maps backoff_strategy to a delay multiplier. An unknown name is
// an error: guessing would change how long a league waits on a dead peer.
func setBackoff(path string, strategy *string, multiplier *float64) error {
	if strategy == nil {
		return nil
	}
	switch strings.ToLower(strings.TrimSpace(*strategy)) {
	case "exponential":
		*multiplier = 2
	case "fixed", "constant":
		*multiplier = 1
	default:
		return &FileError{Path: path, Field: "retry_policy.backoff_strategy",
			Err: fmt.Errorf("unknown strategy %q (want exponential, fixed or constant)", *strategy)}
	}
	return nil
}

// relativeTo reads a file named in a config file relative to the folder
// that holds it, as a user writing "certs/agent.pem" there means.
func relativeTo(dir, name string) string {
	if name == "" || filepath.IsAbs(name) {
		return name
	}
	if abs, err := filepath.Abs(filepath.Join(dir, name)); err == nil {
		return abs
	}
	return filepath.Join(dir, name)
}

// listenHost maps "localhost" to 127.0.0.1: agents listen on IPv4 loopback,
// where every peer implementation connects.
func listenHost(host string) string {
	host = strings.TrimSpace(host)
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1] // an IPv6 address written as in a URL: [::1]
	}
	if strings.EqualFold(host, "localhost") {
		return "127.0.0.1"
	}
	return host
}
