package engine

import (
	"errors"
	"fmt"
	"strings"
)

// MatchState is where a match is in the referee's step loop. The values are
// the protocol's wire names.
type MatchState string

// The match states, in the order a match passes through them.
const (
	StateWaitingForPlayers MatchState = "WAITING_FOR_PLAYERS"
	StateCollectingMoves   MatchState = "COLLECTING_CHOICES"
	StateDrawing           MatchState = "DRAWING_NUMBER" // transient inside Moved; never observed from outside
	StateFinished          MatchState = "FINISHED"
)

// Status is how a finished match ended, as reported to the league manager.
type Status string

// The match statuses.
const (
	StatusWin           Status = "WIN"
	StatusDraw          Status = "DRAW"
	StatusTechnicalLoss Status = "TECHNICAL_LOSS"
)

// DeclinedReason is the failure reason recorded when a player answers the
// invitation with accept=false.
const DeclinedReason = "declined the invitation"

// Errors returned by Match.Moved; test for them with errors.Is.
var (
	ErrUnknownPlayer   = errors.New("player is not in this match")
	ErrWrongState      = errors.New("match is not collecting moves")
	ErrAlreadyAnswered = errors.New("player already answered this step")
	ErrInvalidMove     = errors.New("invalid move")
)

// Outcome is a finished match, ready for GAME_OVER and MATCH_RESULT_REPORT.
type Outcome struct {
	Status    Status
	Winner    string            // player id, "" for a draw or a double technical loss
	Offenders []string          // players who failed (technical loss), in A,B order; empty otherwise
	Moves     map[string]string // player id -> the last normalized move, only for players that moved
	Details   map[string]any    // Decision.Details; nil on a technical loss
	Right     string            // Decision.Right
	Reason    string            // human sentence with player ids, or the failure reason(s) for a technical loss
	Step      string            // a few words for the match flow: Decision.Step, "technical loss" or "decided"
	Statuses  map[string]string // player id -> the game's own ending for that player, for games that have one
	// GameFailed is Decision.GameFailed: the game failed, not a player.
	GameFailed bool
}

// Match is the referee's game-agnostic turn loop for one match. The
// referee does the I/O (invitations, move calls, retries) and feeds each
// answer in with Joined, Moved or Failed; Pending says whom it still waits
// for and Turn what to ask them. A Match is not safe for concurrent use: the
// referee serializes calls.
//
// Each step (joining, then each turn) waits until every player asked has
// answered, so a match in which both fail is a double technical loss.
type Match struct {
	game    Game
	setup   MatchSetup
	play    Play // started once both players have joined: a game may load what it needs (pages) then
	id      string
	players [2]string
	state   MatchState

	answered [2]bool   // per side, in the current step
	failure  [2]string // per side, the failure reason; "" if none
	last     [2]string // per side, the last normalized move of the match
	declared [2]string // per side, the status a model error ended its game with, in games that do not judge it

	outcome Outcome
}

// NewMatch starts a match in StateWaitingForPlayers. seed is the league
// seed; the game draws from MatchRand(seed, id, purpose).
func NewMatch(game Game, id, playerA, playerB string, seed int64) *Match {
	return NewMatchWith(game, MatchSetup{MatchID: id, Seed: seed}, playerA, playerB)
}

// NewMatchWith is NewMatch for games that need more of the setup (pages).
func NewMatchWith(game Game, setup MatchSetup, playerA, playerB string) *Match {
	return &Match{
		game:    game,
		setup:   setup,
		id:      setup.MatchID,
		players: [2]string{playerA, playerB},
		state:   StateWaitingForPlayers,
	}
}

// ID returns the match id, e.g. "R1M1".
func (m *Match) ID() string { return m.id }

// Game returns the game being played.
func (m *Match) Game() Game { return m.game }

// Players returns the two player ids, A first.
func (m *Match) Players() [2]string { return m.players }

// State returns the current state.
func (m *Match) State() MatchState { return m.state }

// Done reports whether the match has finished and Outcome is valid.
func (m *Match) Done() bool { return m.state == StateFinished }

