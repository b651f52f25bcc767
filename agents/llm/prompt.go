package llm

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/engine"
)

// The labels of the link race's prompt lines that hold JSON; a test's fake
// provider reads them to answer with a real link.
const (
	LinksLabel = "Links on this page (JSON): "
	PathLabel  = "Your path so far (JSON): "
)

// PastMatch is one finished match against the same opponent, as the
// player's history has it.
type PastMatch struct {
	MyMove, OpponentMove, Result string
	Details                      map[string]any
}

const system = "You are a player in a league of two-player games. Each turn you make exactly one move by calling the tool you are given, once. Answer only with that tool call."

// TurnFor is the turn the model is asked for one move call: the game's move
// as a tool and the state as the prompt. past is this league's matches
// against the same opponent (even/odd's history); it may be nil.
func TurnFor(mc engine.MoveContext, past []PastMatch, deadline time.Time) Turn {
	turn := Turn{MatchID: mc.MatchID, System: system, Step: mc.Turn, Deadline: deadline}
	switch mc.GameType {
	case engine.LinkRaceType:
		raceTurn(&turn, mc)
	case "even_odd":
		turn.Tool = Tool{Name: "choose_parity", Param: "parity", Options: mc.Options,
			Description: "Choose the parity you bet the drawn number (1 to 10) has: even or odd."}
		turn.Prompt = fmt.Sprintf("You play even/odd against %s. Both players choose a parity; a number from 1 to 10 is drawn and whoever chose its parity wins.\n%s\nCall choose_parity with \"even\" or \"odd\".",
			mc.OpponentID, pastLines(mc.OpponentID, past))
	default:
		turn.Tool = Tool{Name: mc.MoveType, Param: "choice", Options: mc.Options,
			Description: "Your move: one of " + strings.Join(mc.Options, ", ")}
		state, _ := json.Marshal(mc.State)
		turn.Prompt = fmt.Sprintf("You play %s against %s, turn %d. The game's state (JSON): %s\nCall %s with your move.",
			mc.GameType, mc.OpponentID, mc.Turn, state, mc.MoveType)
	}
	return turn
}

// raceTurn asks for a link: the current page, its links, the target and
// the steps left.
func raceTurn(turn *Turn, mc engine.MoveContext) {
	links := engine.StringsOf(mc.State["links"])
	current, target := fmt.Sprint(mc.State["current_page"]), fmt.Sprint(mc.State["target_page"])
	turn.CurrentPage, turn.TargetPage = current, target
	turn.Tool = Tool{Name: engine.NavigateMove, Param: "page", Options: links, LinkMove: true,
		Description: "Follow one link of the current page: its exact title."}
	linksJSON, _ := json.Marshal(links)
	pathJSON, _ := json.Marshal(engine.StringsOf(mc.State["path"]))
	turn.Prompt = fmt.Sprintf("You race through linked pages to reach the target page in as few steps as you can.\nCurrent page: %s\nTarget page: %s\nSteps left: %v\n%s%s\n%s%s\nCall navigate with the exact title of one link on this page.",
		current, target, mc.State["steps_left"], PathLabel, pathJSON, LinksLabel, linksJSON)
}

// pastLines tells the model what happened in the earlier matches against
// the opponent.
func pastLines(opponent string, past []PastMatch) string {
	if len(past) == 0 {
		return "You have not played " + opponent + " before in this league."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Your earlier matches against %s in this league:\n", opponent)
	for _, m := range past {
		fmt.Fprintf(&b, "- you chose %q, they chose %q, drawn %v: %s\n", m.MyMove, m.OpponentMove, m.Details["drawn_number"], m.Result)
	}
	return b.String()
}
