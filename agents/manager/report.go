package manager

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/engine"
)

// handleReport takes a referee's MATCH_RESULT_REPORT. Only the referee the
// match is assigned to may report it, once. The match's steps the report
// carries (ours) are applied with its result, just before it: a report
// refused for any reason, a retried one included (its match already has
// the result), applies none of them.
func (m *Manager) handleReport(_ context.Context, in protocol.Inbound) (any, error) {
	var rep protocol.MatchResultReport
	if err := rpc.DecodeParams(in, &rep); err != nil {
		return nil, err
	}
	if err := checkEnvelope(rep.Envelope); err != nil {
		return nil, err
	}
	referee, err := m.authenticate(rep.Envelope, engine.RoleReferee)
	if err != nil {
		m.noteRefusedReport(rep.Envelope, err)
		return nil, err
	}
	m.heardReport(referee.ID)
	m.mu.Lock()
	match, ok := m.league.Match(rep.MatchID)
	m.mu.Unlock()
	switch {
	case !ok:
		return nil, protocol.NewRPCError(protocol.CodeInvalidParams, "", "no match %q in this league", rep.MatchID)
	case match.Referee != referee.ID && !m.reportableAnnounced(rep.MatchID, referee.ID):
		return nil, protocol.NewRPCError(protocol.CodeInvalidParams, "", "match %s is not assigned to %s", rep.MatchID, referee.ID)
	case match.Result != nil:
		return nil, protocol.NewRPCError(protocol.CodeInvalidParams, "", "match %s already has a result", rep.MatchID)
	}
	if err := checkReportSteps(rep); err != nil {
		return nil, protocol.NewRPCError(protocol.CodeInvalidParams, "", "%v", err)
	}
	result, err := resultFromReport(match.Pairing, rep.Result)
	if err != nil {
		return nil, protocol.NewRPCError(protocol.CodeInvalidParams, "", "%v", err)
	}
	if err := m.recordResult(result, referee.ID, matchFacts(match.Pairing, rep.Result.Details), rep.Steps); err != nil {
		if errors.Is(err, engine.ErrLeagueStopped) {
			m.abandonFiles([]string{rep.MatchID}) // its referee wrote the file just before it reported
		}
		return nil, protocol.NewRPCError(protocol.CodeInvalidParams, "", "%v", err)
	}
	m.fetchTranscriptSoon(rep.MatchID)
	return &protocol.Ack{Envelope: m.reply(protocol.TypeMatchResultAck, rep.Envelope), Status: "RECEIVED"}, nil
}

// checkReportSteps holds the steps a report carries to what MATCH_STEP's
// are held to, and more: they must all be of the reported match, which is
// all our referees put there.
func checkReportSteps(rep protocol.MatchResultReport) error {
	if len(rep.Steps) > protocol.MaxStepsPerMessage {
		return fmt.Errorf("%d steps in one report, at most %d", len(rep.Steps), protocol.MaxStepsPerMessage)
	}
	for _, step := range rep.Steps {
		if step.MatchID != rep.MatchID {
			return fmt.Errorf("a report of match %s carries a step of match %q", rep.MatchID, step.MatchID)
		}
	}
	return nil
}

// recordResult journals the match's last steps, then its result, wakes
// whoever waits for the match and marks the standings file stale. Its cost
// does not grow with the league.
func (m *Manager) recordResult(r engine.Result, refereeID string, facts *engine.MatchFacts, steps []protocol.StepEntry) error {
	var ev engine.Event
	err := m.journaled(func(b *batch) error {
		// A match announced to a referee that plays from the announcement
		// is its own, whoever it was handed to since.
		if err := m.takeAnnouncedReport(b, r.MatchID, refereeID); err != nil {
			return err
		}
		rec, _ := m.league.Match(r.MatchID)
		if rec.Referee != refereeID {
			// Checked again under the lock: the match may have been
			// reassigned since the report was read.
			return fmt.Errorf("match %s is not assigned to %s", r.MatchID, refereeID)
		}
		if rec.Result == nil {
			// Under the same lock as the result: of two copies of a
			// report (a retry crossing the first), only the one that
			// records the result brings its steps.
			if _, err := m.stageStepsIn(b, refereeID, steps); err != nil {
				return err
			}
		}
		var err error
		ev, err = b.stage(engine.Event{Kind: engine.EventMatchResult, Round: r.Round, MatchID: r.MatchID,
			Referee: refereeID, Result: &r, Facts: facts})
		return err
	})
	if err != nil {
		return err
	}
	m.mu.Lock()
	if ch, ok := m.reported[r.MatchID]; ok {
		close(ch)
		delete(m.reported, r.MatchID)
	}
	m.mu.Unlock()
	// Attributes, not key-value pairs: the same line, without boxing each value (one a match).
	m.Log.LogAttrs(context.Background(), slog.LevelInfo, "match result", slog.String("event_type", "MATCH_RESULT_RECEIVED"),
		slog.String("match_id", r.MatchID), slog.String("status", string(r.Status)), slog.String("winner", r.Winner),
		slog.Int64("seq", ev.Seq))
	m.standingsChanged()
	return nil
}

// Bounds on what a report's facts may bring into the journal: a move or a
// game fact is a word or a number, the reason one line.
const (
	maxFactLength  = 64
	maxFactDetails = 8
	maxReasonBytes = 300
)

