package protocol

import "github.com/leaguetui/leaguetui/engine"

// Role is the kind of agent a message is addressed to: the engine's typed
// role (engine.Role), so the journal, the manager's checks and the wire
// compare one type, and engine stays free of this package.
type Role = engine.Role

// The three roles of a league, under the names the wire code uses.
const (
	ManagerRole = engine.RoleManager
	RefereeRole = engine.RoleReferee
	PlayerRole  = engine.RolePlayer
)

// RoleSender is the sender value of the agent of this role with id; the
// manager has one sender, whatever its id.
func RoleSender(r Role, id string) string {
	if r == ManagerRole {
		return SenderManager
	}
	return string(r) + ":" + id
}

// MessageSpec is everything leaguetui knows of one league message type that
// an agent may be sent: routing, the clients' method fallback, the MCP
// catalogue and the tests' fake peers are all derived from Messages, so a new
// message type is one entry there (and its handler).
type MessageSpec struct {
	Type string // message_type
	// Methods are the method names we send it under, in the order we try
	// them: the specification's first, then what peers serve instead.
	Methods []string
	// Also are further method names peers send it under, and TypeAliases
	// further message_type spellings; routing takes them, we never send them.
	Also, TypeAliases []string
	To                []Role // the agents that serve it
	// Body is a zero value of the Go type the message decodes into, Reply
	// one of the type its answer has; the MCP schemas are built from them.
	Body, Reply any
	Tool        *ToolSpec // how the message is offered as an MCP tool; nil for none
}

// ToolSpec is what an MCP client is told of a message's tool beyond its
// schemas: the tool's name is the message's first method name.
type ToolSpec struct {
	Title, Description string
	ReadOnly           bool
	// Required are the message's own fields a call must give, beyond the
	// envelope's (protocol.md §3). Nested fields are left to the handler,
	// which decodes liberally.
	Required []string
}

// ToolName is the name of the message's MCP tool: the first method name.
func (s MessageSpec) ToolName() string {
	if len(s.Methods) > 0 {
		return s.Methods[0]
	}
	return s.Also[0]
}

var (
	toAll      = []Role{RefereeRole, PlayerRole}
	toPlayer   = []Role{PlayerRole}
	toReferee  = []Role{RefereeRole}
	toManager  = []Role{ManagerRole}
	notifyNote = "; answers an acknowledgement."
)

