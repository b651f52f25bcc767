package gameprog

// The game program protocol: leaguetui (the referee) writes one JSON
// object a line to the program's standard input and the program answers
// each with one JSON object a line on its standard output. docs/games.md
// ("Writing a game") gives every message with an example; its test
// decodes those examples into these types, so the page cannot drift.

// ProtocolVersion names this protocol in the start message.
const ProtocolVersion = "leaguetui.game/1"

// The message types, the "type" of every message.
const (
	TypeStart   = "start"   // leaguetui → game: a match begins
	TypeMove    = "move"    // leaguetui → game: a seat's answer
	TypeAdvance = "advance" // leaguetui → game: every seat asked has moved
	TypeTurn    = "turn"    // game → leaguetui: what each seat sees and is asked
	TypeVerdict = "verdict" // game → leaguetui: what a seat's answer is
	TypeEnd     = "end"     // game → leaguetui: the match is over
	TypeError   = "error"   // game → leaguetui: the game cannot go on
)

// The verdicts on an answer.
const (
	VerdictAccepted = "accepted"   // a move: recorded
	VerdictNotAMove = "not_a_move" // not a move at all: nothing recorded, the player is asked again
	VerdictLoses    = "loses"      // a move that loses: recorded, and the game ends that seat in its next turn or end
)

// Seat names: a match's seats in the order leaguetui seats its players.
const (
	SeatA = "A"
	SeatB = "B"
)

// Start opens a match; the program answers with a Turn or an End.
type Start struct {
	Type     string `json:"type"`     // "start"
	Protocol string `json:"protocol"` // ProtocolVersion
	MatchID  string `json:"match_id"`
	// Seed is the match's own seed, an integer below 2^53:
	// engine.MatchRand(league seed, match id, "game").Uint64() >> 11. A
	// game that draws from it alone depends on nothing but the league's
	// seed and the match, whatever order matches are played in.
	Seed uint64 `json:"seed"`
	// LeagueSeed is the league's seed, for a game that reproduces the
	// engine's own draws (examples/games/even_odd.py).
	LeagueSeed int64 `json:"league_seed"`
	// Attempt is 1, or 2 when the match is played again after the game
	// failed in it (a new process, the same seed and players).
	Attempt int            `json:"attempt"`
	Seats   []string       `json:"seats"`   // ["A", "B"]
	Options map[string]any `json:"options"` // the manifest's options, {} if none
}

// Move is one seat's answer to this turn; the program answers with a
// Verdict.
type Move struct {
	Type string `json:"type"` // "move"
	Turn int    `json:"turn"` // leaguetui's count: 1 after the start, one more after each advance
	Seat string `json:"seat"`
	// MoveType is the move type the player said it answers ("" if it
	// said none).
	MoveType string `json:"move_type"`
	Move     string `json:"move"` // the answer as the player sent it
}

// Advance ends a turn once every seat asked has a move recorded; the
// program answers with the next Turn or an End.
type Advance struct {
	Type string `json:"type"` // "advance"
	Turn int    `json:"turn"` // the turn that ends
}

// Turn is what each seat sees and is asked this turn. Sequential games
// ask one seat, simultaneous ones both: a turn asks at least one.
type Turn struct {
	Type  string     `json:"type"` // "turn"
	Seats []SeatTurn `json:"seats"`
	// Progress is where the game stands in a few words, for the live
	// match flow ("" for none).
	Progress string `json:"progress,omitempty"`
}

// SeatTurn is one seat's part of a turn: sent to that seat's player
// alone, so hidden information stays hidden.
type SeatTurn struct {
	Seat  string `json:"seat"`
	Asked bool   `json:"asked"`
	// MoveType names the move (e.g. "place"); "choose_parity" goes as
	// league.v2's CHOOSE_PARITY_CALL, any other as GAME_MOVE_CALL.
	MoveType string `json:"move_type,omitempty"`
	// Options are the legal moves when the game can list them (built-in
	// players play only such games); absent when any answer may be one.
	Options []string `json:"options,omitempty"`
	// Observation is what the seat sees of the game: the move request's
	// context.
	Observation map[string]any `json:"observation,omitempty"`
	// Text is the seat's view in words or as a drawing (a board): sent
	// in the context as "text".
	Text string `json:"text,omitempty"`
}

// Verdict is what the game makes of one seat's answer.
type Verdict struct {
	Type    string `json:"type"` // "verdict"
	Seat    string `json:"seat"`
	Verdict string `json:"verdict"` // VerdictAccepted, VerdictNotAMove or VerdictLoses
	// Move is the move as the game records it (its canonical spelling);
	// "" keeps the answer as sent.
	Move string `json:"move,omitempty"`
	// Reason says why an answer is not a move (told to the player) or
	// why a move loses.
	Reason string `json:"reason,omitempty"`
}

// End settles the match, as engine.Decision has it.
type End struct {
	Type   string `json:"type"`   // "end"
	Winner string `json:"winner"` // "A", "B", or "" for a draw
	// Seats are each seat's own ending, where the game has one (WON,
	// LOST...); absent for none.
	Seats []SeatEnd `json:"seats,omitempty"`
	// Details are the game's facts, kept in the match file's result and
	// sent to the players in GAME_OVER.
	Details map[string]any `json:"details,omitempty"`
	// Reason is one sentence in terms of "A" and "B".
	Reason string `json:"reason"`
	// Step names the ending in a few words for the live match flow
	// ("" says "decided").
	Step string `json:"step,omitempty"`
	// Right is the move that was right this time, for strategies that
	// learn from it ("" for none).
	Right string `json:"right,omitempty"`
}

// SeatEnd is one seat's own ending.
type SeatEnd struct {
	Seat   string `json:"seat"`
	Status string `json:"status"`
}

// Error says the game cannot go on: the match ends as a game failure,
// with Message in its reason.
type Error struct {
	Type    string `json:"type"` // "error"
	Message string `json:"message"`
}

// Messages is every message of the protocol: its type, who sends it,
// and a fresh value of its Go type.
var Messages = []struct {
	Type     string
	FromGame bool
	New      func() any
}{
	{TypeStart, false, func() any { return new(Start) }},
	{TypeMove, false, func() any { return new(Move) }},
	{TypeAdvance, false, func() any { return new(Advance) }},
	{TypeTurn, true, func() any { return new(Turn) }},
	{TypeVerdict, true, func() any { return new(Verdict) }},
	{TypeEnd, true, func() any { return new(End) }},
	{TypeError, true, func() any { return new(Error) }},
}

// GameError is the status each seat ends with when the game program
// failed (crashed, hung, answered garbage or contradicted itself): the
// match is a draw, its details' game_error says why.
const GameError = "ERROR"