// matchFacts keeps what the journal needs of a report to rebuild the
// players' histories: the two players' moves and the game's scalar facts,
// each bounded, so a referee cannot grow the journal or the feed with them.
func matchFacts(p engine.Pairing, d protocol.ReportDetails) *engine.MatchFacts {
	facts := &engine.MatchFacts{Moves: make(map[string]string, 2), Details: make(map[string]any, min(len(d.Game), maxFactDetails))}
	for _, player := range []string{p.PlayerA, p.PlayerB} {
		if move, ok := d.Choices[player]; ok && len(move) <= maxFactLength {
			facts.Moves[player] = move
		}
	}
	for key, value := range d.Game {
		if len(facts.Details) == maxFactDetails || len(key) > maxFactLength {
			continue
		}
		switch v := value.(type) {
		case string:
			if len(v) <= maxFactLength {
				facts.Details[key] = value // as it came: not boxed again
			}
		case float64, bool, json.Number:
			facts.Details[key] = v
		}
	}
	if len(d.Reason) <= maxReasonBytes {
		facts.Reason = d.Reason
	}
	return facts
}

// resultFromReport reads the outcome the way peers encode it (protocol.md §9
// #8): result.status first, then the score, then the winner. Points are
// never taken from the report: the league's own scoring gives them.
func resultFromReport(p engine.Pairing, r protocol.ReportResult) (engine.Result, error) {
	res := engine.Result{MatchID: p.MatchID, Round: p.Round, PlayerA: p.PlayerA, PlayerB: p.PlayerB}
	players := []string{p.PlayerA, p.PlayerB}
	winner := ""
	if r.Winner != nil {
		winner = *r.Winner
	}
	if winner != "" && !slices.Contains(players, winner) {
		return res, fmt.Errorf("winner %q did not play match %s", winner, p.MatchID)
	}
	status := engine.Status(r.Status)
	if status == "" {
		status, winner = statusFromScore(players, r.Score, winner)
	}
	if r.Details.TechnicalLoss {
		status = engine.StatusTechnicalLoss
	}
	switch status {
	case engine.StatusWin:
		if winner == "" {
			return res, fmt.Errorf("a WIN needs a winner")
		}
		res.Winner = winner
	case engine.StatusDraw:
	case engine.StatusTechnicalLoss:
		res.Winner = winner
		res.Offenders = offenders(players, winner, r.Details)
	default:
		return res, fmt.Errorf("unknown result status %q", r.Status)
	}
	res.Status = status
	return res, nil
}

// statusFromScore reads a report without status: equal scores are a draw
// (both zero: both failed), otherwise the higher score won.
func statusFromScore(players []string, score map[string]int, winner string) (engine.Status, string) {
	if len(score) == 0 {
		if winner == "" {
			return engine.StatusDraw, ""
		}
		return engine.StatusWin, winner
	}
	a, b := score[players[0]], score[players[1]]
	switch {
	case a > b:
		return engine.StatusWin, players[0]
	case b > a:
		return engine.StatusWin, players[1]
	case a == 0:
		return engine.StatusTechnicalLoss, ""
	}
	return engine.StatusDraw, ""
}

func offenders(players []string, winner string, d protocol.ReportDetails) []string {
	var out []string
	for _, p := range players {
		named := d.OffendingPlayer == p || slices.Contains(d.Offenders, p)
		if named || (winner != "" && p != winner) || (winner == "" && d.OffendingPlayer == "" && len(d.Offenders) == 0) {
			out = append(out, p)
		}
	}
	return out
}

// handleMatchStep records the steps our referees report while a match
// runs: one step, or a batch of them (MatchStep.Steps). A step that arrives
// after the result is acknowledged and dropped.
func (m *Manager) handleMatchStep(_ context.Context, in protocol.Inbound) (any, error) {
	var msg protocol.MatchStep
	if err := rpc.DecodeParams(in, &msg); err != nil {
		return nil, err
	}
	referee, err := m.authenticate(msg.Envelope, engine.RoleReferee)
	if err != nil {
		return nil, err
	}
	steps := msg.Steps
	if len(steps) == 0 {
		steps = []protocol.StepEntry{{RoundID: msg.RoundID, MatchID: msg.MatchID, Step: msg.Step, Detail: msg.Detail}}
	}
	if len(steps) > protocol.MaxStepsPerMessage {
		return nil, protocol.NewRPCError(protocol.CodeInvalidParams, "", "%d steps in one message, at most %d", len(steps), protocol.MaxStepsPerMessage)
	}
	var foreign string
	err = m.journaled(func(b *batch) (err error) {
		foreign, err = m.stageStepsIn(b, referee.ID, steps)
		return err
	})
	if err != nil {
		return nil, err
	}
	if foreign != "" {
		return nil, protocol.NewRPCError(protocol.CodeInvalidParams, "", "match %s is not assigned to %s", foreign, referee.ID)
	}
	return &protocol.Ack{Envelope: m.reply("MATCH_STEP_ACK", msg.Envelope), Status: "ok"}, nil
}

// stageStepsIn stages the steps of matches the referee runs that have no
// result yet (a step that arrives after the result changes nothing). It
// returns the id of a match not assigned to the referee, if any step named
// one: the others are still taken.
func (m *Manager) stageStepsIn(b *batch, refereeID string, steps []protocol.StepEntry) (foreign string, err error) {
	for _, step := range steps {
		match, ok := m.league.Match(step.MatchID)
		if !ok || match.Referee != refereeID {
			foreign = step.MatchID
			continue
		}
		if match.Result != nil {
			continue
		}
		if _, err := b.stage(engine.Event{Kind: engine.EventMatchStep, Round: match.Round, MatchID: step.MatchID,
			Referee: refereeID, Step: step.Step, Detail: step.Detail}); err != nil {
			return foreign, err
		}
		m.progress.made(step.MatchID)
	}
	return foreign, nil
}