// Messages lists every message type an agent may be sent (protocol.md §1.1,
// §1.2, §3, §3.21).
var Messages = []MessageSpec{
	{Type: TypeRefereeRegisterRequest, Methods: []string{"register_referee"}, To: toManager,
		Body: RefereeRegisterRequest{}, Reply: RegisterResponse{},
		Tool: &ToolSpec{Title: "Register a referee", Required: []string{"referee_meta"},
			Description: "REFEREE_REGISTER_REQUEST; answers REFEREE_REGISTER_RESPONSE with the referee id and its token."}},
	{Type: TypeLeagueRegisterRequest, Methods: []string{"register_player"}, To: toManager,
		Body: LeagueRegisterRequest{}, Reply: RegisterResponse{},
		Tool: &ToolSpec{Title: "Register a player", Required: []string{"player_meta"},
			Description: "LEAGUE_REGISTER_REQUEST; answers LEAGUE_REGISTER_RESPONSE with the player id and its token, " +
				"or REJECTED with the reason."}},
	{Type: TypeRoundAnnouncement, Methods: []string{"notify_round", "ROUND_ANNOUNCEMENT"},
		Also: []string{"round_announcement", "announce_round", "receive_round_announcement"}, To: toAll,
		Body: RoundAnnouncement{}, Reply: Ack{},
		Tool: &ToolSpec{Title: "Round announced", Required: []string{"round_id", "matches"},
			Description: "ROUND_ANNOUNCEMENT from the manager: the round's matches" + notifyNote}},
	{Type: TypeGameInvitation, Methods: []string{"handle_game_invitation", "GAME_INVITATION", "game_invitation"},
		Also: []string{"receive_game_invitation", "accept_game"}, To: toPlayer,
		Body: GameInvitation{}, Reply: GameJoinAck{},
		Tool: &ToolSpec{Title: "Join a match", Required: []string{"match_id", "game_type", "role_in_match", "opponent_id"},
			Description: "GAME_INVITATION from the referee; answers GAME_JOIN_ACK with accept true or false."}},
	{Type: TypeChooseParityCall, Methods: []string{"choose_parity", "parity_choose", "CHOOSE_PARITY_CALL"},
		Also: []string{"choose_parity_call", "receive_choose_parity_call"}, To: toPlayer,
		Body: MoveCall{}, Reply: MoveAnswer{},
		Tool: &ToolSpec{Title: "Choose a move", Required: []string{"match_id", "player_id", "game_type", "context"},
			Description: "CHOOSE_PARITY_CALL from the referee; answers CHOOSE_PARITY_RESPONSE with parity_choice. " +
				"Asked twice for the same match, the player gives the same move."}},
	{Type: TypeGameMoveCall, Methods: []string{"game_move_call", "GAME_MOVE_CALL", "make_move"}, To: toPlayer,
		Body: MoveCall{}, Reply: GameMoveResponse{},
		Tool: &ToolSpec{Title: "Make a game's move", Required: []string{"match_id", "player_id", "game_type", "move_request"},
			Description: "GAME_MOVE_CALL from the referee, for any game whose move is not choose_parity; answers " +
				"GAME_MOVE_RESPONSE with move_data {move_type, choice}. Asked twice for the same turn, the player gives the same move."}},
	{Type: TypeGameOver, Methods: []string{"notify_match_result", "GAME_OVER", "game_over"},
		Also: []string{"receive_game_over"}, To: toPlayer, Body: GameOver{}, Reply: Ack{},
		Tool: &ToolSpec{Title: "Match result", Required: []string{"match_id", "game_type", "game_result"},
			Description: "GAME_OVER from the referee, the same message to both players" + notifyNote}},
	{Type: TypeMatchResultReport, Methods: []string{"report_match_result", "MATCH_RESULT_REPORT"},
		Also: []string{"match_result_report"}, To: toManager, Body: MatchResultReport{}, Reply: Ack{},
		Tool: &ToolSpec{Title: "Report a result", Required: []string{"round_id", "match_id", "game_type", "result"},
			Description: "MATCH_RESULT_REPORT from the match's referee, with its token; answers MATCH_RESULT_ACK."}},
	{Type: TypeStandingsUpdate, Methods: []string{"update_standings", "LEAGUE_STANDINGS_UPDATE"},
		Also: []string{"league_standings_update", "receive_standings_update"}, To: toAll,
		Body: StandingsUpdate{}, Reply: Ack{},
		Tool: &ToolSpec{Title: "Standings", Required: []string{"standings"},
			Description: "LEAGUE_STANDINGS_UPDATE from the manager after a round" + notifyNote}},
	{Type: TypeRoundCompleted, Methods: []string{"notify_round_completed", "ROUND_COMPLETED"},
		Also: []string{"round_completed"}, To: toAll, Body: RoundCompleted{}, Reply: Ack{},
		Tool: &ToolSpec{Title: "Round completed", Required: []string{"round_id"},
			Description: "ROUND_COMPLETED from the manager" + notifyNote}},
	{Type: TypeLeagueCompleted, Methods: []string{"notify_league_completed", "LEAGUE_COMPLETED"},
		Also: []string{"league_completed"}, To: toAll, Body: LeagueCompleted{}, Reply: Ack{},
		Tool: &ToolSpec{Title: "League completed",
			Description: "LEAGUE_COMPLETED from the manager; answers an acknowledgement and the agent winds down."}},
	{Type: TypeGameError, Methods: []string{"notify_game_error", "GAME_ERROR"},
		Also: []string{"game_error"}, To: toPlayer, Body: GameError{}, Reply: Ack{},
		Tool: &ToolSpec{Title: "Game error", Required: []string{"match_id", "error_code"},
			Description: "GAME_ERROR from the referee: an answer failed and will be asked again, or a technical loss."}},
	{Type: TypeLeagueQuery, Methods: []string{"league_query"}, To: toManager,
		Body: LeagueQuery{}, Reply: LeagueQueryResponse{},
		Tool: &ToolSpec{Title: "Query the league", ReadOnly: true, Required: []string{"query_type"},
			Description: "LEAGUE_QUERY from a registered player or referee, with its token; answers LEAGUE_QUERY_RESPONSE."}},
	// run_match is taken, never sent: another implementation serves a
	// tool of that name that means something else.
	{Type: TypeStartMatch, Methods: []string{"start_match", "START_MATCH"},
		Also: []string{"run_match", "assign_match", "match_assignment"}, TypeAliases: []string{"RUN_MATCH", "MATCH_ASSIGNMENT"},
		To: toReferee, Body: StartMatch{}, Reply: Ack{},
		Tool: &ToolSpec{Title: "Run a match",
			Required: []string{"match_id", "game_type", "player_A_id", "player_B_id", "player_A_endpoint", "player_B_endpoint"},
			Description: "START_MATCH from the manager: the referee acknowledges at once, plays the match with " +
				"both players and reports the result to the manager with report_match_result."}},
	{Type: TypeGameJoinAck, Also: []string{"receive_game_join_ack", "game_join_ack"}, To: toReferee,
		Body: GameJoinAck{}, Reply: Ack{},
		Tool: &ToolSpec{Title: "Late join", Required: []string{"match_id", "player_id", "accept"},
			Description: "GAME_JOIN_ACK that a player posts back instead of answering the invitation inline."}},
	{Type: TypeChooseParityResponse, Also: []string{"receive_parity_response", "choose_parity_response"},
		TypeAliases: []string{"RESPONSE_PARITY_CHOOSE", "PARITY_CHOICE"}, To: toReferee,
		Body: MoveAnswer{}, Reply: Ack{},
		Tool: &ToolSpec{Title: "Late move", Required: []string{"match_id", "player_id", "parity_choice"},
			Description: "CHOOSE_PARITY_RESPONSE that a player posts back instead of answering the call inline."}},
	{Type: TypeGameMoveResponse, Also: []string{"game_move_response"}, To: toReferee,
		Body: GameMoveResponse{}, Reply: Ack{}},
	{Type: TypeMatchStep, Methods: []string{"report_match_step"}, To: toManager, Body: MatchStep{}, Reply: Ack{},
		Tool: &ToolSpec{Title: "Match progress", Required: []string{"match_id", "step"},
			Description: "MATCH_STEP from a referee (leaguetui's own): a match moved on" + notifyNote}},
	adminMessage(TypeStartLeague, "start_league", "Start the league", "fixes the seed and the schedule and plays the league"),
	adminMessage(TypePauseLeague, "pause_league", "Pause the league", "running matches finish; no new one starts"),
	adminMessage(TypeResumeLeague, "resume_league", "Resume the league", "a paused league carries on"),
	adminMessage(TypeStopLeague, "stop_league", "Stop the league", "running matches are abandoned; the league ends"),
	// Every agent's JSON-RPC server answers PING itself, whatever its role.
	{Type: TypePing, Also: []string{"ping"}, Body: Envelope{}, Reply: Ack{}},
}

func adminMessage(messageType, method, title, what string) MessageSpec {
	return MessageSpec{Type: messageType, Methods: []string{method}, To: toManager, Body: StartLeague{}, Reply: Ack{},
		Tool: &ToolSpec{Title: title, Description: messageType + ": " + what + ". Needs the admin token in auth_token."}}
}

// ServedBy lists the message types agents of role serve, in table order.
func ServedBy(role Role) []string {
	var out []string
	for _, m := range Messages {
		for _, r := range m.To {
			if r == role {
				out = append(out, m.Type)
			}
		}
	}
	return out
}

// Spec returns the table's entry for a message type.
func Spec(messageType string) (MessageSpec, bool) {
	m, ok := specs[messageType]
	return m, ok
}

var specs = func() map[string]MessageSpec {
	out := make(map[string]MessageSpec, len(Messages))
	for _, m := range Messages {
		out[m.Type] = m
	}
	return out
}()
