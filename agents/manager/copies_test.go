package manager

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// sampleRound is a round of a league of n players (the last with the bye
// when n is odd) and 8 referees, with display names encoding/json escapes.
func sampleRound(n int) (players, referees []engine.AgentInfo, matches []protocol.AnnouncedMatch, rows []protocol.StandingRow) {
	for i := range n {
		players = append(players, engine.AgentInfo{ID: fmt.Sprintf("P%02d", i+1), Role: "player",
			Endpoint: fmt.Sprintf("http://127.0.0.1:%d/mcp", 20000+i)})
		rows = append(rows, protocol.StandingRow{Rank: i + 1, PlayerID: players[i].ID, DisplayName: fmt.Sprintf("<b>P & %d</b> é", i),
			Played: 3, Wins: 2, Losses: 1, Points: 6 - i%5})
	}
	rows[n-1].Status = "SUSPENDED"
	for i := range 8 {
		referees = append(referees, engine.AgentInfo{ID: fmt.Sprintf("REF%02d", i+1), Role: "referee",
			Endpoint: fmt.Sprintf("http://127.0.0.1:%d/mcp", 30000+i)})
	}
	matches = []protocol.AnnouncedMatch{} // as announceRound makes it, never nil
	for i := 0; i+1 < n; i += 2 {
		ref := referees[(i/2)%len(referees)]
		matches = append(matches, protocol.AnnouncedMatch{MatchID: fmt.Sprintf("R1M%d", i/2+1), GameType: "even_odd",
			PlayerAID: players[i].ID, PlayerBID: players[i+1].ID, RefereeEndpoint: ref.Endpoint, RefereeID: ref.ID,
			PlayerAEndpoint: players[i].Endpoint, PlayerBEndpoint: players[i+1].Endpoint})
	}
	return players, referees, matches, rows
}

// ownMatches and ownRows are what each recipient's message carried when
// every copy was built and encoded on its own. A player's matches carry
// only the fields league.v2 requires.
func ownMatches(matches []protocol.AnnouncedMatch, players int, to engine.AgentInfo) []protocol.AnnouncedMatch {
	own := []protocol.AnnouncedMatch{}
	for _, am := range matches {
		if players <= fullListPlayers || slices.Contains([]string{am.PlayerAID, am.PlayerBID, am.RefereeID}, to.ID) {
			own = append(own, am)
		}
	}
	if to.Role == engine.RolePlayer {
		for i, am := range own {
			own[i] = protocol.AnnouncedMatch{MatchID: am.MatchID, GameType: am.GameType,
				PlayerAID: am.PlayerAID, PlayerBID: am.PlayerBID, RefereeEndpoint: am.RefereeEndpoint}
		}
	}
	return own
}

func ownRows(rows []protocol.StandingRow, id string) []protocol.StandingRow {
	if len(rows) <= fullListPlayers {
		return rows
	}
	leaders := rows[:leadersShown]
	for i, r := range rows {
		if r.PlayerID == id && i >= leadersShown {
			return append(slices.Clone(leaders), r)
		}
	}
	return leaders
}

// sameOnTheWire checks that sent goes out, in every form a peer may be
// sent it, as the very bytes own, the recipient's own message, would.
func sameOnTheWire(t *testing.T, to string, sent, own protocol.Message) {
	t.Helper()
	for _, form := range protocol.Forms(own.Header().MessageType) {
		got, err := protocol.EncodeRequest(form.Method, form.Params(sent), 42)
		if err != nil {
			t.Fatal(err)
		}
		want, err := protocol.EncodeRequest(form.Method, form.Params(own), 42)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s to %s by %s:\n%s\nwhere its own message is\n%s", own.Header().MessageType, to, form.Method, got, want)
		}
	}
	if sent.Header().MessageType != own.Header().MessageType {
		t.Errorf("the copy to %s says it is a %s", to, sent.Header().MessageType)
	}
}

