package manager_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// roundMail is what the players of a league received in its first round:
// the number of matches each round announcement listed, and the number of
// rows each standings update carried.
type roundMail struct {
	mu            sync.Mutex
	announcements []int
	standings     []int
	extraFields   []string // fields of an announced match beyond those league.v2 requires

	standingsIn chan struct{} // a value per standings update
}

// recordingPlayers is one fake endpoint for every player that records the
// round's broadcasts and acknowledges everything.
func recordingPlayers(t *testing.T, mail *roundMail) *leaguetest.Peer {
	return leaguetest.NewPeer(t, func(req leaguetest.PeerRequest) (int, []byte) {
		switch req.Method {
		case "initialize", "tools/list", "tools/call":
			return http.StatusOK, leaguetest.ErrorReply(req.ID, -32601, "Method not found")
		case "notify_round":
			matches, _ := req.Params["matches"].([]any)
			mail.mu.Lock()
			mail.announcements = append(mail.announcements, len(matches))
			for _, m := range matches {
				mail.extraFields = append(mail.extraFields, beyondRequired(m)...)
			}
			mail.mu.Unlock()
		case "update_standings":
			rows, _ := req.Params["standings"].([]any)
			mail.mu.Lock()
			mail.standings = append(mail.standings, len(rows))
			mail.mu.Unlock()
			mail.standingsIn <- struct{}{}
		}
		return http.StatusOK, leaguetest.ResultReply(req.ID, map[string]any{"status": "ok"})
	})
}

// beyondRequired lists the fields of an announced match that league.v2
// does not require (protocol.md 3.5).
func beyondRequired(match any) []string {
	fields, _ := match.(map[string]any)
	var extra []string
	for k := range fields {
		switch k {
		case "match_id", "game_type", "player_A_id", "player_B_id", "referee_endpoint":
		default:
			extra = append(extra, k)
		}
	}
	return extra
}

// playFirstRound runs a real manager with n fake players and a fake referee
// that reports every match of the first round as a draw, and returns what
// the players received up to the standings after that round.
func playFirstRound(t *testing.T, n int) *roundMail {
	t.Helper()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "5")
	starts := make(chan string, n)
	ref := register(t, mgr.Endpoint, "referee", ackingPeer(t, starts, nil).Endpoint)
	mail := &roundMail{standingsIn: make(chan struct{}, n)}
	players := recordingPlayers(t, mail)
	for i := range n {
		register(t, mgr.Endpoint, "player", fmt.Sprintf("%s?player=%d", players.Endpoint, i))
	}
	if err := control.New(mgr.Endpoint, adminToken).Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(60 * time.Second)
	for range n / 2 {
		select {
		case id := <-starts:
			reportDraw(t, mgr.Endpoint, ref, id)
		case <-timeout:
			t.Fatal("the first round's matches did not all reach the referee")
		}
	}
	for i := range n {
		select {
		case <-mail.standingsIn:
		case <-timeout:
			t.Fatalf("%d of %d players got the standings after the first round", i, n)
		}
	}
	if err := mgr.Stop(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	mail.mu.Lock()
	defer mail.mu.Unlock()
	return mail
}

// TestBroadcastsStayPerPlayer: in a league of up to 64 players each player
// gets the whole round announcement and the whole standings; in a larger
// one its own match and the leaders plus its own row, so that what a round
// sends grows with the players, not with their square. A player's
// announced matches carry only the fields league.v2 requires.
func TestBroadcastsStayPerPlayer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		players                  int
		matchesEach              int
		leaderRows, followerRows int
	}{
		{players: 16, matchesEach: 8, leaderRows: 16, followerRows: 16},
		{players: 100, matchesEach: 1, leaderRows: 10, followerRows: 11},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d players", tt.players), func(t *testing.T) {
			t.Parallel()
			mail := playFirstRound(t, tt.players)
			if len(mail.announcements) < tt.players {
				t.Errorf("%d round announcements reached the players, want at least %d", len(mail.announcements), tt.players)
			}
			for _, n := range mail.announcements {
				if n != tt.matchesEach {
					t.Errorf("a round announcement listed %d matches, want %d", n, tt.matchesEach)
					break
				}
			}
			if len(mail.extraFields) > 0 {
				t.Errorf("players' round announcements carried %v beyond the required fields", mail.extraFields[0])
			}
			leaders, followers := 0, 0
			for _, n := range mail.standings {
				switch n {
				case tt.leaderRows:
					leaders++
				case tt.followerRows:
					followers++
				default:
					t.Fatalf("a standings update carried %d rows, want %d or %d", n, tt.leaderRows, tt.followerRows)
				}
			}
			if tt.leaderRows != tt.followerRows && (leaders != 10 || followers != tt.players-10) {
				t.Errorf("%d updates with the leaders only and %d with an own row too, want 10 and %d", leaders, followers, tt.players-10)
			}
		})
	}
}
