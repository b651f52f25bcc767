package leaguetest

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/agents/ticket"
)

// MatchTicket is the ticket the manager of the league leagueID in dataDir
// would give referee for player's match: what a test that calls a player
// as that referee sends as auth_token. It reads the manager's secret from
// the data folder, as only the manager does in a league.
func MatchTicket(t testing.TB, dataDir, leagueID, player, match, referee string) string {
	t.Helper()
	return ticket.Mint(ticket.PlayerKey(credentials(t, dataDir, leagueID, "league_manager").AuthToken, leagueID, player),
		leagueID, match, referee)
}

// ManagerKey is the manager_key the manager of the league leagueID in
// dataDir gave the agent saved there under name (its credentials, as the
// agent last registered): what a test that talks to that agent as its
// manager sends as auth_token. Tokens are kept by the manager as their
// SHA-256, in hex.
func ManagerKey(t testing.TB, dataDir, leagueID, name string) string {
	t.Helper()
	agent := credentials(t, dataDir, leagueID, name)
	hash := sha256.Sum256([]byte(agent.AuthToken))
	return ticket.ManagerKey(credentials(t, dataDir, leagueID, "league_manager").AuthToken, leagueID, string(agent.Role),
		agent.AgentID, hex.EncodeToString(hash[:]))
}

// credentials reads what the agent saved under name in dataDir.
func credentials(t testing.TB, dataDir, leagueID, name string) store.Credentials {
	t.Helper()
	layout, err := store.NewLayout(dataDir, leagueID)
	if err != nil {
		t.Fatal(err)
	}
	path, err := layout.Credentials(name)
	if err != nil {
		t.Fatal(err)
	}
	creds, ok, err := store.LoadCredentials(path)
	if err != nil || !ok {
		t.Fatalf("the credentials in %s: found %v, %v", path, ok, err)
	}
	return creds
}
