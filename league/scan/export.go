package scan

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// MovesJSONL is the export's file name in a report folder.
const MovesJSONL = "moves.jsonl"

// MoveRecord is one model move as `leaguetui export --format jsonl` and
// the report's moves.jsonl write it, a JSON line each: what the model was
// asked and answered, what it could and did play, how the game ended for
// its player, and the model block the player reported (its model, tokens,
// cost, failure and whatever settings the player records), so that a
// trajectory needs nothing else. docs/export.md is generated from the
// doc tags (go generate ./league/scan).
type MoveRecord struct {
	LeagueID     string             `json:"league_id" doc:"the league"`
	MatchID      string             `json:"match_id" doc:"the match (its file is matches/LEAGUE/MATCH.json)"`
	Round        int                `json:"round" doc:"the match's round"`
	GameType     string             `json:"game_type" doc:"the game: link_race, even_odd or a game program's"`
	PlayerID     string             `json:"player_id" doc:"the model player"`
	Seat         string             `json:"seat" doc:"A or B: the seat the player had"`
	Move         int                `json:"move" doc:"the player's answer in the match, 1 for its first"`
	Seq          int                `json:"seq" doc:"the answer's entry in the match file's transcript"`
	Prompt       string             `json:"prompt" doc:"what the model was asked, system text first (cut, see truncated)"`
	Reply        string             `json:"reply" doc:"what it answered: its text, then its tool call (cut, see truncated); \"\" when none came"`
	Truncated    bool               `json:"truncated" doc:"the prompt or the reply was cut"`
	LegalMoves   []string           `json:"legal_moves" doc:"the moves the call offered: its valid_options, or the links of a race's page"`
	Chosen       string             `json:"chosen" doc:"the move the player answered with; \"\" when it had none"`
	ErrorType    string             `json:"error_type,omitempty" doc:"the move's failure (the seed's error taxonomy), absent when none"`
	Outcome      string             `json:"outcome" doc:"the game for this player: win, draw, loss or technical_loss"`
	PlayerStatus string             `json:"player_status,omitempty" doc:"the game's own status for the player (WON, LOST_MAX_STEPS …), where it gives one"`
	Category     Category           `json:"category,omitempty" doc:"for a game not won, the scan's category of it (docs/scan.md)"`
	Model        protocol.ModelMove `json:"model" doc:"the move's model block as the match file has it, without its reasoning (the prompt and reply above)"`
}

// Records are the model moves of the match files, in the files' order,
// then the transcript's. Abandoned matches have none: they count for no
// one.
func Records(files []*protocol.MatchFile) []MoveRecord {
	var out []MoveRecord
	for _, f := range files {
		out = append(out, matchRecords(f)...)
	}
	return out
}

func matchRecords(f *protocol.MatchFile) []MoveRecord {
	seats := seatsOf(f)
	categories := map[string]Category{}
	for _, g := range scanSeats(f, seats) {
		categories[g.Player] = g.Category
	}
	var out []MoveRecord
	for _, s := range seats {
		for _, m := range s.moves {
			out = append(out, recordOf(f, s.player, s.side, m, categories[s.player]))
		}
	}
	return out
}

func recordOf(f *protocol.MatchFile, player, seat string, m move, c Category) MoveRecord {
	r := MoveRecord{LeagueID: f.LeagueID, MatchID: f.MatchID, Round: f.RoundID, GameType: f.GameType, PlayerID: player,
		Seat: seat, Move: m.N, Seq: m.Seq, LegalMoves: m.Legal, Chosen: m.Chosen, ErrorType: m.Model.ErrorType,
		Outcome: outcomeOf(f.Result, player), PlayerStatus: playerStatus(f.Result, player), Category: c, Model: m.Model}
	if r.LegalMoves == nil {
		r.LegalMoves = []string{}
	}
	if reasoning := m.Model.Reasoning; reasoning != nil {
		r.Prompt, r.Reply, r.Truncated = reasoning.Prompt, reasoning.Reply, reasoning.Truncated
	}
	r.Model.Reasoning = nil
	return r
}

// WriteJSONL writes the records, a JSON line each.
func WriteJSONL(w io.Writer, records []MoveRecord) error {
	b := bufio.NewWriter(w)
	enc := json.NewEncoder(b)
	for i := range records {
		if err := enc.Encode(&records[i]); err != nil {
			return err
		}
	}
	return b.Flush()
}
