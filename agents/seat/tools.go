package seat

import (
	"context"
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/agents/protocol"
)

// What wait_for_turn's state says.
const (
	StateYourTurn        = "your_turn"        // a move is asked: submit_move before the deadline
	StateWaiting         = "waiting"          // nothing came in the wait: call wait_for_turn again
	StateLeagueCompleted = "league_completed" // nothing is left to play: stop
)

// The bounds of one wait_for_turn.
const (
	DefaultWait = 20 * time.Second
	MaxWait     = 30 * time.Second
)

// instructions is what the server tells a client at initialisation: the
// whole loop, for a model that reads nothing else.
const instructions = `You hold a seat in a leaguetui league: a league of matches between game-playing agents, run by a manager and referees. ` +
	`Play it with four tools: take_seat once with your join code; then repeat wait_for_turn and, whenever it says state "your_turn", ` +
	`submit_move with its match_id and one of its "legal" moves before its deadline; stop when wait_for_turn says "league_completed". ` +
	`State "waiting" means nothing came yet: call wait_for_turn again. get_standings shows the table at any time. ` +
	`A move not submitted before the deadline is lost, as a technical loss.`

// Input and output of the tools, their JSON schemas derived from the
// fields and their jsonschema tags.
type (
	TakeSeatIn struct {
		JoinCode string `json:"join_code" jsonschema:"the seat's join code, as the league's organiser gave it (join-...)"`
	}
	TakeSeatOut struct {
		Seat     string `json:"seat" jsonschema:"the seat's name, the display name in the standings"`
		PlayerID string `json:"player_id" jsonschema:"the player id the league gave the seat"`
		LeagueID string `json:"league_id"`
		GameType string `json:"game_type" jsonschema:"the game the league plays, e.g. even_odd or link_race"`
		Next     string `json:"next" jsonschema:"what to do now"`
	}
	WaitIn struct {
		TimeoutSeconds int `json:"timeout_seconds,omitempty" jsonschema:"how long to wait for a turn, 1 to 30 seconds (default 20)"`
	}
	SubmitIn struct {
		MatchID string `json:"match_id" jsonschema:"the match_id wait_for_turn gave"`
		Move    string `json:"move" jsonschema:"the move: exactly one of wait_for_turn's legal moves (even/odd: even or odd; link race: one of the links)"`
	}
	SubmitOut struct {
		Accepted bool   `json:"accepted"`
		MatchID  string `json:"match_id"`
		Move     string `json:"move"`
		Next     string `json:"next" jsonschema:"what to do now"`
	}
	StandingsIn  struct{}
	StandingsOut struct {
		State           string                 `json:"state" jsonschema:"the league's state, e.g. RUNNING or COMPLETED"`
		RoundsCompleted int                    `json:"rounds_completed"`
		RoundsTotal     int                    `json:"rounds_total"`
		MatchesDone     int                    `json:"matches_done"`
		MatchesTotal    int                    `json:"matches_total"`
		You             string                 `json:"you" jsonschema:"this seat's player id"`
		Standings       []protocol.StandingRow `json:"standings" jsonschema:"rows by rank, as the manager's standings have them"`
	}
)

// Turn is wait_for_turn's answer: a move asked of the seat, or the state
// with none.
type Turn struct {
	State       string         `json:"state" jsonschema:"your_turn: submit a move; waiting: call wait_for_turn again; league_completed: stop"`
	MatchID     string         `json:"match_id,omitempty" jsonschema:"the match, to give submit_move"`
	GameType    string         `json:"game_type,omitempty" jsonschema:"the game, e.g. even_odd or link_race"`
	MoveType    string         `json:"move_type,omitempty" jsonschema:"the move asked: choose_parity (even/odd) or navigate (link race)"`
	Round       int            `json:"round,omitempty"`
	Turn        int            `json:"turn,omitempty" jsonschema:"1 for the match's first move"`
	Opponent    string         `json:"opponent,omitempty" jsonschema:"the opponent's player id"`
	Legal       []string       `json:"legal,omitempty" jsonschema:"the moves you may submit: submit exactly one of them"`
	Observation map[string]any `json:"observation,omitempty" jsonschema:"what the game shows you this turn (link race: current_page, target_page, links)"`
	Deadline    string         `json:"deadline,omitempty" jsonschema:"when the move is due (UTC); a later one is lost"`
	SecondsLeft float64        `json:"seconds_left,omitempty" jsonschema:"seconds left before the deadline"`
	deadline    time.Time
}

