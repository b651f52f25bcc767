package leaguetest

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Announcer is a test-only league manager of another implementation's
// style: it issues no manager_key, never sends start_match, and starts
// each match only by its round announcement (notify_round), as league.v2
// has it. It takes results with report_match_result and answers
// league_query GET_PLAYERS; anything else is -32601.
type Announcer struct {
	*Peer
	t testing.TB

	mu       sync.Mutex
	referees map[string]string // id -> endpoint
	players  []announcedPlayer
	results  map[string][]map[string]any // match id -> every report of it
	reported chan struct{}
}

type announcedPlayer struct{ id, endpoint string }

// StartAnnouncer runs an announcing manager on a free port.
func StartAnnouncer(t testing.TB) *Announcer {
	a := &Announcer{t: t, referees: map[string]string{}, results: map[string][]map[string]any{}, reported: make(chan struct{}, 1)}
	a.Peer = NewPeer(t, a.answer)
	return a
}

func (a *Announcer) answer(req PeerRequest) (int, []byte) {
	mt, _ := req.Params["message_type"].(string)
	a.mu.Lock()
	defer a.mu.Unlock()
	reply := func(messageType string, extra map[string]any) (int, []byte) {
		msg := With(Envelope(messageType, "league_manager"), extra)
		msg["conversation_id"] = req.Params["conversation_id"]
		return http.StatusOK, ResultReply(req.ID, msg)
	}
	switch mt {
	case "REFEREE_REGISTER_REQUEST":
		id := fmt.Sprintf("REF%02d", len(a.referees)+1)
		a.referees[id] = metaEndpoint(req.Params, "referee_meta")
		return reply("REFEREE_REGISTER_RESPONSE", map[string]any{"status": "ACCEPTED", "referee_id": id,
			"auth_token": "tok-" + id, "league_id": "league_2025_even_odd"})
	case "LEAGUE_REGISTER_REQUEST":
		id := fmt.Sprintf("P%02d", len(a.players)+1)
		a.players = append(a.players, announcedPlayer{id: id, endpoint: metaEndpoint(req.Params, "player_meta")})
		return reply("LEAGUE_REGISTER_RESPONSE", map[string]any{"status": "ACCEPTED", "player_id": id,
			"auth_token": "tok-" + id, "league_id": "league_2025_even_odd"})
	case "MATCH_RESULT_REPORT":
		match, _ := req.Params["match_id"].(string)
		a.results[match] = append(a.results[match], req.Params)
		select {
		case a.reported <- struct{}{}:
		default:
		}
		return reply("MATCH_RESULT_ACK", map[string]any{"status": "RECEIVED"})
	case "LEAGUE_QUERY":
		var list []map[string]any
		for _, p := range a.players {
			list = append(list, map[string]any{"player_id": p.id, "contact_endpoint": p.endpoint})
		}
		return reply("LEAGUE_QUERY_RESPONSE", map[string]any{"query_type": req.Params["query_type"], "success": true,
			"data": map[string]any{"players": list}})
	}
	return http.StatusOK, ErrorReply(req.ID, -32601, "Method not found: "+req.Method)
}

func metaEndpoint(params map[string]any, key string) string {
	meta, _ := params[key].(map[string]any)
	endpoint, _ := meta["contact_endpoint"].(string)
	return endpoint
}

// AnnouncedMatch is one match of a round as the announcer gives it.
type AnnouncedMatch struct {
	ID, PlayerA, PlayerB string
	// ByEndpoint names the referee by its endpoint only; NoEndpoints
	// leaves the players' endpoints out, for the referee to ask for them.
	ByEndpoint, NoEndpoints bool
}

// Announce sends notify_round for round to every player and referee,
// times times (a manager may announce a round again), each match assigned
// to the referee with refereeID.
func (a *Announcer) Announce(round int, refereeID string, times int, matches ...AnnouncedMatch) {
	a.t.Helper()
	a.mu.Lock()
	endpoints := map[string]string{}
	for _, p := range a.players {
		endpoints[p.id] = p.endpoint
	}
	refEndpoint := a.referees[refereeID]
	var targets []string
	for _, e := range a.referees {
		targets = append(targets, e)
	}
	for _, p := range a.players {
		targets = append(targets, p.endpoint)
	}
	a.mu.Unlock()
	var list []map[string]any
	for _, m := range matches {
		entry := map[string]any{"match_id": m.ID, "game_type": "even_odd", "player_A_id": m.PlayerA, "player_B_id": m.PlayerB,
			"referee_endpoint": refEndpoint}
		if !m.ByEndpoint {
			entry["referee_id"] = refereeID
		}
		if !m.NoEndpoints {
			entry["player_A_endpoint"], entry["player_B_endpoint"] = endpoints[m.PlayerA], endpoints[m.PlayerB]
		}
		list = append(list, entry)
	}
	msg := With(Envelope("ROUND_ANNOUNCEMENT", "league_manager"), map[string]any{"league_id": "league_2025_even_odd",
		"round_id": round, "matches": list})
	for range times {
		for _, target := range targets {
			if reply := Call(a.t, target, "notify_round", msg); reply.Error != nil {
				a.t.Errorf("notify_round to %s: %+v", target, reply.Error)
			}
		}
	}
}

// AwaitResults waits until every match has at least one report, or
// timeout, and returns every report by match.
func (a *Announcer) AwaitResults(timeout time.Duration, matches ...string) map[string][]map[string]any {
	a.t.Helper()
	deadline := time.After(timeout)
	for {
		a.mu.Lock()
		done := true
		for _, m := range matches {
			done = done && len(a.results[m]) > 0
		}
		out := map[string][]map[string]any{}
		for k, v := range a.results {
			out[k] = v
		}
		a.mu.Unlock()
		if done {
			return out
		}
		select {
		case <-a.reported:
		case <-deadline:
			a.t.Fatalf("results of %v not all reported within %s: %v", matches, timeout, out)
		}
	}
}
