package config

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestValidateProblems(t *testing.T) {
	tests := []struct {
		name   string
		change func(c *Config)
		want   string
	}{
		{"empty league id", func(c *Config) { c.LeagueID = "" }, "league_id must not be empty"},
		{"empty game type", func(c *Config) { c.GameType = "" }, "game_type must not be empty"},
		{"empty host", func(c *Config) { c.Network.Host = "" }, "network.host must not be empty"},
		{"manager port zero", func(c *Config) { c.Network.ManagerPort = 0 }, "network.manager_port must be in 1..65535 (got 0)"},
		{"player port too high", func(c *Config) { c.Network.PlayerPortLast = 70000 }, "network.player_port_range last port must be in 1..65535"},
		{"referee range reversed", func(c *Config) { c.Network.RefereePortFirst, c.Network.RefereePortLast = 8010, 8001 }, "network.referee_port_range [8010, 8001] is reversed"},
		{"manager inside referee range", func(c *Config) { c.Network.ManagerPort = 8005 }, "network.manager_port 8005 lies inside network.referee_port_range"},
		{"manager inside player range", func(c *Config) { c.Network.ManagerPort = 8150 }, "network.manager_port 8150 lies inside network.player_port_range"},
		{"ranges overlap", func(c *Config) { c.Network.RefereePortLast = 8101 }, "network.referee_port_range [8001, 8101] overlaps network.player_port_range"},
		{"move timeout zero", func(c *Config) { c.Timeouts.Move = 0 }, "timeouts.move must be > 0"},
		{"join timeout negative", func(c *Config) { c.Timeouts.JoinAck = -time.Second }, "timeouts.join_ack must be > 0 (got -1s)"},
		{"no attempts", func(c *Config) { c.Retry.Attempts = 0 }, "retry.attempts must be >= 1"},
		{"negative retry delay", func(c *Config) { c.Retry.InitialDelay = -1 }, "retry.initial_delay must be >= 0"},
		{"shrinking backoff", func(c *Config) { c.Retry.Multiplier = 0.5 }, "retry.multiplier must be >= 1"},
		{"breaker never opens", func(c *Config) { c.Breaker.Failures = 0 }, "breaker.failures must be >= 1"},
		{"breaker never resets", func(c *Config) { c.Breaker.Reset = 0 }, "breaker.reset must be > 0"},
		{"negative win", func(c *Config) { c.Scoring.Win = -3 }, "scoring.win must be >= 0 (got -3)"},
		{"negative technical loss", func(c *Config) { c.Scoring.TechnicalLoss = -1 }, "scoring.technical_loss must be >= 0"},
		{"short token", func(c *Config) { c.Security.TokenBytes = 8 }, "security.token_bytes must be >= 16 (got 8)"},
		{"tokens that expire at once", func(c *Config) { c.Security.TokenTTL = 0 }, "security.token_ttl must be > 0"},
		{"referee without capacity", func(c *Config) { c.Referee.MaxConcurrentMatches = 0 }, "referee.max_concurrent_matches must be >= 1"},
		{"one player", func(c *Config) { c.Participants.MinPlayers = 1 }, "participants.min_players must be >= 2"},
		{"max below min players", func(c *Config) { c.Participants.MaxPlayers = 1 }, "participants.max_players must be >= participants.min_players"},
		{"no referees", func(c *Config) { c.Participants.MinReferees = 0 }, "participants.min_referees must be >= 1"},
		{"negative suspension", func(c *Config) { c.Suspension.AfterTechnicalLosses = -1 }, "suspension.after_technical_losses must be >= 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.change(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestValidateAccepts(t *testing.T) {
	tests := []struct {
		name   string
		change func(c *Config)
	}{
		{"defaults", func(*Config) {}},
		{"unknown strategy is the player's business", func(c *Config) { c.Player.Strategy = "telepathy" }},
		{"no wait between retries", func(c *Config) { c.Retry.InitialDelay = 0 }},
		{"ttl unused without tokens", func(c *Config) { c.Security.AuthTokens, c.Security.TokenTTL = false, 0 }},
		{"single-port ranges", func(c *Config) { c.Network.RefereePortLast = c.Network.RefereePortFirst }},
		{"boundary ports", func(c *Config) { c.Network.ManagerPort, c.Network.PlayerPortLast = 1, 65535 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.change(&c)
			if err := c.Validate(); err != nil {
				t.Errorf("Validate() = %v, want nil", err)
			}
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	c := Default()
	c.Timeouts.Move = 0
	c.Network.ManagerPort = 70000
	c.Network.RefereePortFirst, c.Network.RefereePortLast = 8010, 8001
	c.Retry.Attempts = 0
	c.Scoring.Loss = -1
	c.Security.TokenBytes = 4

	err := c.Validate()
	if err == nil {
		t.Fatal("Validate() = nil, want errors")
	}
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		t.Fatalf("Validate() returned %T, want an errors.Join result", err)
	}
	if n := len(joined.Unwrap()); n != 6 {
		t.Errorf("Validate() reported %d problems, want 6:\n%v", n, err)
	}
	for _, want := range []string{
		"timeouts.move must be > 0",
		"network.manager_port must be in 1..65535",
		"network.referee_port_range [8010, 8001] is reversed",
		"retry.attempts must be >= 1",
		"scoring.loss must be >= 0",
		"security.token_bytes must be >= 16",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %q, missing %q", err, want)
		}
	}
}

func TestCheckHostAndListenAddress(t *testing.T) {
	for host, ok := range map[string]bool{"127.0.0.1": true, "0.0.0.0": true, "::1": true, "manager": true,
		"referee-1.players.svc": true, "my_service": true, "999.1.1.1": false, "1.2.3": false, "-x": false, "a..b": false, "a b": false} {
		if err := CheckHost(host); (err == nil) != ok {
			t.Errorf("CheckHost(%q) = %v, want ok %v", host, err, ok)
		}
	}
	for addr, ok := range map[string]bool{"127.0.0.1:0": true, ":8080": true, "[::1]:80": true, "localhost:65535": true,
		"notanaddr": false, "127.0.0.1:99999": false, "127.0.0.1:x": false, "999.1.1.1:80": false} {
		if err := CheckListenAddress(addr); (err == nil) != ok {
			t.Errorf("CheckListenAddress(%q) = %v, want ok %v", addr, err, ok)
		}
	}
}

// TestFolderProblemsNameTheFileAndKey: an out-of-range value read from a
// config folder is said by its file and its key as written there.
func TestFolderProblemsNameTheFileAndKey(t *testing.T) {
	c := Default()
	c.Dir = "/cfg"
	c.Timeouts.Move = 0
	c.Participants.MinPlayers = 1
	c.Network.ManagerPort = 8005
	err := c.validateFolder()
	for _, want := range []string{
		"config: /cfg/system.json: timeouts.move_timeout_sec: must be > 0",
		"config: /cfg/leagues/league_2025_even_odd.json: participants.min_players: must be >= 2",
		"config: /cfg/system.json: network.default_league_manager_port: 8005 lies inside network.default_referee_port_range",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("validateFolder() = %v, want it to say %q", err, want)
		}
	}
}

// TestSettingFilesNameRealKeys: every file and key the table of a config
// folder's settings names is a key the loader reads from that file, so a
// renamed key cannot leave a problem pointing at one that does not exist.
func TestSettingFilesNameRealKeys(t *testing.T) {
	types := map[string]reflect.Type{
		"system.json":           reflect.TypeFor[systemFile](),
		"leagues/%s.json":       reflect.TypeFor[leagueFile](),
		"defaults/referee.json": reflect.TypeFor[refereeFile](),
	}
	for setting, fk := range settingFiles {
		typ, ok := types[fk.file]
		if !ok {
			t.Errorf("%s: the table names %s, which the loader does not read", setting, fk.file)
			continue
		}
		for _, part := range strings.Split(fk.key, ".") {
			field, found := fieldTagged(typ, part)
			if !found {
				t.Errorf("%s: %s has no key %s", setting, fk.file, fk.key)
				break
			}
			typ = field.Type
		}
	}
}

// fieldTagged is the field of struct typ whose JSON name is name.
func fieldTagged(typ reflect.Type, name string) (reflect.StructField, bool) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := range typ.NumField() {
		if tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ","); tag == name {
			return typ.Field(i), true
		}
	}
	return reflect.StructField{}, false
}
