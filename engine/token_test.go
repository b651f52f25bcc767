package engine

import "testing"

// TestPriorTokenHash: an agent registering again keeps, as its prior
// token, the one it proved it held. A journal written before the prior
// token was journaled gives the token before the new one: the manager
// took no other then. The hashes never leave through Public.
func TestPriorTokenHash(t *testing.T) {
	registered := func(hash, prior string) Event {
		return Event{Kind: EventAgentRegistered, Agent: &AgentInfo{ID: "P01", Role: RolePlayer,
			Endpoint: "http://127.0.0.1:1/mcp", TokenHash: hash, PriorTokenHash: prior}}
	}
	tests := []struct {
		name      string
		events    []Event
		wantPrior string
	}{
		{"a newcomer", []Event{registered("h1", "")}, ""},
		{"again, in an old journal", []Event{registered("h1", ""), registered("h2", "")}, "h1"},
		{"again with the prior, the new one never used", []Event{registered("h1", ""), registered("h2", "h1"), registered("h3", "h1")}, "h1"},
		{"again with the new one", []Event{registered("h1", ""), registered("h2", "h1"), registered("h3", "h2")}, "h2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewLeague("L", DefaultScoring())
			for i, ev := range tt.events {
				ev.Seq = int64(i + 1)
				if err := l.Apply(ev); err != nil {
					t.Fatal(err)
				}
			}
			a, _ := l.Agent("P01")
			if a.PriorTokenHash != tt.wantPrior || a.TokenHash != tt.events[len(tt.events)-1].Agent.TokenHash {
				t.Errorf("token %q, prior %q; want %q, prior %q", a.TokenHash, a.PriorTokenHash,
					tt.events[len(tt.events)-1].Agent.TokenHash, tt.wantPrior)
			}
			if p := a.Public(); p.TokenHash != "" || p.PriorTokenHash != "" || p.ID != "P01" {
				t.Errorf("Public() = %+v, want the agent without its hashes", p)
			}
		})
	}
}
