// Package control is the client side of a league manager's HTTP surface:
// the standings, the live event feed, and the admin's start, pause, resume
// and stop. The headless run and the console both read the league through
// it, the same way whether they started the manager or attached to one.
// The documents it reads are declared in agents/protocol (files.go), which
// the manager writes them with.
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
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/tlsconf"
)

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

// MaxReplyBytes caps each reply the client reads: a console may attach to
// anyone's manager, and a manager that answers without end must not fill
// the console's memory. The largest reply a manager sends is far smaller:
// a feed page of 2,000 events is a few MB, a match file at most
// protocol.MaxMatchFile; the cap leaves room for a league_started event
// of a journal written when it still carried the schedule (tens of MB at
// 1,000 players).
const MaxReplyBytes = 128 << 20

// New makes a client for the manager at base ("http://127.0.0.1:8000"; a
// trailing /mcp is ignored). adminToken may be empty for read-only use.
func New(base, adminToken string) *Client {
	base = strings.TrimSuffix(strings.TrimSuffix(base, "/"), "/mcp")
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = tlsconf.Client()
	return &Client{base: base, adminToken: adminToken,
		http: resty.New().SetTimeout(45*time.Second).SetHeader("Content-Type", "application/json").
			SetTransport(rpc.CapReplies(transport, MaxReplyBytes))}
}

// HasAdminToken reports whether the client may start, pause, resume and
// stop the league, or only read it.
func (c *Client) HasAdminToken() bool { return c.adminToken != "" }

// Base is the manager's base URL.
func (c *Client) Base() string { return c.base }

// Standings reads the current standings.
func (c *Client) Standings(ctx context.Context) (protocol.StandingsFile, error) {
	var doc protocol.StandingsFile
	return doc, c.get(ctx, "/standings", &doc)
}

// LOS reads a player's likelihood of superiority over every other player.
func (c *Client) LOS(ctx context.Context, playerID string) (protocol.LOSDoc, error) {
	var doc protocol.LOSDoc
	return doc, c.get(ctx, "/los?player="+url.QueryEscape(playerID), &doc)
}

// Events reads the events after the cursor, waiting up to wait for one.
func (c *Client) Events(ctx context.Context, after int64, wait time.Duration) (protocol.FeedPage, error) {
	var page protocol.FeedPage
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
func (c *Client) Health(ctx context.Context) (protocol.Health, error) {
	var h protocol.Health
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
