package tui

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// benchPlayers is the league of the key-latency benchmark: 200 players,
// 19,900 matches.
const benchPlayers = 200

// BenchmarkKeyLatencyUnderFeed runs the console's Bubble Tea program (its
// event loop and its renderer, writing to a terminal that discards
// what it gets) while a 200-player league's event feed arrives, and
// measures how long a key press waits (the renderer runs at rendererFPS):
//
//	key-update-p50-ms, -p99-ms  from sending the key to the end of its
//	                            Update (the new screen is drawn in it)
//	key-screen-p50-ms, -p99-ms  to the renderer's next write of the
//	                            screen, on its next frame
//	renders/op                  screens drawn, keys' and frames' together
//
// Two feeds: "flood" sends the whole league in pages of 2,000 events (the
// manager's largest page) with no pause, faster than any league plays,
// while a key is pressed every 2 ms; "1000-matches-per-s" sends the first
// 2,000 matches at the target rate, a page every 10 ms as a long
// poll would bring them, while a key is pressed every 20 ms.
//
//	go test -run '^$' -bench KeyLatency -benchtime 20x ./tui/
func BenchmarkKeyLatencyUnderFeed(b *testing.B) {
	events := leagueEvents(benchPlayers)
	b.Run("flood", func(b *testing.B) {
		benchKeys(b, feedPlan{pages: pagesOf(events, 2000), keyEvery: 2 * time.Millisecond})
	})
	b.Run("1000-matches-per-s", func(b *testing.B) {
		// About 5 events a match: 10 matches' worth every 10 ms.
		first := events[:min(len(events), 2000*5+benchPlayers+2)]
		benchKeys(b, feedPlan{pages: pagesOf(first, 50), pageEvery: 10 * time.Millisecond, keyEvery: 20 * time.Millisecond})
	})
}

// feedPlan is how the feed arrives and how often a key is pressed.
type feedPlan struct {
	pages     []protocol.FeedPage
	pageEvery time.Duration // 0: as fast as the console takes them
	keyEvery  time.Duration
}

func benchKeys(b *testing.B, plan feedPlan) {
	var updates, screens []time.Duration
	renders := 0
	for b.Loop() {
		u, s, r := runFedConsole(b, plan)
		updates, screens, renders = append(updates, u...), append(screens, s...), renders+r
	}
	b.ReportMetric(percentileMs(updates, 50), "key-update-p50-ms")
	b.ReportMetric(percentileMs(updates, 99), "key-update-p99-ms")
	b.ReportMetric(percentileMs(screens, 50), "key-screen-p50-ms")
	b.ReportMetric(percentileMs(screens, 99), "key-screen-p99-ms")
	b.ReportMetric(float64(renders)/float64(b.N), "renders/op")
	b.ReportMetric(float64(len(updates))/float64(b.N), "keys/op")
}

// runFedConsole feeds a fresh console program while pressing keys, and
// returns each key's latency to its Update and to the screen.
func runFedConsole(b *testing.B, plan feedPlan) (updates, screens []time.Duration, renders int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	probe := &keyProbe{Model: New(ctx, Options{HealthEvery: -1, NoColor: true}), handled: make(chan time.Time, 1)}
	out := &frameClock{written: make(chan time.Time, 64)}
	p := tea.NewProgram(probe, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(out),
		tea.WithFPS(rendererFPS), tea.WithoutSignalHandler())
	ran := make(chan error, 1)
	go func() { _, err := p.Run(); ran <- err }()
	p.Send(tea.WindowSizeMsg{Width: 120, Height: 40})

	fed := make(chan struct{})
	go func() {
		defer close(fed)
		for _, page := range plan.pages {
			p.Send(feedMsg{Page: page}) // blocks until the loop takes it
			if plan.pageEvery > 0 {
				time.Sleep(plan.pageEvery) // the pace of the feed, not a synchronisation
			}
		}
	}()
	keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'j'}}, {Type: tea.KeyTab}, {Type: tea.KeyRunes, Runes: []rune{'k'}}}
	for i := 0; ; i++ {
		select {
		case <-fed:
			p.Quit()
			if err := <-ran; err != nil {
				b.Fatal(err)
			}
			return updates, screens, probe.Model.renders
		case <-time.After(plan.keyEvery):
		}
		sent := time.Now()
		p.Send(keys[i%len(keys)])
		done := <-probe.handled
		updates = append(updates, done.Sub(sent))
		drawn, ok := out.nextAfter(done, time.Second)
		if !ok {
			b.Fatalf("no screen written within a second of key %d", i)
		}
		screens = append(screens, drawn.Sub(sent))
	}
}

