package config

import (
	"math"
	"testing"
	"time"
)

func TestDefault(t *testing.T) {
	c := Default()
	tests := []struct {
		name      string
		got, want any
	}{
		{"LeagueID", c.LeagueID, "league_2025_even_odd"},
		{"GameType", c.GameType, "even_odd"},
		{"Network.Host", c.Network.Host, "127.0.0.1"},
		{"Network.ManagerPort", c.Network.ManagerPort, 8000},
		{"Network.RefereePortFirst", c.Network.RefereePortFirst, 8001},
		{"Network.RefereePortLast", c.Network.RefereePortLast, 8010},
		{"Network.PlayerPortFirst", c.Network.PlayerPortFirst, 8101},
		{"Network.PlayerPortLast", c.Network.PlayerPortLast, 8200},
		{"Timeouts.RegisterReferee", c.Timeouts.RegisterReferee, 10 * time.Second},
		{"Timeouts.RegisterPlayer", c.Timeouts.RegisterPlayer, 10 * time.Second},
		{"Timeouts.JoinAck", c.Timeouts.JoinAck, 5 * time.Second},
		{"Timeouts.Move", c.Timeouts.Move, 30 * time.Second},
		{"Timeouts.GameOver", c.Timeouts.GameOver, 5 * time.Second},
		{"Timeouts.Report", c.Timeouts.Report, 10 * time.Second},
		{"Timeouts.Query", c.Timeouts.Query, 10 * time.Second},
		{"Timeouts.Generic", c.Timeouts.Generic, 10 * time.Second},
		{"Retry.Attempts", c.Retry.Attempts, 3},
		{"Retry.InitialDelay", c.Retry.InitialDelay, 2 * time.Second},
		{"Retry.Multiplier", c.Retry.Multiplier, 2.0},
		{"Breaker.Failures", c.Breaker.Failures, 5},
		{"Breaker.Reset", c.Breaker.Reset, 60 * time.Second},
		{"Scoring", c.Scoring, Scoring{Win: 3, Draw: 1, Loss: 0, TechnicalLoss: 0}},
		{"Security.TokenBytes", c.Security.TokenBytes, 32},
		{"Security.AuthTokens", c.Security.AuthTokens, true},
		{"Security.TokenTTL", c.Security.TokenTTL, 24 * time.Hour},
		{"Referee.MaxConcurrentMatches", c.Referee.MaxConcurrentMatches, 2},
		{"Player.Strategy", c.Player.Strategy, "random"},
		{"Participants", c.Participants, Participants{MinPlayers: 2, MaxPlayers: 10000, MinReferees: 1}},
		{"Suspension.AfterTechnicalLosses", c.Suspension.AfterTechnicalLosses, 3},
		{"Suspension.AfterMissedReports", c.Suspension.AfterMissedReports, 2},
		{"Dir", c.Dir, ""},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("Default().%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if err := c.Validate(); err != nil {
		t.Errorf("Default().Validate() = %v, want nil", err)
	}
}

func TestRetryDelay(t *testing.T) {
	exponential := Retry{Attempts: 3, InitialDelay: 2 * time.Second, Multiplier: 2}
	fixed := Retry{Attempts: 3, InitialDelay: 1500 * time.Millisecond, Multiplier: 1}
	tests := []struct {
		name  string
		retry Retry
		n     int
		want  time.Duration
	}{
		{"exponential first retry", exponential, 1, 2 * time.Second},
		{"exponential second retry", exponential, 2, 4 * time.Second},
		{"exponential third retry", exponential, 3, 8 * time.Second},
		{"fixed first retry", fixed, 1, 1500 * time.Millisecond},
		{"fixed third retry", fixed, 3, 1500 * time.Millisecond},
		{"no attempt yet", exponential, 0, 0},
		{"negative n", exponential, -1, 0},
		{"saturates instead of overflowing", exponential, 200, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.retry.Delay(tt.n); got != tt.want {
				t.Errorf("Delay(%d) = %v, want %v", tt.n, got, tt.want)
			}
		})
	}
}
