package badinput_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// notification is body without its id: a JSON-RPC 2.0 notification.
func notification(t *testing.T, body []byte) []byte {
	t.Helper()
	var req map[string]any
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	delete(req, "id")
	out, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// postRaw posts body and returns the status and the raw reply.
func postRaw(t *testing.T, url string, body []byte) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

// TestNotificationsAndInvalidIDs: each real agent answers a request
// without an id with 202 and nothing (JSON-RPC 2.0 never answers a
// notification), yet acts on it where that means something: the manager
// registers a player that asked so. A string id that is not valid UTF-8 is
// not echoed: the error goes back with id null, in valid UTF-8, and
// nothing changes.
func TestNotificationsAndInvalidIDs(t *testing.T) {
	t.Parallel()
	dir, ctl, targets := startTargets(t)

	for _, tg := range targets {
		t.Run(tg.role+" ping notification", func(t *testing.T) {
			status, out := postRaw(t, tg.url, []byte(`{"jsonrpc":"2.0","method":"ping"}`))
			if status != http.StatusAccepted || len(out) != 0 {
				t.Errorf("HTTP %d %q, want 202 and no body", status, out)
			}
			stillServes(t, tg.url)
		})
		t.Run(tg.role+" invalid UTF-8 id", func(t *testing.T) {
			body := bytes.Replace(request(tg.method, tg.message, "id-\x01"), []byte(`"id-\u0001"`), []byte("\"id-\xff\xfe\""), 1)
			if !bytes.Contains(body, []byte("\xff\xfe")) {
				t.Fatalf("the id was not spoiled: %q", body)
			}
			before := look(t, tg, ctl, dir)
			status, out := postRaw(t, tg.url, body)
			if !utf8.Valid(out) || bytes.Contains(out, []byte("\xff")) {
				t.Errorf("the reply is not valid UTF-8 or echoes the id: %q", out)
			}
			var reply leaguetest.Reply
			if err := json.Unmarshal(out, &reply); err != nil {
				t.Fatalf("HTTP %d, not JSON: %q", status, out)
			}
			if string(reply.ID) != "null" || reply.Error == nil || reply.Error.Code != -32600 || reply.Result != nil {
				t.Errorf("reply %s, want error -32600 with id null", out)
			}
			before.unchangedIn(t, look(t, tg, ctl, dir), true)
			stillServes(t, tg.url)
		})
	}

	t.Run("manager acts on a notification", func(t *testing.T) {
		const name = "registered-by-notification"
		msg := leaguetest.With(targets[0].message, map[string]any{"player_meta": map[string]any{
			"display_name": name, "version": "1.0.0", "game_types": []string{"even_odd"}, "contact_endpoint": leaguetest.RefusingEndpoint(t)}})
		status, out := postRaw(t, targets[0].url, notification(t, request("register_player", msg, 1)))
		if status != http.StatusAccepted || len(out) != 0 {
			t.Errorf("HTTP %d %q, want 202 and no body", status, out)
		}
		var cursor int64
		for {
			events, next := leaguetest.NextEvents(t, ctl, cursor, 30*time.Second, engine.EventAgentRegistered)
			if last := events[len(events)-1]; last.Agent != nil && last.Agent.DisplayName == name {
				return
			}
			cursor = next
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := ctl.Standings(ctx); err != nil {
		t.Errorf("the manager stopped serving: %v", err)
	}
}
