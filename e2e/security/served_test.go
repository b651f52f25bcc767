package security_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
)

// journalHashes reads every token hash the league's journal keeps.
func journalHashes(t *testing.T, dataDir string) []secret {
	t.Helper()
	data, err := os.ReadFile(store.Layout{Root: dataDir, LeagueID: leagueID}.Journal())
	if err != nil {
		t.Fatal(err)
	}
	var hashes []secret
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var ev struct {
			Agent *struct {
				ID        string `json:"id"`
				TokenHash string `json:"token_hash"`
			} `json:"agent"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("journal line %q: %v", line, err)
		}
		if ev.Agent != nil && ev.Agent.TokenHash != "" {
			hashes = append(hashes, secret{"the hash of " + ev.Agent.ID, ev.Agent.TokenHash})
		}
	}
	return hashes
}

// getBody is the body of GET url.
func getBody(t *testing.T, url string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: HTTP %d (%v)", url, resp.StatusCode, err)
	}
	return body
}

// checkServedGETs reads what the agents serve to anyone over GET: the
// manager's whole event feed and standings, and every agent's health. None
// may hold a token or a token's hash (the journal's, grepped from it).
func checkServedGETs(t *testing.T, l *league, secrets []secret) {
	t.Helper()
	hashes := journalHashes(t, l.dir)
	if want := len(l.players) + len(l.referees) + 1; len(hashes) < want {
		t.Fatalf("the journal holds %d token hashes, want at least one per agent: %d", len(hashes), want)
	}
	pieces := fragments(append(slices.Clone(secrets), hashes...))
	base := strings.TrimSuffix(l.manager.Endpoint, "/mcp")
	served := map[string][]byte{"/standings": getBody(t, base+"/standings")}
	var events int
	for cursor := int64(0); ; {
		url := fmt.Sprintf("%s/events?after=%d", base, cursor)
		body := getBody(t, url)
		var page protocol.FeedPage
		if err := json.Unmarshal(body, &page); err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		if len(page.Events) == 0 {
			break
		}
		served[url] = body
		events, cursor = events+len(page.Events), page.LastSeq
	}
	for _, c := range append(append(slices.Clone(l.players), l.referees...), l.manager) {
		served[c.Name+" /health"] = getBody(t, strings.TrimSuffix(c.Endpoint, "/mcp")+"/health")
	}
	for what, body := range served {
		if found := leaksIn(string(body), pieces); len(found) > 0 {
			t.Errorf("%s holds %v", what, found)
		}
		if strings.Contains(string(body), "token") {
			t.Errorf("%s names a token: %.300s", what, body)
		}
	}
	t.Logf("read %d events, the standings and %d health answers for %d tokens and %d hashes", events,
		len(l.players)+len(l.referees)+1, len(secrets), len(hashes))
}
