package protocol

// Message types of the specification (protocol.md §3), and the few of our own
// that other implementations never need to send (marked).
const (
	TypeRefereeRegisterRequest  = "REFEREE_REGISTER_REQUEST"
	TypeRefereeRegisterResponse = "REFEREE_REGISTER_RESPONSE"
	TypeLeagueRegisterRequest   = "LEAGUE_REGISTER_REQUEST"
	TypeLeagueRegisterResponse  = "LEAGUE_REGISTER_RESPONSE"
	TypeRoundAnnouncement       = "ROUND_ANNOUNCEMENT"
	TypeGameInvitation          = "GAME_INVITATION"
	TypeGameJoinAck             = "GAME_JOIN_ACK"
	TypeChooseParityCall        = "CHOOSE_PARITY_CALL"
	TypeChooseParityResponse    = "CHOOSE_PARITY_RESPONSE"
	TypeGameOver                = "GAME_OVER"
	TypeMatchResultReport       = "MATCH_RESULT_REPORT"
	TypeStandingsUpdate         = "LEAGUE_STANDINGS_UPDATE"
	TypeRoundCompleted          = "ROUND_COMPLETED"
	TypeLeagueCompleted         = "LEAGUE_COMPLETED"
	TypeGameError               = "GAME_ERROR"
	TypeLeagueError             = "LEAGUE_ERROR"
	TypeLeagueQuery             = "LEAGUE_QUERY"
	TypeLeagueQueryResponse     = "LEAGUE_QUERY_RESPONSE"
	TypeGameMoveCall            = "GAME_MOVE_CALL"
	TypeGameMoveResponse        = "GAME_MOVE_RESPONSE"

	// Not in the specification; peers use them and so do we.
	TypeStartMatch     = "START_MATCH"      // manager -> referee: run this match now
	TypeStartLeague    = "START_LEAGUE"     // admin -> manager
	TypePauseLeague    = "PAUSE_LEAGUE"     // admin -> manager
	TypeResumeLeague   = "RESUME_LEAGUE"    // admin -> manager
	TypeStopLeague     = "STOP_LEAGUE"      // admin -> manager
	TypeMatchStep      = "MATCH_STEP"       // referee -> manager: a match moved on (ours)
	TypeMatchResultAck = "MATCH_RESULT_ACK" // manager's reply to a report
	TypePing           = "PING"
)

// AgentMeta describes a registering referee or player.
type AgentMeta struct {
	DisplayName          string   `json:"display_name"`
	Version              string   `json:"version"`
	GameTypes            []string `json:"game_types" jsonschema:"games it plays, e.g. [\"even_odd\"]"`
	ContactEndpoint      string   `json:"contact_endpoint" jsonschema:"its /mcp URL"`
	MaxConcurrentMatches int      `json:"max_concurrent_matches,omitempty" jsonschema:"matches a referee runs at once"`
	ProtocolVersion      string   `json:"protocol_version,omitempty" jsonschema:"e.g. 2.1.0"`
	// RefereeKey is the key the league's admin gives its referees: a
	// referee presents it to be admitted (an extra of leaguetui's).
	RefereeKey string `json:"referee_key,omitempty" jsonschema:"the key the league's admin gave its referees"`
	// MatchTickets, for a referee, says it sends each player the ticket
	// its start_match carries (an extra of leaguetui's; see agents/ticket).
	MatchTickets bool `json:"match_tickets,omitempty"`
	// RejoinToken is a secret of the agent's own, saved before it first
	// registers (an extra of leaguetui's): should it die before it saves
	// the token this registration issues, it registers again with this
	// one as its auth_token, and the manager, which kept its hash, gives
	// it its id back. Ignored when the agent registers again.
	RejoinToken string `json:"rejoin_token,omitempty"`
	// JoinCode is the code the organiser of a league leaguetui starts
	// handed the author of an external roster entry: the entry's name
	// registers only with it (an extra of leaguetui's).
	JoinCode string `json:"join_code,omitempty" jsonschema:"the join code of an external roster entry, from its organiser"`
}

// MinRejoinToken is the least length of a RejoinToken a manager keeps: a
// secret, not a word.
const MinRejoinToken = 32

// RefereeRegisterRequest: referee -> manager, method register_referee.
type RefereeRegisterRequest struct {
	Envelope
	RefereeMeta AgentMeta `json:"referee_meta" jsonschema:"who registers"`
}

