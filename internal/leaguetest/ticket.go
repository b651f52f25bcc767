package leaguetest

import (
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
	layout, err := store.NewLayout(dataDir, leagueID)
	if err != nil {
		t.Fatal(err)
	}
	path, err := layout.Credentials("league_manager")
	if err != nil {
		t.Fatal(err)
	}
	creds, ok, err := store.LoadCredentials(path)
	if err != nil || !ok {
		t.Fatalf("the manager's secret in %s: found %v, %v", path, ok, err)
	}
	return ticket.Mint(ticket.PlayerKey(creds.AuthToken, leagueID, player), leagueID, match, referee)
}