// Turn is what player is shown and asked in the current turn; false if the
// player is not in the match.
func (m *Match) Turn(player string) (Turn, bool) {
	side, ok := m.side(player)
	if !ok || m.play == nil {
		return Turn{}, false
	}
	return m.play.Turn(sideOf(side)), true
}

// Joined records one player's answer to the invitation; accepted=false is a
// failure with reason DeclinedReason. Once both have answered, the match
// finishes with a technical loss if anyone failed, and otherwise starts
// collecting moves. Calls outside StateWaitingForPlayers, for an unknown
// player, or for a player who already answered are ignored.
func (m *Match) Joined(player string, accepted bool) {
	if m.state != StateWaitingForPlayers {
		return
	}
	if accepted {
		m.answer(player, "")
		return
	}
	m.answer(player, DeclinedReason)
}

// Failed records that a player could not be reached, timed out or answered
// invalidly in the current step. While waiting for players it counts as the
// player's answer to the invitation; while collecting, as the player's move.
// The transition rules are those of Joined and Moved. Calls in any other
// state, for an unknown player, or for a player who already answered are
// ignored. An empty reason is recorded as "failed".
func (m *Match) Failed(player, reason string) {
	if m.state != StateWaitingForPlayers && m.state != StateCollectingMoves {
		return
	}
	if reason == "" {
		reason = "failed"
	}
	m.answer(player, reason)
}

// Moved records one player's raw move. It returns an error and records
// nothing if the match is not collecting moves (ErrWrongState), the player is
// not in the match (ErrUnknownPlayer), the player already answered this turn
// or is not asked in it (ErrAlreadyAnswered), or the move is invalid for the
// game (ErrInvalidMove), so the referee can retry or call Failed. When every
// move of the turn is in, the game advances, and the match finishes once
// the game is over.
func (m *Match) Moved(player, raw string) error {
	return m.Answered(player, Answer{Choice: raw})
}

// Answered is Moved with the whole answer, for games that read its move
// type. An invalid move's error reads as what the player should be told.
func (m *Match) Answered(player string, a Answer) error {
	if m.state != StateCollectingMoves {
		return fmt.Errorf("match %s: %w (state %s)", m.id, ErrWrongState, m.state)
	}
	side, ok := m.side(player)
	if !ok {
		return fmt.Errorf("match %s: %w: %q", m.id, ErrUnknownPlayer, player)
	}
	if m.answered[side] {
		return fmt.Errorf("match %s: %w: %q", m.id, ErrAlreadyAnswered, player)
	}
	if status, ok := ModelErrorStatus(a.Error); ok && !judgesModelErrors(m.play) {
		m.declared[side] = status
		m.answer(player, a.Error)
		return nil
	}
	move, err := m.play.Move(sideOf(side), a)
	if err != nil {
		return err
	}
	m.last[side] = move
	m.answer(player, "")
	return nil
}

// Progress is where the game stands, in a few words for the live match
// flow, for games that say so ("" otherwise).
func (m *Match) Progress() string {
	if p, ok := m.play.(interface{ Progress() string }); ok {
		return p.Progress()
	}
	return ""
}

// TurnStep names the match step that begins a turn: "choosing" for the
// first (as even/odd has always said), "turn N" for the others.
func TurnStep(turn int) string {
	if turn <= 1 {
		return "choosing"
	}
	return fmt.Sprintf("turn %d", turn)
}

// Pending lists the players the current step still waits for, in A,B order;
// it is empty when the match is done.
func (m *Match) Pending() []string {
	if m.Done() {
		return nil
	}
	var pending []string
	for i, p := range m.players {
		if !m.answered[i] {
			pending = append(pending, p)
		}
	}
	return pending
}

// Outcome returns the result of a finished match; before Done it returns
// the zero Outcome.
func (m *Match) Outcome() Outcome { return m.outcome }

// side finds a player's seat. If both seats hold the same id, A wins.
func (m *Match) side(player string) (int, bool) {
	for i, p := range m.players {
		if p == player {
			return i, true
		}
	}
	return 0, false
}

// sideOf names seat i (0 or 1).
func sideOf(i int) Side { return SideA + Side(i) }