// keyProbe is the console's model, noting when each key's Update returns.
type keyProbe struct {
	*Model
	handled chan time.Time
}

func (k *keyProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := k.Model.Update(msg)
	if _, ok := msg.(tea.KeyMsg); ok {
		k.handled <- time.Now()
	}
	return k, cmd
}

// frameClock is a terminal that discards what it is sent and notes when.
type frameClock struct{ written chan time.Time }

var _ io.Writer = (*frameClock)(nil)

func (f *frameClock) Write(p []byte) (int, error) {
	select {
	case f.written <- time.Now():
	default: // nobody is waiting for a screen: the oldest notes are enough
	}
	return len(p), nil
}

// nextAfter is the time of the first write at or after t: the first screen
// that can show what happened at t.
func (f *frameClock) nextAfter(t time.Time, limit time.Duration) (time.Time, bool) {
	deadline := time.After(limit)
	for {
		select {
		case at := <-f.written:
			if !at.Before(t) {
				return at, true
			}
		case <-deadline:
			return time.Time{}, false
		}
	}
}

// leagueEvents is the feed of a whole league of n players, as the manager
// serves it: registrations, the schedule, and for every match its
// assignment, three steps and its result.
func leagueEvents(n int) []engine.Event {
	var events []engine.Event
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(ev engine.Event) {
		at = at.Add(time.Millisecond)
		ev.Seq, ev.Time = int64(len(events)+1), at
		events = append(events, ev)
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("P%03d", i+1)
		add(engine.Event{Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: ids[i], Role: engine.RolePlayer,
			DisplayName: ids[i], Endpoint: "http://127.0.0.1:1/" + ids[i]}})
	}
	add(engine.Event{Kind: engine.EventAgentRegistered, Agent: &engine.AgentInfo{ID: "REF01", Role: engine.RoleReferee,
		DisplayName: "REF01", Endpoint: "http://127.0.0.1:1/REF01"}})
	rounds, err := engine.RoundRobin(ids)
	if err != nil {
		panic(err)
	}
	add(engine.Event{Kind: engine.EventLeagueStarted, Start: &engine.StartInfo{Seed: 1, GameType: "even_odd", Players: ids, LegacyRounds: rounds}})
	for _, r := range rounds {
		add(engine.Event{Kind: engine.EventRoundAnnounced, Round: r.Number})
		for i, m := range r.Matches {
			add(engine.Event{Kind: engine.EventMatchAssigned, Round: r.Number, MatchID: m.MatchID, Referee: "REF01"})
			for _, step := range []string{"invited", "joined", "moves collected"} {
				add(engine.Event{Kind: engine.EventMatchStep, Round: r.Number, MatchID: m.MatchID, Referee: "REF01", Step: step})
			}
			res := engine.Result{MatchID: m.MatchID, Round: r.Number, PlayerA: m.PlayerA, PlayerB: m.PlayerB, Status: engine.StatusWin, Winner: m.PlayerA}
			if i%3 == 0 {
				res.Status, res.Winner = engine.StatusDraw, ""
			}
			add(engine.Event{Kind: engine.EventMatchResult, Round: r.Number, MatchID: m.MatchID, Referee: "REF01", Result: &res})
		}
		add(engine.Event{Kind: engine.EventRoundCompleted, Round: r.Number})
	}
	add(engine.Event{Kind: engine.EventLeagueCompleted})
	return events
}

// pagesOf cuts events into feed pages of size events.
func pagesOf(events []engine.Event, size int) []protocol.FeedPage {
	var pages []protocol.FeedPage
	for start := 0; start < len(events); start += size {
		end := min(start+size, len(events))
		pages = append(pages, protocol.FeedPage{Events: events[start:end], LastSeq: events[end-1].Seq, State: engine.LeagueRunning})
	}
	return pages
}

// percentileMs is the nearest-rank p-th percentile of ds, in milliseconds.
func percentileMs(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	sorted := slices.Clone(ds)
	slices.Sort(sorted)
	rank := min(max(int(math.Ceil(p/100*float64(len(sorted)))), 1), len(sorted))
	return float64(sorted[rank-1]) / float64(time.Millisecond)
}
