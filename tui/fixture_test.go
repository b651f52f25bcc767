package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

func TestMain(m *testing.M) {
	// Screens in tests are plain text whatever terminal runs them.
	lipgloss.SetColorProfile(termenv.Ascii)
	code := m.Run()
	removeBinary()
	os.Exit(code)
}

// t0 is when synthetic leagues begin; every event is 100 ms after the last.
var t0 = time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC)

// league builds a synthetic event feed, the way a manager would journal it.
type league struct {
	t      testing.TB
	seq    int64
	at     time.Time
	events []engine.Event
	rounds []engine.Round
}

func newLeague(t testing.TB) *league { return &league{t: t, at: t0} }

func (l *league) add(ev engine.Event) {
	l.seq++
	l.at = l.at.Add(100 * time.Millisecond)
	ev.Seq, ev.Time = l.seq, l.at
	l.events = append(l.events, ev)
}

// register adds referees REF01.. and players P01.., as launch order gives them.
func (l *league) register(players, referees int) *league {
	for i := range referees {
		id := fmt.Sprintf("REF%02d", i+1)
		l.add(engine.Event{Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: id, Role: engine.RoleReferee,
			DisplayName: id, Endpoint: fmt.Sprintf("http://127.0.0.1:%d/mcp", 8001+i), MaxConcurrentMatches: 2}})
	}
	for i := range players {
		id := fmt.Sprintf("P%02d", i+1)
		l.add(engine.Event{Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: id, Role: engine.RolePlayer,
			DisplayName: id, Endpoint: fmt.Sprintf("http://127.0.0.1:%d/mcp", 8101+i)}})
	}
	return l
}

// start schedules a round robin over the registered players.
func (l *league) start(seed int64) *league {
	var ids []string
	for _, ev := range l.events {
		if ev.Kind == engine.EventAgentRegistered && ev.Agent.Role == engine.RolePlayer {
			ids = append(ids, ev.Agent.ID)
		}
	}
	rounds, err := engine.RoundRobin(ids)
	if err != nil {
		l.t.Fatal(err)
	}
	l.rounds = rounds
	l.add(engine.Event{Kind: engine.EventLeagueStarted, Start: &engine.StartInfo{Seed: seed, GameType: "even_odd",
		Players: ids, LegacyRounds: rounds}})
	return l
}

func (l *league) pairing(matchID string) engine.Pairing {
	for _, r := range l.rounds {
		for _, p := range r.Matches {
			if p.MatchID == matchID {
				return p
			}
		}
	}
	l.t.Fatalf("no match %s", matchID)
	return engine.Pairing{}
}

// begin assigns a match and reports steps up to step.
func (l *league) begin(matchID, referee string, steps ...string) *league {
	p := l.pairing(matchID)
	l.add(engine.Event{Kind: engine.EventMatchAssigned, Round: p.Round, MatchID: matchID, Referee: referee})
	for _, s := range steps {
		l.add(engine.Event{Kind: engine.EventMatchStep, Round: p.Round, MatchID: matchID, Referee: referee, Step: s})
	}
	return l
}

// step reports one more step of a running match.
func (l *league) step(matchID, referee, step string) *league {
	p := l.pairing(matchID)
	l.add(engine.Event{Kind: engine.EventMatchStep, Round: p.Round, MatchID: matchID, Referee: referee, Step: step})
	return l
}

// finish reports a result: winner "" is a draw; tl lists technical-loss offenders.
func (l *league) finish(matchID, referee, winner string, tl ...string) *league {
	p := l.pairing(matchID)
	r := engine.Result{MatchID: matchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB, Status: engine.StatusDraw}
	switch {
	case len(tl) > 0:
		r.Status, r.Winner, r.Offenders = engine.StatusTechnicalLoss, winner, tl
	case winner != "":
		r.Status, r.Winner = engine.StatusWin, winner
	}
	l.add(engine.Event{Kind: engine.EventMatchResult, Round: p.Round, MatchID: matchID, Referee: referee, Result: &r})
	return l
}

