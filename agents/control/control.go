// Package control is the client side of a league manager's HTTP surface:
// the standings, the live event feed, and the admin's start, pause, resume
// and stop. The headless run and the console both read the league through
// it, the same way whether they started the manager or attached to one.
package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-resty/resty/v2"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/tlsconf"
	"github.com/leaguetui/leaguetui/engine"
)

// StandingsFile is the manager's standings.json, also served on GET /standings.
type StandingsFile struct {
	SchemaVersion   string                 `json:"schema_version"`
	LeagueID        string                 `json:"league_id"`
	Version         int64                  `json:"version"`
	State           engine.LeagueState     `json:"state"`
	GameType        string                 `json:"game_type,omitempty"`
	Seed            int64                  `json:"seed"`
	RoundsCompleted int                    `json:"rounds_completed"`
	RoundsTotal     int                    `json:"rounds_total"`
	MatchesDone     int                    `json:"matches_done"`
	MatchesTotal    int                    `json:"matches_total"`
	Standings       []protocol.StandingRow `json:"standings"`
	Ratings         *RatingsDoc            `json:"ratings,omitempty"`
	SPRT            *engine.SPRTStatus     `json:"sprt,omitempty"` // an --sprt gauntlet's test so far
	LastUpdated     string                 `json:"last_updated"`
}

// How the ratings are made, as the ratings section says.
const (
	RatingsModel    = "bradley-terry ML, Elo scale, draws count half, mean 0"
	RatingsInterval = "95% from the fitted model's standard errors"
)

// RatingsDoc is the standings document's ratings: a Bradley–Terry fit of
// every result so far (matches_fitted of them; the fit is refreshed at a
// bounded rate, so it may lag matches_done while a league plays).
type RatingsDoc struct {
	Model           string      `json:"model"`
	Interval        string      `json:"interval"`
	TechnicalLosses string      `json:"technical_losses"` // "loss" or "excluded"
	Games           int         `json:"games"`            // games the fit counted
	MatchesFitted   int         `json:"matches_fitted"`
	Prior           bool        `json:"prior"` // virtual draws were needed for finite ratings
	Players         []RatingRow `json:"players"`
}

// RatingRow is one player's rating, in the order of the standings.
type RatingRow struct {
	PlayerID string   `json:"player_id"`
	Elo      float64  `json:"elo"`
	CI95     float64  `json:"ci95"` // the 95 % interval is elo ± ci95
	Games    int      `json:"games"`
	Rated    bool     `json:"rated"`              // false without a counted game
	LOSNext  *float64 `json:"los_next,omitempty"` // likelihood of superiority over the next player in the table
}

// LOSDoc is GET /los?player=ID: the player's likelihood of superiority over
// each other rated player, in the table's order.
type LOSDoc struct {
	PlayerID      string   `json:"player_id"`
	MatchesFitted int      `json:"matches_fitted"`
	Versus        []LOSRow `json:"versus"`
}

// LOSRow is the player against one other.
type LOSRow struct {
	PlayerID string  `json:"player_id"`
	EloDiff  float64 `json:"elo_diff"`
	SE       float64 `json:"se"` // standard error of elo_diff
	LOS      float64 `json:"los"`
}

// FeedPage is one answer of GET /events: the events after a cursor and the
// cursor to ask with next.
type FeedPage struct {
	Events  []engine.Event     `json:"events"`
	LastSeq int64              `json:"last_seq"`
	State   engine.LeagueState `json:"state"`
	// StorageFailure, once the manager could not write its journal, says
	// which path failed and why. The league is paused: every event served
	// was journaled, and nothing after the failure is taken. It is not an
	// event: an event not journaled has no sequence number.
	StorageFailure string `json:"storage_failure,omitempty"`
}

// Admin methods on the manager's /mcp.
const (
	MethodStart  = "start_league"
	MethodPause  = "pause_league"
	MethodResume = "resume_league"
	MethodStop   = "stop_league"
)

// Client talks to one manager.
type Client struct {
	base       string
	adminToken string
	http       *resty.Client
	nextID     atomic.Int64
}

// New makes a client for the manager at base ("http://127.0.0.1:8000"; a
// trailing /mcp is ignored). adminToken may be empty for read-only use.
func New(base, adminToken string) *Client {
	base = strings.TrimSuffix(strings.TrimSuffix(base, "/"), "/mcp")
	return &Client{base: base, adminToken: adminToken,
		http: resty.New().SetTimeout(45*time.Second).SetHeader("Content-Type", "application/json").
			SetTLSClientConfig(tlsconf.Client())}
}

