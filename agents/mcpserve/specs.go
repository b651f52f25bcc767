package mcpserve

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// fields is a message's own properties.
type fields = map[string]*jsonschema.Schema

// specs is the tool table: one tool per league message type an agent
// serves, with the fields protocol.md §3 marks required. The names are the
// specification's method names, the first of protocol.SendMethods, so our
// own client's tools/call fallback calls them by the right name.
func specs() []spec {
	return []spec{
		// Player tools: what a referee and the manager call on a player.
		{name: "handle_game_invitation", messageType: protocol.TypeGameInvitation, title: "Join a match",
			description: "GAME_INVITATION from the referee; answers GAME_JOIN_ACK with accept true or false.",
			fields: fields{"game_type": str("the game, e.g. even_odd"),
				"role_in_match": enum("the addressee's seat", protocol.RolePlayerA, protocol.RolePlayerB),
				"opponent_id":   str("the other player's id"), "player_id": str("the addressee's id")},
			required: []string{"match_id", "game_type", "role_in_match", "opponent_id"}},
		{name: "choose_parity", messageType: protocol.TypeChooseParityCall, title: "Choose a move",
			description: "CHOOSE_PARITY_CALL from the referee; answers CHOOSE_PARITY_RESPONSE with parity_choice. " +
				"Asked twice for the same match, the player gives the same move.",
			fields: moveCallFields(object("the generic description of the move", fields{
				"move_type":     str("e.g. choose_parity"),
				"valid_options": arrayOf("the moves allowed", str("")),
			})),
			required: []string{"match_id", "player_id", "game_type", "context"}},
		{name: "game_move_call", messageType: protocol.TypeGameMoveCall, title: "Make a game's move",
			description: "GAME_MOVE_CALL from the referee, for any game whose move is not choose_parity; answers " +
				"GAME_MOVE_RESPONSE with move_data {move_type, choice}. Asked twice for the same turn, the player gives the same move.",
			fields: moveCallFields(object("the move asked for", fields{
				"move_type":     str("the move's name"),
				"valid_options": arrayOf("the legal moves, when the game lists them", str("")),
				"turn":          integer("1 for the match's first move"),
				"context":       object("what the game shows the player this turn", nil),
			}, "move_type")),
			required: []string{"match_id", "player_id", "game_type", "move_request"}},
		{name: "notify_match_result", messageType: protocol.TypeGameOver, title: "Match result",
			description: "GAME_OVER from the referee, the same message to both players; answers an acknowledgement.",
			fields: fields{"game_type": str("the game, e.g. even_odd"), "reason": str("why the match ended so"),
				"game_result": object("the outcome", fields{
					"status":           enum("how the match ended", "WIN", "DRAW", "TECHNICAL_LOSS"),
					"winner_player_id": nullable("string", "the winner, null for a draw"),
					"choices":          mapOf("each player's move", str("")),
					"reason":           str("a sentence on the outcome"),
					"drawn_number":     nullable("integer", "even/odd: the number drawn, 1 to 10"),
					"number_parity":    str("even/odd: the drawn number's parity"),
				}, "status")},
			required: []string{"match_id", "game_type", "game_result"}},

		// Notifications from the manager (players and referees) and from the referee.
		{name: "notify_round", messageType: protocol.TypeRoundAnnouncement, title: "Round announced",
			description: "ROUND_ANNOUNCEMENT from the manager: the round's matches; answers an acknowledgement.",
			fields: fields{"matches": arrayOf("the round's matches", object("one match", fields{
				"match_id": str(""), "game_type": str(""), "player_A_id": str(""), "player_B_id": str(""),
				"referee_endpoint": str("the referee's /mcp URL"), "referee_id": str(""),
				"player_A_endpoint": str(""), "player_B_endpoint": str(""),
			}, "match_id", "game_type", "player_A_id", "player_B_id", "referee_endpoint"))},
			required: []string{"round_id", "matches"}},
		{name: "update_standings", messageType: protocol.TypeStandingsUpdate, title: "Standings",
			description: "LEAGUE_STANDINGS_UPDATE from the manager after a round; answers an acknowledgement.",
			fields:      fields{"standings": arrayOf("rows by rank", standingRow())},
			required:    []string{"standings"}},
		{name: "notify_round_completed", messageType: protocol.TypeRoundCompleted, title: "Round completed",
			description: "ROUND_COMPLETED from the manager; answers an acknowledgement.",
			fields: fields{"matches_completed": integer(""), "matches_played": integer(""),
				"next_round_id": nullable("integer", "null after the last round"),
				"summary": object("the round's outcomes", fields{"total_matches": integer(""), "wins": integer(""),
					"draws": integer(""), "technical_losses": integer("")})},
			required: []string{"round_id"}},
		{name: "notify_league_completed", messageType: protocol.TypeLeagueCompleted, title: "League completed",
			description: "LEAGUE_COMPLETED from the manager; answers an acknowledgement and the agent winds down.",
			fields: fields{"total_rounds": integer(""), "total_matches": integer(""),
				"champion": object("the winner", fields{"player_id": str(""), "display_name": str(""),
					"points": integer("")}),
				"final_standings": arrayOf("rows by rank", standingRow())}},
		{name: "notify_game_error", messageType: protocol.TypeGameError, title: "Game error",
			description: "GAME_ERROR from the referee: an answer failed and will be asked again, or a technical loss.",
			fields: fields{"error_code": str("E001, E004, …"), "error_name": str(""), "error_description": str(""),
				"affected_player": str(""), "player_id": str(""), "action_required": str(""),
				"retryable": boolean(""), "retry_count": integer(""), "max_retries": integer("")},
			required: []string{"match_id", "error_code"}},

		// Referee tools.
		{name: "start_match", messageType: protocol.TypeStartMatch, title: "Run a match",
			description: "START_MATCH from the manager: the referee acknowledges at once, plays the match with " +
				"both players and reports the result to the manager with report_match_result.",
			fields: fields{"game_type": str("the game, e.g. even_odd"), "referee_id": str(""),
				"player_A_id": str(""), "player_B_id": str(""),
				"player_A_endpoint": str("player A's /mcp URL"), "player_B_endpoint": str("player B's /mcp URL"),
				"league_seed": integer("the league's seed; the draw derives from it and the match id"),
				"standings":   mapOf("each player's record so far", object("", nil))},
			required: []string{"match_id", "game_type", "player_A_id", "player_B_id", "player_A_endpoint", "player_B_endpoint"}},
		{name: "receive_game_join_ack", messageType: protocol.TypeGameJoinAck, title: "Late join",
			description: "GAME_JOIN_ACK that a player posts back instead of answering the invitation inline.",
			fields:      fields{"player_id": str(""), "arrival_timestamp": str(""), "accept": boolean("joins the match")},
			required:    []string{"match_id", "player_id", "accept"}},
		{name: "receive_parity_response", messageType: protocol.TypeChooseParityResponse, title: "Late move",
			description: "CHOOSE_PARITY_RESPONSE that a player posts back instead of answering the call inline.",
			fields:      fields{"player_id": str(""), "parity_choice": str("the move, e.g. even or odd")},
			required:    []string{"match_id", "player_id", "parity_choice"}},

		// Manager tools.
		{name: "register_player", messageType: protocol.TypeLeagueRegisterRequest, title: "Register a player",
			description: "LEAGUE_REGISTER_REQUEST; answers LEAGUE_REGISTER_RESPONSE with the player id and its token, " +
				"or REJECTED with the reason.",
			fields: fields{"player_meta": agentMeta(false)}, required: []string{"player_meta"}},
		{name: "register_referee", messageType: protocol.TypeRefereeRegisterRequest, title: "Register a referee",
			description: "REFEREE_REGISTER_REQUEST; answers REFEREE_REGISTER_RESPONSE with the referee id and its token.",
			fields:      fields{"referee_meta": agentMeta(true)}, required: []string{"referee_meta"}},
		{name: "report_match_result", messageType: protocol.TypeMatchResultReport, title: "Report a result",
			description: "MATCH_RESULT_REPORT from the match's referee, with its token; answers MATCH_RESULT_ACK.",
			fields: fields{"game_type": str(""), "result": object("the outcome", fields{
				"winner": nullable("string", "the winner, null for a draw"),
				"score":  mapOf("points per player", integer("")),
				"status": enum("", "WIN", "DRAW", "TECHNICAL_LOSS"),
				"details": object("choices and the game's facts", fields{
					"choices": mapOf("", str(""))}),
			}, "winner", "score")},
			required: []string{"round_id", "match_id", "game_type", "result"}},
		{name: "report_match_step", messageType: protocol.TypeMatchStep, title: "Match progress",
			description: "MATCH_STEP from a referee (leaguetui's own): a match moved on; answers an acknowledgement.",
			fields:      fields{"step": str("invited, joined, choosing, drawn N, finished"), "detail": str("")},
			required:    []string{"match_id", "step"}},
		{name: "league_query", messageType: protocol.TypeLeagueQuery, title: "Query the league", readOnly: true,
			description: "LEAGUE_QUERY from a registered player or referee, with its token; answers LEAGUE_QUERY_RESPONSE.",
			fields: fields{"query_type": str("GET_STANDINGS, GET_SCHEDULE, GET_NEXT_MATCH, GET_PLAYER_STATS, GET_PLAYERS or GET_STATUS"),
				"query_params": object("e.g. {\"player_id\":\"P01\"}", nil)},
			required: []string{"query_type"}},
		adminSpec("start_league", protocol.TypeStartLeague, "Start the league", "fixes the seed and the schedule and plays the league"),
		adminSpec("pause_league", protocol.TypePauseLeague, "Pause the league", "running matches finish; no new one starts"),
		adminSpec("resume_league", protocol.TypeResumeLeague, "Resume the league", "a paused league carries on"),
		adminSpec("stop_league", protocol.TypeStopLeague, "Stop the league", "running matches are abandoned; the league ends"),
	}
}