// play plays a match whole: assigned, stepped, finished.
func (l *league) play(matchID, referee, winner string, tl ...string) *league {
	l.begin(matchID, referee, "invited", "joined", "choosing", "drawn 4")
	return l.finish(matchID, referee, winner, tl...)
}

// playRound plays every match of a round; the player A wins odd matches,
// even ones are draws.
func (l *league) playRound(n int) *league {
	l.add(engine.Event{Kind: engine.EventRoundAnnounced, Round: n})
	for i, p := range l.rounds[n-1].Matches {
		winner := ""
		if i%2 == 0 {
			winner = p.PlayerA
		}
		l.play(p.MatchID, fmt.Sprintf("REF%02d", i%2+1), winner)
	}
	l.add(engine.Event{Kind: engine.EventRoundCompleted, Round: n})
	return l
}

func (l *league) kind(kind engine.EventKind) *league {
	l.add(engine.Event{Kind: kind, Detail: "by the admin"})
	return l
}

// page is the events as one feed page.
func (l *league) page() feedMsg {
	return feedMsg{Page: protocol.FeedPage{Events: l.events, LastSeq: l.seq}}
}

// Scenarios of the golden screens: a league of 6 players and 2 referees.
func waitingLeague(t testing.TB) *league { return newLeague(t).register(6, 2) }

func runningLeague(t testing.TB) *league {
	l := newLeague(t).register(6, 2).start(42).playRound(1)
	l.add(engine.Event{Kind: engine.EventRoundAnnounced, Round: 2})
	m := l.rounds[1].Matches
	l.play(m[0].MatchID, "REF01", m[0].PlayerB)
	l.begin(m[1].MatchID, "REF02", "invited", "joined", "choosing")
	l.begin(m[2].MatchID, "REF01", "invited")
	return l
}

func pausedLeague(t testing.TB) *league {
	l := pausingLeague(t)
	m := l.rounds[1].Matches
	l.step(m[0].MatchID, "REF01", "choosing")
	return l.finish(m[0].MatchID, "REF01", m[0].PlayerA)
}

// pausingLeague is paused while a match still runs.
func pausingLeague(t testing.TB) *league {
	l := newLeague(t).register(6, 2).start(42).playRound(1)
	l.add(engine.Event{Kind: engine.EventRoundAnnounced, Round: 2})
	m := l.rounds[1].Matches
	l.begin(m[0].MatchID, "REF01", "invited", "joined")
	l.kind(engine.EventPaused)
	return l
}

func completedLeague(t testing.TB) *league {
	l := newLeague(t).register(6, 2).start(42)
	for n := 1; n <= len(l.rounds); n++ {
		if n == 3 {
			l.add(engine.Event{Kind: engine.EventRoundAnnounced, Round: n})
			m := l.rounds[n-1].Matches
			l.play(m[0].MatchID, "REF01", m[0].PlayerA, m[0].PlayerB) // a technical loss
			l.begin(m[1].MatchID, "REF02")
			l.begin(m[1].MatchID, "REF01", "invited", "joined", "choosing", "drawn 3") // reassigned
			l.finish(m[1].MatchID, "REF01", m[1].PlayerB)
			l.play(m[2].MatchID, "REF02", "")
			l.add(engine.Event{Kind: engine.EventRoundCompleted, Round: n})
			continue
		}
		l.playRound(n)
	}
	return l.kind(engine.EventLeagueCompleted)
}

// rosterNames are the display names a roster gives the players P01..P06;
// the last is longer than any column gives it, to be shortened.
var rosterNames = []string{"alice", "bob", "carol", "dave", "erin", "frederick-the-long-named"}

// named gives the registered players the roster's names.
func (l *league) named() *league {
	n := 0
	for i := range l.events {
		if a := l.events[i].Agent; a != nil && a.Role == engine.RolePlayer && n < len(rosterNames) {
			a.DisplayName = rosterNames[n]
			n++
		}
	}
	return l
}