// errNoSeat is any tool but take_seat called by a session that holds no
// seat.
var errNoSeat = errors.New("this session holds no seat: call take_seat with your join code first")

// addTools registers the four tools on the host's MCP server.
func (h *Host) addTools(s *mcp.Server) {
	never, once := false, true
	mcpserve.AddTypedTool(s, &mcp.Tool{Name: "take_seat", Title: "Take your seat",
		Description: "Take your seat in the league with the join code the organiser gave you; call it once, first (again after reconnecting: the seat is kept for you). " +
			"A session holds one seat.",
		Annotations: &mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: &never}}, h.takeSeat)
	mcpserve.AddTypedTool(s, &mcp.Tool{Name: "wait_for_turn", Title: "Wait for your turn",
		Description: "Wait (up to timeout_seconds, default 20, at most 30) until a move is asked of your seat. " +
			`state "your_turn": read observation and legal, then call submit_move with match_id and one of legal before deadline. ` +
			`state "waiting": nothing yet, call wait_for_turn again. state "league_completed": the league is over, stop.`,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, h.waitForTurn)
	mcpserve.AddTypedTool(s, &mcp.Tool{Name: "submit_move", Title: "Submit your move",
		Description: "Submit your move for the turn wait_for_turn gave: match_id as given, move exactly one of its legal moves. " +
			"Answers accepted, or why not (then correct it and submit again before the deadline). Then call wait_for_turn again.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &once}}, h.submitMove)
	mcpserve.AddTypedTool(s, &mcp.Tool{Name: "get_standings", Title: "League standings",
		Description: "The league's standings now: each player's rank, results and points, and how far the league has got. Yours is the row whose player_id is you.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, h.getStandings)
}

func (h *Host) takeSeat(ctx context.Context, req *mcp.CallToolRequest, in TakeSeatIn) (TakeSeatOut, error) {
	var source string
	if req.Extra != nil {
		source = req.Extra.Header.Get(sourceHeader) // withSource's: the client's own value is replaced
	}
	s, err := h.take(ctx, req.Session.ID(), source, in.JoinCode)
	if err != nil {
		return TakeSeatOut{}, err
	}
	id, _ := s.player.Identity()
	return TakeSeatOut{Seat: s.name, PlayerID: id, LeagueID: s.player.LeagueID(), GameType: h.opts.Config.GameType,
		Next: "call wait_for_turn, and repeat it until state is league_completed"}, nil
}

func (h *Host) waitForTurn(ctx context.Context, req *mcp.CallToolRequest, in WaitIn) (Turn, error) {
	s := h.seatOf(req.Session.ID())
	if s == nil {
		return Turn{}, errNoSeat
	}
	wait := DefaultWait
	if in.TimeoutSeconds > 0 { // capped in seconds first: a huge count must not wrap as a Duration
		wait = time.Duration(min(in.TimeoutSeconds, int(MaxWait/time.Second))) * time.Second
	}
	return s.turns.next(ctx, wait), nil
}

func (h *Host) submitMove(_ context.Context, req *mcp.CallToolRequest, in SubmitIn) (SubmitOut, error) {
	s := h.seatOf(req.Session.ID())
	if s == nil {
		return SubmitOut{}, errNoSeat
	}
	if _, err := s.turns.submit(in.MatchID, in.Move); err != nil {
		return SubmitOut{}, err
	}
	return SubmitOut{Accepted: true, MatchID: in.MatchID, Move: in.Move, Next: "call wait_for_turn"}, nil
}

func (h *Host) getStandings(ctx context.Context, req *mcp.CallToolRequest, _ StandingsIn) (StandingsOut, error) {
	s := h.seatOf(req.Session.ID())
	if s == nil {
		return StandingsOut{}, errNoSeat
	}
	out, err := h.standings(ctx)
	out.You, _ = s.player.Identity()
	return out, err
}