// LeagueRegisterRequest: player -> manager, method register_player.
type LeagueRegisterRequest struct {
	Envelope
	PlayerMeta AgentMeta `json:"player_meta" jsonschema:"who registers"`
	// JoinCode is taken here too, beside the envelope, for a player that
	// puts it there rather than in player_meta.
	JoinCode string `json:"join_code,omitempty" jsonschema:"the join code, when not in player_meta"`
}

// RegisterResponse is REFEREE_REGISTER_RESPONSE or LEAGUE_REGISTER_RESPONSE.
// The issued token travels in AuthToken, the league in LeagueID.
type RegisterResponse struct {
	Envelope
	Status    string  `json:"status"` // ACCEPTED or REJECTED
	RefereeID string  `json:"referee_id,omitempty"`
	PlayerID  string  `json:"player_id,omitempty"`
	Reason    *string `json:"reason"`
	// ManagerKey is what the manager presents as the auth_token of what
	// changes the agent: a referee's start_match, every agent's
	// notify_league_completed; the agent takes those from its own manager
	// only (an extra of leaguetui's).
	ManagerKey string `json:"manager_key,omitempty"`
	// MatchTicketKey, for a player, is the key its match tickets are
	// made with: a player given one takes match calls only with a valid
	// ticket (an extra of leaguetui's; see agents/ticket).
	MatchTicketKey string `json:"match_ticket_key,omitempty"`
}

// AgentID is the id the answer gives the agent that registered, whatever
// its role: each role's answer names it in its own field.
func (r *RegisterResponse) AgentID() string {
	if r.PlayerID != "" {
		return r.PlayerID
	}
	return r.RefereeID
}

// Registration statuses.
const (
	StatusAccepted = "ACCEPTED"
	StatusRejected = "REJECTED"
)

// AnnouncedMatch is one match of a round as announced. The endpoints and
// referee id are extras that referees of other implementations rely on.
type AnnouncedMatch struct {
	MatchID         string `json:"match_id"`
	GameType        string `json:"game_type"`
	PlayerAID       string `json:"player_A_id"`
	PlayerBID       string `json:"player_B_id"`
	RefereeEndpoint string `json:"referee_endpoint" jsonschema:"the referee's /mcp URL"`
	RefereeID       string `json:"referee_id,omitempty"`
	PlayerAEndpoint string `json:"player_A_endpoint,omitempty"`
	PlayerBEndpoint string `json:"player_B_endpoint,omitempty"`
}

// RoundAnnouncement: manager -> players and referees, method notify_round.
type RoundAnnouncement struct {
	Envelope
	Matches []AnnouncedMatch `json:"matches" jsonschema:"the round's matches"`
}

// StartMatch: manager -> referee, method start_match (ours; peers use
// start_match, run_match or assign_match). The referee answers at once with
// an Ack and reports the result later with report_match_result.
type StartMatch struct {
	Envelope
	GameType        string `json:"game_type" jsonschema:"the game, e.g. even_odd"`
	RefereeID       string `json:"referee_id"`
	PlayerAID       string `json:"player_A_id"`
	PlayerBID       string `json:"player_B_id"`
	PlayerAEndpoint string `json:"player_A_endpoint" jsonschema:"player A's /mcp URL"`
	PlayerBEndpoint string `json:"player_B_endpoint" jsonschema:"player B's /mcp URL"`
	// LeagueSeed lets the referee derive the draw from the seed and the match
	// id, so the same seed gives the same results whatever the concurrency.
	LeagueSeed int64 `json:"league_seed" jsonschema:"the league's seed; the draw derives from it and the match id"`
	// Standings gives each player's record so far, for the move call's
	// context.your_standings.
	Standings map[string]Standing `json:"standings,omitempty" jsonschema:"each player's record so far"`
	// PlayerATicket and PlayerBTicket are the players' match tickets: the
	// referee sends each its own as the auth_token of every message to it
	// (an extra of leaguetui's; see agents/ticket).
	PlayerATicket string `json:"player_A_ticket,omitempty"`
	PlayerBTicket string `json:"player_B_ticket,omitempty"`
}

// GameInvitation: referee -> player, method handle_game_invitation.
type GameInvitation struct {
	Envelope
	GameType    string `json:"game_type" jsonschema:"the game, e.g. even_odd"`
	RoleInMatch string `json:"role_in_match" jsonschema:"the addressee's seat: PLAYER_A or PLAYER_B"` // PLAYER_A or PLAYER_B
	OpponentID  string `json:"opponent_id" jsonschema:"the other player's id"`
	PlayerID    string `json:"player_id,omitempty" jsonschema:"the addressee's id"` // the addressee; an extra
}