// namedLeague is the completed league with a roster's names.
func namedLeague(t testing.TB) *league { return completedLeague(t).named() }

// namedRunningLeague is the running league with a roster's names.
func namedRunningLeague(t testing.TB) *league { return runningLeague(t).named() }

// twoGamesLeague is a league of 4 named players with two games a pair
// (--games-per-pair 2), halfway: its first three rounds played, its
// fourth running.
func twoGamesLeague(t testing.TB) *league {
	l := newLeague(t).register(4, 2).named()
	ids := []string{"P01", "P02", "P03", "P04"}
	spec := engine.FormatSpec{Format: engine.FormatRoundRobin, GamesPerPair: 2}
	rounds, planned, err := engine.Schedule(spec, ids, 42)
	if err != nil {
		t.Fatal(err)
	}
	l.rounds = rounds
	l.add(engine.Event{Kind: engine.EventLeagueStarted, Start: &engine.StartInfo{Seed: 42, GameType: "even_odd",
		Players: ids, LegacyRounds: rounds, Format: &spec, RoundsPlanned: planned}})
	for n := 1; n <= 3; n++ {
		l.playRound(n)
	}
	l.add(engine.Event{Kind: engine.EventRoundAnnounced, Round: 4})
	m := l.rounds[3].Matches
	l.play(m[0].MatchID, "REF01", m[0].PlayerB)
	l.begin(m[1].MatchID, "REF02", "invited", "joined", "choosing")
	return l
}

// fakeManager is a manager's HTTP surface for unit tests: it records admin
// calls and answers /events and /standings at once.
type fakeManager struct {
	srv    *httptest.Server
	mu     sync.Mutex
	calls  []string
	refuse string // when set, admin calls fail with this message
	// matchFiles are the match files served on GET /matches/{id}.
	matchFiles map[string]string
}

func newFakeManager(t testing.TB) *fakeManager {
	f := &fakeManager{matchFiles: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /matches/{id}", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		body, ok := f.matchFiles[r.PathValue("id")]
		f.mu.Unlock()
		if !ok {
			http.Error(w, "no match file yet", http.StatusNotFound)
			return
		}
		_, _ = w.Write([]byte(body))
	})
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     int64  `json:"id"`
			Method string `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		f.mu.Lock()
		f.calls = append(f.calls, req.Method)
		refuse := f.refuse
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if refuse != "" {
			_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID,
				"error": map[string]any{"code": -32600, "message": refuse}})
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID,
			"result": map[string]any{"message_type": "ACK", "status": "ok"}})
	})
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(protocol.FeedPage{LastSeq: 0, State: engine.LeagueWaiting})
	})
	mux.HandleFunc("GET /standings", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(protocol.StandingsFile{LeagueID: "league_test", Seed: 42})
	})
	f.srv = httptest.NewServer(mux) // listens on 127.0.0.1
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeManager) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// newTestModel is a model fed by hand, with a fixed clock and no colour.
func newTestModel(t testing.TB, c *control.Client, now time.Time) *Model {
	m := New(context.Background(), Options{Control: c, Now: func() time.Time { return now }, Location: time.UTC,
		NoColor: true, HealthEvery: -1, FlashFor: time.Millisecond})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return m
}

// runCmd runs a command and the commands it batches, each with a deadline,
// and returns the messages they produced (ticks included).
func runCmd(t testing.TB, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("command did not return within 5 s")
	}
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, runCmd(t, c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

// withoutFlashExpiry drops the status line's expiry ticks from messages.
func withoutFlashExpiry(msgs []tea.Msg) []tea.Msg {
	var out []tea.Msg
	for _, msg := range msgs {
		if _, ok := msg.(flashExpiredMsg); !ok {
			out = append(out, msg)
		}
	}
	return out
}
