package manager

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// TestMatchHandlersKeepNothingOfTheBody: the handlers registered with
// rpc.HandleBorrowing only borrow a request's body. What the manager keeps
// of a report, of steps and of a query (the feed's events with their
// facts and steps, the matches' records) is the same once the body's
// memory has been written over, as the server does with the next request.
func TestMatchHandlersKeepNothingOfTheBody(t *testing.T) {
	m, reports := leagueToReport(t)
	defer m.closeAll()
	first, match := strings.TrimPrefix(reports[0].ConversationID, "conv-"), strings.TrimPrefix(reports[1].ConversationID, "conv-")
	steps := inboundOf(t, protocol.TypeMatchStep, &protocol.MatchStep{Envelope: refereeEnvelope(m, protocol.TypeMatchStep, match),
		Step: "drawn 7", Detail: "7 is odd", Steps: []protocol.StepEntry{{RoundID: 1, MatchID: match, Step: "choosing", Detail: "both asked"},
			{RoundID: 1, MatchID: match, Step: "drawn 7", Detail: "7 is odd"}}})
	query := inboundOf(t, protocol.TypeLeagueQuery, &protocol.LeagueQuery{Envelope: refereeEnvelope(m, protocol.TypeLeagueQuery, ""),
		QueryType: protocol.QueryStandings, QueryParams: map[string]any{"player_id": "P01"}})
	for _, call := range []struct {
		handle func(context.Context, protocol.Inbound) (any, error)
		in     protocol.Inbound
	}{{m.handleReport, reports[0]}, {m.handleMatchStep, steps}, {m.handleQuery, query}, {m.handleReport, reports[1]}} {
		if _, err := call.handle(context.Background(), call.in); err != nil {
			t.Fatalf("%s: %v", call.in.MessageType, err)
		}
		kept := keptOf(t, m, first, match)
		for i := range call.in.Body {
			call.in.Body[i] = '#'
		}
		if after := keptOf(t, m, first, match); after != kept {
			t.Fatalf("what the manager kept of %s changed with its body:\nbefore %s\nafter  %s", call.in.MessageType, kept, after)
		}
	}
}

// refereeEnvelope is REF01's envelope of a message about a match.
func refereeEnvelope(m *Manager, messageType, matchID string) protocol.Envelope {
	env := protocol.NewEnvelope(messageType, "referee:REF01", "conv-borrow-"+messageType)
	env.AuthToken, env.LeagueID, env.MatchID = "tok-REF01", m.league.ID, matchID
	if matchID != "" {
		env.RoundID = 1
	}
	return env
}

// inboundOf is msg as the server hands it to its handler.
func inboundOf(t *testing.T, messageType string, msg protocol.Message) protocol.Inbound {
	t.Helper()
	body, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	return protocol.Inbound{MessageType: messageType, Body: body, Protocol: protocol.Version, ConversationID: msg.Header().ConversationID}
}

// keptOf is what the manager holds of the matches: the feed's events and
// the matches' records, as text.
func keptOf(t *testing.T, m *Manager, matches ...string) string {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	events, err := json.Marshal(m.feed.events)
	if err != nil {
		t.Fatal(err)
	}
	kept := string(events)
	for _, id := range matches {
		rec, _ := m.league.Match(id)
		kept += fmt.Sprintf("\n%+v %s %s", rec.Pairing, rec.Referee, rec.Step)
		if rec.Result != nil {
			kept += fmt.Sprintf(" %+v", *rec.Result)
		}
	}
	return kept
}
