package roster_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// volo10Name is the display name volo10's sample registration sends.
const volo10Name = "Agent Alpha"

// volo10Registration is another implementation's player registration as
// it sends it (testdata/volo10), with no join code, its contact endpoint
// replaced by endpoint.
func volo10Registration(t *testing.T, endpoint string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "volo10", "player_register_request.json"))
	if err != nil {
		t.Fatal(err)
	}
	const sample = "http://localhost:8101/mcp"
	if !bytes.Contains(raw, []byte(sample)) {
		t.Fatalf("the sample registration lacks its endpoint %s", sample)
	}
	return bytes.Replace(raw, []byte(sample), []byte(endpoint), 1)
}

// volo10Peer answers the league's calls as a plain league.v2 player: it
// accepts each invitation, chooses even and acknowledges the rest.
func volo10Peer(t *testing.T) *leaguetest.Peer {
	return leaguetest.NewPeer(t, func(req leaguetest.PeerRequest) (int, []byte) {
		answer := map[string]any{"status": "ok"}
		match, _ := req.Params["match_id"].(string)
		player, _ := req.Params["player_id"].(string)
		switch req.Params["message_type"] {
		case "GAME_INVITATION":
			answer = leaguetest.With(leaguetest.Envelope("GAME_JOIN_ACK", "player:"+player),
				map[string]any{"match_id": match, "player_id": player, "accept": true})
		case "CHOOSE_PARITY_CALL":
			answer = leaguetest.With(leaguetest.Envelope("CHOOSE_PARITY_RESPONSE", "player:"+player),
				map[string]any{"match_id": match, "player_id": player, "parity_choice": "even"})
		}
		return http.StatusOK, leaguetest.ResultReply(req.ID, answer)
	})
}

// TestUnmodifiedAgentTakesCodelessEntry: an external entry with
// "join_code": false is taken by another implementation's registration,
// unmodified (it cannot send a code), under the id the roster keeps for
// it, and the league plays it to the end; the names that look like it
// stay refused.
func TestUnmodifiedAgentTakesCodelessEntry(t *testing.T) {
	dataDir := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "random"},
		map[string]any{"name": volo10Name, "external": true, "join_code": false})
	run := startLeaguetui(t, dataDir, nil, append([]string{"--no-ui", "--data", dataDir, "--seed", "5", "--roster", roster}, fast...)...)
	url := run.managerURL(t)
	run.AwaitLine(t, `no join code for Agent Alpha ("join_code": false)`, 10*time.Second)
	wantRefused(t, registerAs(t, url, "Agent AIpha", nil), "a look-alike of the codeless name", "looks like")

	reply := leaguetest.Post(t, url, volo10Registration(t, volo10Peer(t).Endpoint))
	if reply.String("status") != "ACCEPTED" || reply.String("player_id") != "P02" {
		t.Fatalf("volo10's registration: %s, want ACCEPTED as P02", reply.Body)
	}
	run.AwaitLine(t, "everyone has joined", 30*time.Second)
	run.wait(t)
	row, ok := rowsByName(readStandings(t, dataDir))[volo10Name]
	if !ok || row.PlayerID != "P02" || row.Played != 1 || row.TechnicalLosses != 0 {
		t.Errorf("%s in the standings: %+v, want P02 with a match played and no technical loss", volo10Name, row)
	}
}

// TestUnmodifiedAgentRefusedOnCodedEntry: the same registration is
// refused on an external entry that keeps its join code (the default).
func TestUnmodifiedAgentRefusedOnCodedEntry(t *testing.T) {
	dataDir := t.TempDir()
	roster := writeRoster(t, map[string]any{"name": "bob", "strategy": "random"},
		map[string]any{"name": volo10Name, "external": true})
	run := startLeaguetui(t, dataDir, nil, append([]string{"--no-ui", "--data", dataDir, "--seed", "5", "--roster", roster}, fast...)...)
	url := run.managerURL(t)
	reply := leaguetest.Post(t, url, volo10Registration(t, volo10Peer(t).Endpoint))
	wantRefused(t, reply, "volo10's registration on a coded entry", "register with the join code")
}
