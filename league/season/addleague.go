package season

import (
	"fmt"
	"io"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// AddLeague adds a completed league to the season folder dir, if one is
// given, and says so on progress; final is its final standings as the
// manager served them (nil: standings.json), names the roster's season
// names for its players (nil: their display names).
func AddLeague(dir, dataDir, leagueID string, final *protocol.StandingsFile, names map[string]string, progress io.Writer) error {
	if dir == "" {
		return nil
	}
	added, err := Add(dir, dataDir, leagueID, final, names)
	switch {
	case err != nil:
		return fmt.Errorf("--season %s: %w", dir, err)
	case added:
		fmt.Fprintf(progress, "leaguetui: league %s added to the season %s (see: leaguetui season %s)\n", leagueID, dir, dir)
	default:
		fmt.Fprintf(progress, "leaguetui: the season %s holds league %s already\n", dir, leagueID)
	}
	return nil
}