// Roles in a match.
const (
	RolePlayerA = "PLAYER_A"
	RolePlayerB = "PLAYER_B"
)

// GameJoinAck: player -> referee, the result of handle_game_invitation.
type GameJoinAck struct {
	Envelope
	PlayerID         string `json:"player_id"`
	ArrivalTimestamp string `json:"arrival_timestamp"`
	Accept           bool   `json:"accept" jsonschema:"joins the match"`
}

// Standing is a player's record as the referee tells it in a move call.
type Standing struct {
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Draws  int `json:"draws"`
}

// MoveContext is what a player is told when asked for a move.
type MoveContext struct {
	OpponentID    string   `json:"opponent_id" jsonschema:"the other player's id"`
	RoundID       RoundID  `json:"round_id"`
	YourStandings Standing `json:"your_standings" jsonschema:"the addressee's record so far"`
}

// MoveRequest is the generic description of a move (GAME_MOVE_CALL); we add it
// to CHOOSE_PARITY_CALL too, so a player can answer any game without knowing it.
type MoveRequest struct {
	MoveType     string         `json:"move_type" jsonschema:"the move's name, e.g. choose_parity"`
	ValidOptions []string       `json:"valid_options,omitempty" jsonschema:"the legal moves, when the game lists them"`
	Turn         int            `json:"turn,omitempty" jsonschema:"1 for the match's first move"`                // GAME_MOVE_CALL: 1 for the match's first move
	Context      map[string]any `json:"context,omitempty" jsonschema:"what the game shows the player this turn"` // GAME_MOVE_CALL: what the game shows the player this turn
}

// ParityMoveType is even/odd's move type, the one league.v2 gives messages
// of its own (CHOOSE_PARITY_CALL and CHOOSE_PARITY_RESPONSE); every other
// move type travels in GAME_MOVE_CALL and GAME_MOVE_RESPONSE (protocol.md
// §3.19).
const ParityMoveType = "choose_parity"

// MoveMessages are the message types of one move type: the call that asks
// for a move and the answer that carries it.
type MoveMessages struct {
	Call, Answer string
}

// MovesOf is the call and the answer of moveType.
func MovesOf(moveType string) MoveMessages {
	if moveType == ParityMoveType {
		return MoveMessages{Call: TypeChooseParityCall, Answer: TypeChooseParityResponse}
	}
	return MoveMessages{Call: TypeGameMoveCall, Answer: TypeGameMoveResponse}
}

// MoveCallType is the message type that asks for a move of moveType.
func MoveCallType(moveType string) string { return MovesOf(moveType).Call }

// IsMoveAnswer says a message type carries a move, of whatever game: a
// player may send either form (ReadMove reads both), posted back or inline.
func IsMoveAnswer(messageType string) bool {
	return messageType == TypeChooseParityResponse || messageType == TypeGameMoveResponse
}

// ParityMoveRequest is what a CHOOSE_PARITY_CALL without a move_request
// asks for.
func ParityMoveRequest() MoveRequest {
	return MoveRequest{MoveType: ParityMoveType, ValidOptions: []string{"even", "odd"}}
}

// MoveCall: referee -> player, asking for a move in any game: even/odd's
// CHOOSE_PARITY_CALL (method choose_parity) and every other game's
// GAME_MOVE_CALL (method game_move_call), which have the same fields.
type MoveCall struct {
	Envelope
	PlayerID    string       `json:"player_id" jsonschema:"the addressee's id"`
	GameType    string       `json:"game_type" jsonschema:"the game, e.g. even_odd"`
	Context     MoveContext  `json:"context" jsonschema:"what the player knows of the match"`
	Deadline    string       `json:"deadline" jsonschema:"answer before this UTC time"`
	MoveRequest *MoveRequest `json:"move_request,omitempty" jsonschema:"the move asked for"`
}

// MoveAnswer: player -> referee, the move a MoveCall asked for, in any
// game: the result of choose_parity (CHOOSE_PARITY_RESPONSE); Decode also
// reads a GAME_MOVE_RESPONSE into it (move_data.choice).
type MoveAnswer struct {
	Envelope
	PlayerID string `json:"player_id"`
	Choice   string `json:"parity_choice" jsonschema:"the move, e.g. even or odd"`
	// Read from a GAME_MOVE_RESPONSE's move_data: whether it had one (an
	// empty choice in it is an answer without a move) and its move_type.
	HasMoveData bool   `json:"-"`
	MoveType    string `json:"-"`
	// Model is what a model player says of its move; nil from others.
	Model *ModelMove `json:"model,omitempty"`
}