// TestBroadcastCopiesAreEachRecipientsMessage: a round's broadcasts,
// encoded once and spliced for each recipient, are on the wire exactly
// what encoding each recipient's own message gave, in a league that sends
// whole lists and in one that sends each player its part.
func TestBroadcastCopiesAreEachRecipientsMessage(t *testing.T) {
	for _, n := range []int{1, 16, 63, 64, 65, 101} {
		t.Run(fmt.Sprintf("%d players", n), func(t *testing.T) {
			players, referees, matches, rows := sampleRound(n)
			env := protocol.NewEnvelope(protocol.TypeRoundAnnouncement, protocol.SenderManager, "conv-ROUND_ANNOUNCEMENT-r1")
			env.LeagueID, env.RoundID = "league_test", 1
			copies, err := newAnnouncement(env, matches)
			if err != nil {
				t.Fatal(err)
			}
			copyFor := announcementsFor(matches, n, copies)
			for _, a := range append(slices.Clone(players), referees...) {
				sameOnTheWire(t, a.ID, copyFor(a), &protocol.RoundAnnouncement{Envelope: env, Matches: ownMatches(matches, n, a)})
			}

			env.MessageType = protocol.TypeStandingsUpdate
			standings, err := newListBroadcast(&protocol.StandingsUpdate{Envelope: env, Standings: []protocol.StandingRow{}}, rows)
			if err != nil {
				t.Fatal(err)
			}
			rowsFor := standingsFor(rows, standings)
			for _, a := range append(slices.Clone(players), referees...) {
				sameOnTheWire(t, a.ID, rowsFor(a), &protocol.StandingsUpdate{Envelope: env, Standings: ownRows(rows, a.ID)})
			}

			env.MessageType = protocol.TypeLeagueCompleted
			final := &protocol.LeagueCompleted{Envelope: env, TotalRounds: 3, TotalMatches: 7,
				Champion: protocol.Champion{PlayerID: rows[0].PlayerID, DisplayName: rows[0].DisplayName, Points: rows[0].Points}}
			withEmpty := *final
			withEmpty.FinalStandings = []protocol.StandingRow{}
			completed, err := newListBroadcast(&withEmpty, rows)
			if err != nil {
				t.Fatal(err)
			}
			finalFor := standingsFor(rows, completed)
			for _, a := range append(slices.Clone(players), referees...) {
				own := *final
				own.FinalStandings = ownRows(rows, a.ID)
				sameOnTheWire(t, a.ID, finalFor(a), &own)
			}
		})
	}
	next := 2
	env := protocol.NewEnvelope(protocol.TypeRoundCompleted, protocol.SenderManager, "conv-ROUND_COMPLETED-r1")
	done := &protocol.RoundCompleted{Envelope: env, MatchesCompleted: 32, MatchesPlayed: 32, NextRoundID: &next,
		Summary: protocol.RoundSummary{TotalMatches: 32, Wins: 20, Draws: 12}}
	once, err := protocol.Encode(done)
	if err != nil {
		t.Fatal(err)
	}
	sameOnTheWire(t, "every player", once, done)
}

// BenchmarkRoundBroadcasts is what a round's ROUND_ANNOUNCEMENT and
// LEAGUE_STANDINGS_UPDATE cost the manager to frame for 64 players: each
// copy built and encoded on its own (as before), against the message
// encoded once and each copy framed from its bytes.
func BenchmarkRoundBroadcasts(b *testing.B) {
	players, _, matches, rows := sampleRound(64)
	env := protocol.NewEnvelope(protocol.TypeStandingsUpdate, protocol.SenderManager, "conv-r1")
	frame := func(msg protocol.Message) {
		if _, err := protocol.EncodeRequest("update_standings", msg, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("each-copy-encoded", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, a := range players {
				frame(&protocol.RoundAnnouncement{Envelope: env, Matches: ownMatches(matches, len(players), a)})
				frame(&protocol.StandingsUpdate{Envelope: env, Standings: ownRows(rows, a.ID)})
			}
		}
	})
	b.Run("encoded-once", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			announced, _ := newAnnouncement(env, matches)
			standings, _ := newListBroadcast(&protocol.StandingsUpdate{Envelope: env, Standings: []protocol.StandingRow{}}, rows)
			announcementFor, rowsFor := announcementsFor(matches, len(players), announced), standingsFor(rows, standings)
			for _, a := range players {
				frame(announcementFor(a))
				frame(rowsFor(a))
			}
		}
	})
}

// TestBroadcastsFitTheWriteBuffer holds broadcastWriteBuffer to what it
// says: the largest copies a round sends in a league of fullListPlayers
// (the whole standings, the referees' announcement with every field),
// with names that escape, framed as the requests that carry them, leave
// room for the HTTP headers and an auth token, so each leaves in one write.
func TestBroadcastsFitTheWriteBuffer(t *testing.T) {
	_, _, matches, rows := sampleRound(fullListPlayers)
	env := protocol.NewEnvelope(protocol.TypeStandingsUpdate, protocol.SenderManager, "conv-STANDINGS_UPDATE-r10")
	standings, err := newListBroadcast(&protocol.StandingsUpdate{Envelope: env, Standings: []protocol.StandingRow{}}, rows)
	if err != nil {
		t.Fatal(err)
	}
	env.MessageType = protocol.TypeRoundAnnouncement
	announced, err := newAnnouncement(env, matches)
	if err != nil {
		t.Fatal(err)
	}
	const headersAndToken = 512 // request line, Host, Content-Length, Content-Type, Accept; auth_token
	for name, msg := range map[string]*protocol.Encoded{"standings": standings.whole,
		"referees' announcement": announced.forReferees.whole, "players' announcement": announced.forPlayers.whole} {
		request, err := protocol.EncodeRequest("notify_round", msg, 1<<40)
		if err != nil {
			t.Fatal(err)
		}
		if size := len(request) + headersAndToken; size > broadcastWriteBuffer {
			t.Errorf("the %s of %d players is %d bytes with its headers, over the %d-byte write buffer",
				name, fullListPlayers, size, broadcastWriteBuffer)
		}
		t.Logf("%s: %d bytes framed", name, len(request))
	}
}
