package config

import (
	"strings"
	"testing"
)

func TestRosterMCPSeatEntry(t *testing.T) {
	noCommand := func(RosterEntry) error { return nil }
	r, err := LoadRoster(writeRoster(t, `{"players":[{"name":"bob","strategy":"random"},{"name":"claude","mcp":true}]}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate("even_odd", noLLMCheck, noCommand); err != nil {
		t.Fatal(err)
	}
	if k := r.Players[1].Kind(); k != KindMCP {
		t.Fatalf("kind %q, want %q", k, KindMCP)
	}
	for _, c := range []struct{ body, want string }{
		{`{"players":[{"name":"bob","strategy":"random"},{"name":"claude","mcp":true,"strategy":"random"}]}`, `strategy: an entry is one of`},
		{`{"players":[{"name":"bob","strategy":"random"},{"name":"claude","mcp":true,"external":true}]}`, `strategy: an entry is one of`},
		{`{"players":[{"name":"bob","strategy":"random"},{"name":"my claude","mcp":true}]}`, `name: a mcp entry is one of leaguetui's own agents`},
		{`{"players":[{"name":"bob","strategy":"random"},{"name":"x","strategy":"random"}],"referees":[{"name":"r","mcp":true}]}`, `mcp: an MCP-client seat is a player's`},
	} {
		r, err := LoadRoster(writeRoster(t, c.body), "")
		if err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		if err := r.Validate("even_odd", noLLMCheck, noCommand); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %q", c.body, err, c.want)
		}
	}
}