// GameMoveResponse: player -> referee, the result of game_move_call.
type GameMoveResponse struct {
	Envelope
	PlayerID string   `json:"player_id"`
	MoveData MoveData `json:"move_data"`
	// Model is what a model player says of its move; nil from others.
	Model *ModelMove `json:"model,omitempty"`
}

// MoveData is the move a GAME_MOVE_RESPONSE carries.
type MoveData struct {
	MoveType string `json:"move_type"`
	Choice   string `json:"choice"`
}

// GameResult is the outcome inside GAME_OVER. Details holds the game's own
// facts (even/odd: drawn_number, number_parity); they are written flat beside
// the common fields, where the specification puts them.
type GameResult struct {
	Status         string            `json:"status" jsonschema:"how the match ended: WIN, DRAW or TECHNICAL_LOSS"`
	WinnerPlayerID *string           `json:"winner_player_id" jsonschema:"the winner, null for a draw"`
	Choices        map[string]string `json:"choices" jsonschema:"each player's move"`
	Reason         string            `json:"reason" jsonschema:"a sentence on the outcome"`
	Details        map[string]any    `json:"-"`
}

// GameOver: referee -> both players, method notify_match_result.
type GameOver struct {
	Envelope
	GameType   string     `json:"game_type" jsonschema:"the game, e.g. even_odd"`
	GameResult GameResult `json:"game_result" jsonschema:"the outcome; the game's own facts (even/odd: drawn_number, number_parity) beside these fields"`
	Reason     string     `json:"reason,omitempty" jsonschema:"why the match ended so"` // the SPEC puts it here too
}

// ReportDetails is the detail of a reported result. Game facts are flat
// beside the common fields, as in GAME_OVER.
type ReportDetails struct {
	Choices         map[string]string `json:"choices" jsonschema:"each player's move"`
	TechnicalLoss   bool              `json:"technical_loss,omitempty"`
	Reason          string            `json:"reason,omitempty"`
	OffendingPlayer string            `json:"offending_player,omitempty"`
	Offenders       []string          `json:"offending_players,omitempty"`
	Game            map[string]any    `json:"-"`
}

// ReportResult is the result inside MATCH_RESULT_REPORT.
type ReportResult struct {
	Winner  *string        `json:"winner" jsonschema:"the winner, null for a draw"`
	Score   map[string]int `json:"score" jsonschema:"points per player"`
	Details ReportDetails  `json:"details" jsonschema:"choices and the game's facts"`
	Status  string         `json:"status,omitempty" jsonschema:"WIN, DRAW or TECHNICAL_LOSS"`
}

// MatchResultReport: referee -> manager, method report_match_result.
type MatchResultReport struct {
	Envelope
	GameType string       `json:"game_type"`
	Result   ReportResult `json:"result" jsonschema:"the outcome"`
	// Steps are the match's steps the referee had not yet sent by
	// MATCH_STEP, in the order they happened (an extra of leaguetui's: a
	// manager applies them before the result, as if a MATCH_STEP had
	// brought them first, so a short match costs no exchange for them).
	// They are of this match only, at most MaxStepsPerMessage.
	Steps []StepEntry `json:"match_steps,omitempty" jsonschema:"the match's last steps, oldest first (leaguetui's)"`
}

// StandingRow is one line of the standings on the wire.
type StandingRow struct {
	Rank            int    `json:"rank"`
	PlayerID        string `json:"player_id"`
	DisplayName     string `json:"display_name"`
	Played          int    `json:"played"`
	Wins            int    `json:"wins"`
	Draws           int    `json:"draws"`
	Losses          int    `json:"losses"`
	TechnicalLosses int    `json:"technical_losses"`
	Points          int    `json:"points"`
	Status          string `json:"status,omitempty"` // SUSPENDED for a suspended player (ours)
}

// StandingsUpdate: manager -> players, method update_standings.
type StandingsUpdate struct {
	Envelope
	Standings []StandingRow `json:"standings" jsonschema:"rows by rank"`
}

// RoundSummary counts a finished round's outcomes.
type RoundSummary struct {
	TotalMatches    int `json:"total_matches"`
	Wins            int `json:"wins"`
	Draws           int `json:"draws"`
	TechnicalLosses int `json:"technical_losses"`
}

// RoundCompleted: manager -> players, method notify_round_completed.
// MatchesCompleted and MatchesPlayed carry the same number under both names
// the specification uses.
type RoundCompleted struct {
	Envelope
	MatchesCompleted int          `json:"matches_completed"`
	MatchesPlayed    int          `json:"matches_played"`
	NextRoundID      *int         `json:"next_round_id" jsonschema:"null after the last round"`
	Summary          RoundSummary `json:"summary" jsonschema:"the round's outcomes"`
}

