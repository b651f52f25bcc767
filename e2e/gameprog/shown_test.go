package gameprog

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

// TestGameDrawingShownTurnByTurn: the game's drawing of what each asked
// seat sees (tic-tac-toe's board, the move call's context.text) is shown
// under its move call, turn by turn, in the report's page and in replay.
func TestGameDrawingShownTurnByTurn(t *testing.T) {
	needPython(t)
	dir, _ := runLeague(t, "--game", example(t, "tic_tac_toe.json"), "--seed", "5")
	leagueID := config.LeagueIDFor("tic_tac_toe")
	out := t.TempDir()
	if msg, err := exec.Command(leaguetest.Binary(t), "report", "--out", out, dir).CombinedOutput(); err != nil {
		t.Fatalf("leaguetui report: %v\n%s", err, msg)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	views := 0
	for _, m := range leaguetest.ReadMatchFiles[leaguetest.MatchFile[ticTacToeResult]](t, dir, leagueID) {
		for _, e := range m.Transcript {
			view := e.View()
			if view == "" {
				continue
			}
			views++
			// The board is dots, marks and spaces: the page holds it as it is.
			if !strings.Contains(string(page), `<pre class="view">`+view+"</pre>") {
				t.Errorf("%s #%d: the report does not show the board under the move call:\n%s", m.MatchID, e.Seq, view)
			}
		}
	}
	if views == 0 {
		t.Fatal("no move call carries the game's drawing")
	}

	x := leaguetest.NewTmux(t, 120, 50, "exec "+leaguetest.Binary(t)+" replay "+dir)
	x.WaitScreen(30*time.Second, "match 1 of 6", "GAME_MOVE_CALL", "▏ . . .")
	x.Keys("G") // the last match: its board fills up turn by turn
	x.WaitScreenFor(10*time.Second, "a mark on the last match's board", func(screen string) bool {
		return strings.Contains(screen, "match 6 of 6") &&
			(strings.Contains(screen, "▏ X") || strings.Contains(screen, "▏ . X") || strings.Contains(screen, "▏ . . X"))
	})
	x.Keys("q")
}
