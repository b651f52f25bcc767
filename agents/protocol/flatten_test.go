package protocol

import (
	"encoding/json"
	"testing"
)

// refereeResults are the GAME_OVER and MATCH_RESULT_REPORT a referee
// sends, of every kind of ending: even/odd's win and draw, a technical
// loss (no facts, offenders), and link race's facts (numbers, paths,
// statuses, errors); and its MATCH_STEP.
func refereeResults() map[string]Message {
	msgs := matchMessages()
	over, report := msgs["game_over"].(*GameOver), msgs["report"].(*MatchResultReport)
	out := map[string]Message{"even_odd_win": over, "even_odd_report": report}

	draw := *over
	draw.GameResult.WinnerPlayerID, draw.GameResult.Status = nil, "DRAW"
	out["even_odd_draw"] = &draw

	lossOver, lossReport := *over, *report
	lossOver.GameResult = GameResult{Status: "TECHNICAL_LOSS", WinnerPlayerID: over.GameResult.WinnerPlayerID,
		Choices: map[string]string{"P05": "even"}, Reason: "P17 did not answer <in time> & lost"}
	lossReport.Result.Details = ReportDetails{Choices: map[string]string{"P05": "even"}, TechnicalLoss: true,
		Reason: lossOver.GameResult.Reason, OffendingPlayer: "P17", Offenders: []string{"P17"}}
	lossReport.Steps = nil
	out["technical_loss"], out["technical_loss_report"] = &lossOver, &lossReport

	race := map[string]any{"start_page": "Go (game)", "target_page": "Chess", "max_steps": 12,
		"path_A": []string{"Go (game)", "Chess"}, "path_B": []string{}, "steps_A": 1, "steps_B": 0,
		"status_A": "won", "status_B": "error", "player_statuses": map[string]string{"P05": "won", "P17": "error"},
		"errors": []map[string]any{{"step": 1, "current_page": "Go (game)", "reason": "no such link"}}}
	raceOver, raceReport := *over, *report
	raceOver.GameType, raceOver.GameResult.Details = "link_race", race
	raceReport.Result.Details.Game = race
	out["link_race"], out["link_race_report"] = &raceOver, &raceReport
	out["steps"] = msgs["steps"]
	return out
}

// TestResultsWrittenByHand: the referee's results are written by hand,
// not left to encoding/json, and give the bytes wirejson.Flatten and
// encoding/json gave them, alone and framed.
func TestResultsWrittenByHand(t *testing.T) {
	for name, msg := range refereeResults() {
		var got, want []byte
		var byHand bool
		var err error
		switch m := msg.(type) {
		case *GameOver:
			got, byHand = appendGameResult(nil, &m.GameResult)
			want, err = m.GameResult.flatten()
		case *MatchResultReport:
			got, byHand = appendReportDetails(nil, &m.Result.Details)
			want, err = m.Result.Details.flatten()
		default:
			byHand = true // a step: no result in it
		}
		if !byHand {
			t.Errorf("%s: left to wirejson.Flatten", name)
		}
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: by hand\n%s\nFlatten wrote\n%s (%v)", name, got, want, err)
		}
		encoded, err := Encode(msg)
		before, errBefore := json.Marshal(flattenedAsBefore(msg))
		if err != nil || errBefore != nil || string(encoded.JSON) != string(before) {
			t.Errorf("%s: by hand\n%s (%v)\nbefore\n%s (%v)", name, encoded.JSON, err, before, errBefore)
		}
		checkEncodedAlike(t, msg, "7")
	}
}

// TestResultsLeftToFlatten: what the hand writers cannot be sure of (a
// key to escape, a string that does not read back as itself beside
// facts, a fact of a type they do not know) goes to wirejson.Flatten,
// which writes what it always wrote.
func TestResultsLeftToFlatten(t *testing.T) {
	type point struct{ X int }
	for name, r := range map[string]GameResult{
		"key to escape":        {Status: "WIN", Choices: map[string]string{"P<1>": "odd"}},
		"invalid UTF-8":        {Status: "WIN\xff", Details: map[string]any{"n": 1}},
		"fact of another type": {Status: "WIN", Details: map[string]any{"p": point{3}}},
		"fact key to escape":   {Status: "WIN", Details: map[string]any{"é": 1}},
	} {
		if _, ok := appendGameResult(nil, &r); ok {
			t.Errorf("%s: written by hand", name)
		}
		got, err := json.Marshal(r)
		want, wantErr := r.flatten()
		if string(got) != string(want) || err != nil || wantErr != nil {
			t.Errorf("%s: %s (%v); Flatten: %s (%v)", name, got, err, want, wantErr)
		}
	}
}

// BenchmarkResultEncode encodes GAME_OVER and the report as the referee
// sends them, by hand and as before (encoding/json, the result through
// wirejson.Flatten).
func BenchmarkResultEncode(b *testing.B) {
	msgs := refereeResults()
	for _, name := range []string{"even_odd_win", "even_odd_report"} {
		msg := msgs[name]
		b.Run(name+"/by-hand", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Encode(msg); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/flatten", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(flattenedAsBefore(msg)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// flattenedAsBefore is msg as encoding/json wrote it before, its result
// through wirejson.Flatten.
func flattenedAsBefore(msg Message) any {
	switch m := msg.(type) {
	case *GameOver:
		return &legacyGameOver{Envelope: m.Envelope, GameType: m.GameType, GameResult: legacyGameResult(m.GameResult), Reason: m.Reason}
	case *MatchResultReport:
		r := m.Result
		return &legacyReport{Envelope: m.Envelope, GameType: m.GameType, Steps: m.Steps,
			Result: legacyReportResult{Winner: r.Winner, Score: r.Score, Details: legacyDetails(r.Details), Status: r.Status}}
	}
	return msg
}

type legacyGameResult GameResult

func (r legacyGameResult) MarshalJSON() ([]byte, error) { return GameResult(r).flatten() }

type legacyDetails ReportDetails

func (d legacyDetails) MarshalJSON() ([]byte, error) { return ReportDetails(d).flatten() }

// legacyGameOver and legacyReport are GameOver and MatchResultReport,
// field for field, with their results written by Flatten.
type legacyGameOver struct {
	Envelope
	GameType   string           `json:"game_type"`
	GameResult legacyGameResult `json:"game_result"`
	Reason     string           `json:"reason,omitempty"`
}

type legacyReport struct {
	Envelope
	GameType string             `json:"game_type"`
	Result   legacyReportResult `json:"result"`
	Steps    []StepEntry        `json:"match_steps,omitempty"`
}

type legacyReportResult struct {
	Winner  *string        `json:"winner"`
	Score   map[string]int `json:"score"`
	Details legacyDetails  `json:"details"`
	Status  string         `json:"status,omitempty"`
}