// HasAdminToken reports whether the client may start, pause, resume and
// stop the league, or only read it.
func (c *Client) HasAdminToken() bool { return c.adminToken != "" }

// Base is the manager's base URL.
func (c *Client) Base() string { return c.base }

// Standings reads the current standings.
func (c *Client) Standings(ctx context.Context) (StandingsFile, error) {
	var doc StandingsFile
	return doc, c.get(ctx, "/standings", &doc)
}

// LOS reads a player's likelihood of superiority over every other player.
func (c *Client) LOS(ctx context.Context, playerID string) (LOSDoc, error) {
	var doc LOSDoc
	return doc, c.get(ctx, "/los?player="+url.QueryEscape(playerID), &doc)
}

// Events reads the events after the cursor, waiting up to wait for one.
func (c *Client) Events(ctx context.Context, after int64, wait time.Duration) (FeedPage, error) {
	var page FeedPage
	path := "/events?after=" + strconv.FormatInt(after, 10) + "&wait=" + wait.String()
	return page, c.get(ctx, path, &page)
}

// ErrNoMatchFile says the manager has no file for a match (yet).
var ErrNoMatchFile = errors.New("no match file")

// MatchFile reads a match's file, with its transcript, from the manager
// (GET /matches/{id}); ErrNoMatchFile when it has none.
func (c *Client) MatchFile(ctx context.Context, matchID string) ([]byte, error) {
	resp, err := c.http.R().SetContext(ctx).Get(c.base + "/matches/" + url.PathEscape(matchID))
	switch {
	case err != nil:
		return nil, fmt.Errorf("manager at %s: %w", c.base, err)
	case resp.StatusCode() == http.StatusNotFound:
		return nil, fmt.Errorf("%w for %s: %s", ErrNoMatchFile, matchID, strings.TrimSpace(resp.String()))
	case resp.StatusCode() != http.StatusOK:
		return nil, fmt.Errorf("manager at %s: GET /matches/%s: HTTP %d", c.base, matchID, resp.StatusCode())
	}
	return resp.Body(), nil
}

// Health reads the manager's /health.
func (c *Client) Health(ctx context.Context) (map[string]any, error) {
	var h map[string]any
	return h, c.get(ctx, "/health", &h)
}

func (c *Client) get(ctx context.Context, path string, into any) error {
	resp, err := c.http.R().SetContext(ctx).Get(c.base + path)
	if err != nil {
		return fmt.Errorf("manager at %s: %w", c.base, err)
	}
	if resp.StatusCode() != http.StatusOK {
		return fmt.Errorf("manager at %s: GET %s: HTTP %d: %s", c.base, path, resp.StatusCode(),
			protocol.Printable(strings.TrimSpace(resp.String())))
	}
	if err := json.Unmarshal(resp.Body(), into); err != nil {
		return err
	}
	// What the console and --no-ui show comes from here: no string from
	// the network reaches a terminal unescaped.
	protocol.MakePrintable(into)
	return nil
}

// Start starts the league.
func (c *Client) Start(ctx context.Context) error { return c.admin(ctx, MethodStart) }

// Pause lets running matches finish and starts no new one.
func (c *Client) Pause(ctx context.Context) error { return c.admin(ctx, MethodPause) }

// Resume carries on a paused league.
func (c *Client) Resume(ctx context.Context) error { return c.admin(ctx, MethodResume) }

// Stop abandons running matches and ends the league; its state is saved.
func (c *Client) Stop(ctx context.Context) error { return c.admin(ctx, MethodStop) }

func (c *Client) admin(ctx context.Context, method string) error {
	env := protocol.NewEnvelope(strings.ToUpper(method), "admin:console", "conv-admin-"+method)
	env.AuthToken = c.adminToken
	body, err := protocol.EncodeRequest(method, env, c.nextID.Add(1))
	if err != nil {
		return err
	}
	resp, err := c.http.R().SetContext(ctx).SetBody(body).Post(c.base + "/mcp")
	if err != nil {
		return fmt.Errorf("manager at %s: %w", c.base, err)
	}
	if _, err := protocol.ParseReply(resp.Body()); err != nil {
		return fmt.Errorf("%s refused: %s", method, protocol.Printable(err.Error()))
	}
	return nil
}