// Champion is the league winner.
type Champion struct {
	PlayerID    string `json:"player_id"`
	DisplayName string `json:"display_name"`
	Points      int    `json:"points"`
}

// LeagueCompleted: manager -> all agents, method notify_league_completed.
type LeagueCompleted struct {
	Envelope
	TotalRounds    int           `json:"total_rounds"`
	TotalMatches   int           `json:"total_matches"`
	Champion       Champion      `json:"champion" jsonschema:"the winner"`
	FinalStandings []StandingRow `json:"final_standings" jsonschema:"rows by rank"`
}

// Query types of LEAGUE_QUERY, the specification's and the peers' extras.
const (
	QueryStandings   = "GET_STANDINGS"
	QuerySchedule    = "GET_SCHEDULE"
	QueryNextMatch   = "GET_NEXT_MATCH"
	QueryPlayerStats = "GET_PLAYER_STATS"
	QueryPlayers     = "GET_PLAYERS"
	QueryStatus      = "GET_STATUS"
)

// LeagueQuery: player or referee -> manager, method league_query.
type LeagueQuery struct {
	Envelope
	QueryType   string         `json:"query_type" jsonschema:"GET_STANDINGS, GET_SCHEDULE, GET_NEXT_MATCH, GET_PLAYER_STATS, GET_PLAYERS or GET_STATUS"`
	QueryParams map[string]any `json:"query_params,omitempty" jsonschema:"e.g. {\"player_id\":\"P01\"}"`
}

// LeagueQueryResponse is the result of league_query. For GET_STANDINGS the
// rows go both in data.standings and at the top level, as SPEC 8.11.1 shows.
type LeagueQueryResponse struct {
	Envelope
	QueryType string        `json:"query_type"`
	Success   bool          `json:"success"`
	Data      any           `json:"data"`
	Standings []StandingRow `json:"standings,omitempty"`
	Error     string        `json:"error,omitempty"`
}

// RetryInfo is the retry state a GAME_ERROR carries.
type RetryInfo struct {
	RetryCount  int    `json:"retry_count"`
	MaxRetries  int    `json:"max_retries"`
	NextRetryAt string `json:"next_retry_at,omitempty"`
}

// GameError: referee -> player, method notify_game_error, sent before a retry
// and when a player is given a technical loss. Fields of both SPEC shapes.
type GameError struct {
	Envelope
	ErrorCode        string    `json:"error_code" jsonschema:"E001, E004, …"`
	ErrorName        string    `json:"error_name"`
	ErrorDescription string    `json:"error_description"`
	AffectedPlayer   string    `json:"affected_player"`
	PlayerID         string    `json:"player_id"`
	ActionRequired   string    `json:"action_required,omitempty"`
	GameState        string    `json:"game_state,omitempty"`
	Retryable        bool      `json:"retryable"`
	RetryCount       int       `json:"retry_count"`
	MaxRetries       int       `json:"max_retries"`
	RetryInfo        RetryInfo `json:"retry_info"`
	Consequence      string    `json:"consequence,omitempty"`
}

// MatchStep: referee -> manager, method report_match_step (ours; other
// referees need not send it). It lets the console show a match's progress.
type MatchStep struct {
	Envelope
	Step   string `json:"step" jsonschema:"invited, joined, choosing, drawn N, finished"` // invited, joined, choosing, drawn N / decided, finished
	Detail string `json:"detail,omitempty"`
	// Steps, when present, are several steps sent in one message, of one
	// or more of the referee's matches, in the order they happened. The
	// envelope's match_id and round_id, Step and Detail are then the last
	// of them, for a manager that reads only those.
	Steps []StepEntry `json:"steps,omitempty"`
}

// MaxStepsPerMessage bounds the steps one MatchStep or MatchResultReport
// may carry.
const MaxStepsPerMessage = 1024

// StepEntry is one step of a batched MatchStep or of a MatchResultReport.
type StepEntry struct {
	RoundID RoundID `json:"round_id,omitempty"`
	MatchID string  `json:"match_id"`
	Step    string  `json:"step"`
	Detail  string  `json:"detail,omitempty"`
}

// StartLeague: admin -> manager, method start_league; AuthToken is the admin token.
type StartLeague struct {
	Envelope
}

// Ack is the small reply to a notification (the SPEC sample: {"status":"ok"}),
// with the full envelope so strict peers find what they look for.
type Ack struct {
	Envelope
	Status string `json:"status"`
}