func adminSpec(name, messageType, title, what string) spec {
	return spec{name: name, messageType: messageType, title: title,
		description: messageType + ": " + what + ". Needs the admin token in auth_token."}
}

func agentMeta(referee bool) *jsonschema.Schema {
	props := fields{"display_name": str(""), "version": str(""),
		"game_types":       arrayOf("games it plays, e.g. [\"even_odd\"]", str("")),
		"contact_endpoint": str("its /mcp URL"), "protocol_version": str("e.g. 2.1.0")}
	if referee {
		props["max_concurrent_matches"] = integer("matches it runs at once")
	}
	return object("who registers", props, "display_name", "version", "game_types", "contact_endpoint")
}

func standingRow() *jsonschema.Schema {
	return object("one row", fields{"rank": integer(""), "player_id": str(""), "display_name": str(""),
		"played": integer(""), "wins": integer(""), "draws": integer(""), "losses": integer(""),
		"technical_losses": integer(""), "points": integer("")}, "rank", "player_id", "points")
}

// moveCallFields are the fields of a move call (CHOOSE_PARITY_CALL or
// GAME_MOVE_CALL) around its move request.
func moveCallFields(moveRequest *jsonschema.Schema) fields {
	return fields{"player_id": str("the addressee's id"), "game_type": str("the game, e.g. even_odd"),
		"context": object("what the player knows of the match", fields{
			"opponent_id": str("the other player's id"),
			"round_id":    {Types: []string{"integer", "string"}},
			"your_standings": object("the addressee's record so far", fields{
				"wins": integer(""), "losses": integer(""), "draws": integer("")}),
		}),
		"deadline":     str("answer before this UTC time"),
		"move_request": moveRequest,
	}
}