// answer records a player's answer for the current step (failure "" means
// success) and advances the match once every player asked has answered.
func (m *Match) answer(player, failure string) {
	side, ok := m.side(player)
	if !ok || m.answered[side] {
		return
	}
	m.answered[side] = true
	m.failure[side] = failure
	if m.answered[0] && m.answered[1] {
		m.advance()
	}
}

// advance leaves a step that every player asked has answered.
func (m *Match) advance() {
	switch {
	case m.failure[0] != "" || m.failure[1] != "":
		m.finish(m.technicalLoss())
		return
	case m.state == StateWaitingForPlayers:
		m.state = StateCollectingMoves
		m.play = m.game.Start(m.setup)
	default:
		m.play.Advance()
		if m.play.Over() {
			m.state = StateDrawing
			m.finish(m.decide())
			return
		}
	}
	m.nextTurn()
}

// nextTurn clears the answers for a new turn; a side the game does not ask
// counts as having answered.
func (m *Match) nextTurn() {
	for i := range m.answered {
		m.answered[i] = !m.play.Asked(sideOf(i))
	}
	if m.answered[0] && m.answered[1] {
		m.advance() // nobody to ask: the game advances on its own
	}
}

// finish stores the outcome and ends the match.
func (m *Match) finish(o Outcome) {
	m.outcome = o
	m.state = StateFinished
}

// decide lets the game settle a match that is over.
func (m *Match) decide() Outcome {
	d := m.play.Decide()
	o := Outcome{
		Status:  StatusDraw,
		Moves:   m.movesByPlayer(),
		Details: d.Details,
		Right:   d.Right,
		Step:    d.Step,

		GameFailed: d.GameFailed,
	}
	if o.Step == "" {
		o.Step = "decided"
	}
	o.Statuses = m.statuses(d)
	result := "draw"
	if d.Winner == SideA || d.Winner == SideB {
		o.Status = StatusWin
		o.Winner = m.players[int(d.Winner-SideA)]
		result = o.Winner + " wins"
	}
	o.Reason = fmt.Sprintf("%s (A) vs %s (B): %s; %s", m.players[0], m.players[1], d.Reason, result)
	return o
}

// Forfeiter is a game that records a player's technical failure in its
// own terms (the link race: status ERROR); its details then go with the
// technical loss.
type Forfeiter interface {
	Forfeit(s Side, reason string)
}

// judgesModelErrors reports whether a game ends a model player's game on
// its declared error itself (the link race); in any other game the error
// is the player's technical loss.
func judgesModelErrors(p Play) bool {
	_, ok := p.(interface{ JudgesModelErrors() })
	return ok
}

// technicalLoss builds the outcome of a match in which someone failed.
func (m *Match) technicalLoss() Outcome {
	o := Outcome{Status: StatusTechnicalLoss, Moves: m.movesByPlayer(), Step: "technical loss"}
	var reasons []string
	for i, p := range m.players {
		if m.failure[i] == "" {
			o.Winner = p
			continue
		}
		o.Offenders = append(o.Offenders, p)
		reasons = append(reasons, p+": "+m.failure[i])
	}
	if f, ok := m.play.(Forfeiter); ok {
		for i := range m.players {
			if m.failure[i] != "" {
				f.Forfeit(sideOf(i), m.failure[i])
			}
		}
		d := m.play.Decide()
		o.Details, o.Statuses = d.Details, m.statuses(d)
	} else {
		o.Statuses = m.statuses(Decision{Statuses: m.declared})
	}
	o.Reason = "technical loss: " + strings.Join(reasons, "; ")
	return o
}

// statuses maps each player to the game's own ending for it; nil if the
// game has none.
func (m *Match) statuses(d Decision) map[string]string {
	var out map[string]string
	for i, status := range d.Statuses {
		if status != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[m.players[i]] = status
		}
	}
	return out
}

// movesByPlayer maps each player who moved to their last normalized move.
func (m *Match) movesByPlayer() map[string]string {
	moves := map[string]string{}
	for i, p := range m.players {
		if m.last[i] != "" {
			moves[p] = m.last[i]
		}
	}
	return moves
}
