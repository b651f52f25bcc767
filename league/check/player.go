package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/mcpserve"
	"github.com/leaguetui/leaguetui/agents/pages"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/ticket"
	"github.com/leaguetui/leaguetui/engine"
)

// playerChecks are the checks of a player that need it alive, in order.
var playerChecks = []string{"health/answers", "mcp/tools-list", "rpc/unknown-method-is-32601",
	"rpc/notification-gets-no-reply", "rpc/id-echoed", "notify/acks", "ticket/refuses-a-stranger",
	"register/uses-assigned-id", "invite/ack-within-deadline", "invite/ack-is-well-formed",
	"move/answer-within-deadline", "move/parity-is-even-or-odd", "move/link-is-on-the-page",
	"move/response-is-well-formed", "result/ack", "rpc/malformed-json-is-32700", "rpc/survives-malformed-json",
	"rpc/survives-oversize-body", "move/late-call-is-harmless", "move/foreign-match-is-harmless",
	"register/presents-saved-credentials"}

// checkPlayer plays the manager and a referee around a registered player.
func (s *session) checkPlayer(ctx context.Context) {
	if s.dead != "" {
		s.skipRest(append(playerChecks, "plays/even_odd", "plays/link_race")...)
		return
	}
	// First as a league would play it: registered, then matches. What the
	// conformance checks send after (unknown methods, hostile bodies) no
	// league sends, so it cannot spoil this verdict.
	s.playLeague(ctx)
	if s.opts.Strict {
		s.checkHealth(ctx)
		s.checkTools(ctx, s.playerTools())
	}
	s.checkRPC(ctx)
	if s.opts.Strict {
		s.checkStranger(ctx)
	}
	var last playedMatch // a match played to its end, for the late call
	for i, game := range s.games {
		m := playedMatch{game: game, round: i + 1, id: fmt.Sprintf("R%dM1", i+1)}
		if s.playMatch(ctx, m.game, m.round, m.id) {
			last = m
		}
		if s.dead != "" {
			break
		}
	}
	if len(s.games) == 0 {
		why := fmt.Sprintf("the agent declares no game the checker plays (game_types %v)", s.meta.GameTypes)
		for _, id := range []string{"register/uses-assigned-id", "invite/ack-within-deadline", "invite/ack-is-well-formed",
			"move/answer-within-deadline", "move/response-is-well-formed", "result/ack"} {
			s.rec.skip(id, why)
		}
	}
	if s.dead == "" {
		s.checkHostileRPC(ctx)
	}
	if s.dead == "" {
		s.checkStrayCalls(ctx, last)
	}
	if s.dead != "" {
		s.skipRest(playerChecks...)
		return
	}
	done := &protocol.LeagueCompleted{Envelope: s.managerEnvelope(protocol.TypeLeagueCompleted, "conv-check-done"),
		TotalRounds: len(s.games), TotalMatches: len(s.games), FinalStandings: s.standings(),
		Champion: protocol.Champion{PlayerID: opponentPlayer, DisplayName: opponentPlayer}}
	s.call(ctx, "notify_league_completed", done, genericTimeout)
	if s.opts.Strict {
		s.checkRestart(ctx)
	}
}

// playedMatch names a match the checker played with the player.
type playedMatch struct {
	game, id string
	round    int
}

// playerTools are the tools a referee calls on a player in the games checked.
func (s *session) playerTools() []string {
	var out []string
	for _, g := range s.games {
		for _, t := range mcpserve.PlayerTools(moveCallType(g)) {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

func moveCallType(game string) string {
	if game == engine.EvenOddType {
		return protocol.TypeChooseParityCall
	}
	return protocol.TypeGameMoveCall
}

// refereeEnvelope starts a message from the checker's referee about a
// match, with the player's ticket for it.
func (s *session) refereeEnvelope(messageType, matchID string, round int) protocol.Envelope {
	env := protocol.NewEnvelope(messageType, protocol.RefereeSender(checkReferee), "conv-check-"+matchID)
	env.AuthToken = ticket.Mint(s.ticketKey, checkLeague, matchID, checkReferee)
	env.LeagueID, env.RoundID, env.MatchID = checkLeague, protocol.RoundID(round), matchID
	return env
}

func (s *session) invitation(matchID, game string, round int) *protocol.GameInvitation {
	return &protocol.GameInvitation{Envelope: s.refereeEnvelope(protocol.TypeGameInvitation, matchID, round),
		GameType: game, RoleInMatch: protocol.RolePlayerA, OpponentID: opponentPlayer, PlayerID: s.id}
}

// checkStranger invites the player from a referee without its ticket.
func (s *session) checkStranger(ctx context.Context) {
	const id = "ticket/refuses-a-stranger"
	if len(s.games) == 0 {
		s.rec.skip(id, "no game to invite the player to")
		return
	}
	inv := s.invitation("R9M9", s.games[0], 9)
	inv.Sender, inv.AuthToken = protocol.RefereeSender("REF99"), "mt-"+strings.Repeat("0", 64)
	x := s.call(ctx, "handle_game_invitation", inv, genericTimeout)
	raw, err := x.reply()
	var ack protocol.GameJoinAck
	var leagueErr *protocol.LeagueError
	switch {
	case x.Err != nil:
		s.rec.fail(id, "no answer", x, "a refusal: a LEAGUE_ERROR result, a JSON-RPC error, or accept false")
	case x.rpcError() != nil:
		s.rec.pass(id, "refused: "+x.rpcError().Error())
	case errors.As(err, &leagueErr):
		s.rec.pass(id, "refused: "+err.Error())
	case err != nil:
		// Not a refusal: an answer nobody can read refuses nothing.
		s.rec.fail(id, "the answer to an invitation from REF99 could not be read: "+err.Error(), x,
			"a refusal: a LEAGUE_ERROR result, a JSON-RPC error, or GAME_JOIN_ACK with accept false")
	case protocol.Decode(raw, &ack) == nil && protocol.HoldsJoin(raw) && !ack.Accept:
		s.rec.pass(id, "declined")
	default:
		s.rec.fail(id, "an invitation from REF99 with a made-up ticket was accepted", x,
			"a refusal (E012 AUTH_TOKEN_INVALID as a LEAGUE_ERROR result, or a JSON-RPC error): the ticket is not HMAC(match_ticket_key, league, match, referee)")
	}
}

// playMatch plays one match of game with the player, as its referee; it
// reports whether the match ran to its result.
func (s *session) playMatch(ctx context.Context, game string, round int, matchID string) bool {
	s.statusf("playing %s %s", game, matchID)
	inv := s.invitation(matchID, game, round)
	x := s.call(ctx, "handle_game_invitation", inv, s.opts.JoinTimeout+time.Second)
	if !s.checkJoin(x, inv) {
		for _, id := range []string{"move/answer-within-deadline", "move/response-is-well-formed", "result/ack",
			"move/parity-is-even-or-odd", "move/link-is-on-the-page"} {
			s.rec.skip(id, fmt.Sprintf("%s: the player did not join", game))
		}
		return false
	}
	var result protocol.GameResult
	var ok bool
	if game == engine.EvenOddType {
		result, ok = s.playParity(ctx, matchID, round)
	} else {
		result, ok = s.playRace(ctx, matchID, round)
	}
	if !ok {
		s.rec.skip("result/ack", game+": the match did not get to its result")
		return false
	}
	over := &protocol.GameOver{Envelope: s.refereeEnvelope(protocol.TypeGameOver, matchID, round), GameType: game,
		GameResult: result, Reason: result.Reason}
	x = s.call(ctx, "notify_match_result", over, ackTimeout+time.Second)
	if _, err := x.reply(); err != nil || x.Elapsed > ackTimeout {
		why := fmt.Sprintf("%s: GAME_OVER was not acknowledged within %s", game, ackTimeout)
		if err != nil {
			why += ": " + err.Error()
		}
		s.rec.fail("result/ack", why, x, `a result such as {"status":"ok"}, within 5 s`)
	} else {
		s.rec.pass("result/ack", "")
	}
	return true
}

// checkJoin checks the answer to an invitation; it reports whether the
// player joined.
func (s *session) checkJoin(x exchange, inv *protocol.GameInvitation) bool {
	raw, err := x.reply()
	if err != nil || x.Elapsed > s.opts.JoinTimeout {
		why := fmt.Sprintf("%s: no GAME_JOIN_ACK within %s", inv.GameType, s.opts.JoinTimeout)
		if err != nil {
			why = answeredWithout(x, inv.GameType, "GAME_JOIN_ACK", err, why)
		}
		s.rec.fail("invite/ack-within-deadline", why, x, "GAME_JOIN_ACK in the result, within 5 s")
		s.markDead()
		return false
	}
	s.rec.pass("invite/ack-within-deadline", "")
	f := fields(raw)
	problems := envelopeProblems(f, protocol.TypeGameJoinAck, "player:")
	if string(f["accept"]) != "true" {
		problems = append(problems, fmt.Sprintf("accept is %s, not true", orMissing(f["accept"])))
	}
	if v := str(f, "match_id"); v != inv.MatchID {
		problems = append(problems, fmt.Sprintf("match_id is %q, not %q", v, inv.MatchID))
	}
	if v := str(f, "conversation_id"); v != inv.ConversationID {
		problems = append(problems, fmt.Sprintf("conversation_id is %q, not the invitation's %q", v, inv.ConversationID))
	}
	if str(f, "arrival_timestamp") == "" {
		problems = append(problems, "arrival_timestamp is missing")
	}
	if err := answersWithID(x, sentID(x)); err != nil {
		problems = append(problems, "the reply is not the JSON-RPC response to the invitation: "+err.Error())
	}
	expected := fmt.Sprintf("GAME_JOIN_ACK with accept true, match_id %q, player_id %q, conversation_id %q", inv.MatchID, s.id, inv.ConversationID)
	if len(problems) > 0 {
		s.rec.fail("invite/ack-is-well-formed", inv.GameType+": "+strings.Join(problems, "; "), x, expected)
	} else {
		s.rec.pass("invite/ack-is-well-formed", "")
	}
	s.checkOwnID(x, f)
	return string(f["accept"]) == "true"
}

// answeredWithout says why an exchange gave no answer of type want: no
// answer in time (late), or an answer in time that was something else, a
// refusal most often (a player that checks the ticket with another
// formula refuses every real invitation, in milliseconds).
func answeredWithout(x exchange, game, want string, err error, late string) string {
	if x.Err != nil {
		return late + ": " + err.Error()
	}
	return fmt.Sprintf("%s: answered after %s, but not with %s: %v", game, x.Elapsed.Round(time.Millisecond), want, err)
}

func orMissing(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "missing"
	}
	return string(raw)
}

// checkOwnID: the player's answer names it by the id it was given.
func (s *session) checkOwnID(x exchange, f map[string]json.RawMessage) {
	const id = "register/uses-assigned-id"
	sender, pid := str(f, "sender"), str(f, "player_id")
	if sender != protocol.PlayerSender(s.id) || pid != s.id {
		s.rec.fail(id, fmt.Sprintf("sender %q and player_id %q", sender, pid), x,
			fmt.Sprintf("sender %q and player_id %q: the id the registration answer gave", protocol.PlayerSender(s.id), s.id))
		return
	}
	s.rec.pass(id, "")
}

// markDead notes an agent that has exited, so the checks after are skipped.
func (s *session) markDead() {
	if err := s.alive(); err != nil && s.dead == "" {
		s.dead = err.Error()
	}
}

// moveCall asks the player for a move.
func (s *session) moveCall(matchID, game string, round int, request protocol.MoveRequest) *protocol.MoveCall {
	callType := moveCallType(game)
	return &protocol.MoveCall{Envelope: s.refereeEnvelope(callType, matchID, round), PlayerID: s.id, GameType: game,
		Context:     protocol.MoveContext{OpponentID: opponentPlayer, RoundID: protocol.RoundID(round)},
		Deadline:    protocol.FormatTime(time.Now().Add(s.opts.MoveTimeout)),
		MoveRequest: &request}
}

// ask sends a move call and checks the timing and the answer's form; ok
// is false when there is no answer to play on.
func (s *session) ask(ctx context.Context, game string, call *protocol.MoveCall) (map[string]json.RawMessage, exchange, bool) {
	method, want := moveMethod(game), protocol.TypeChooseParityResponse
	if game != engine.EvenOddType {
		want = protocol.TypeGameMoveResponse
	}
	x := s.call(ctx, method, call, s.opts.MoveTimeout+time.Second)
	raw, err := x.reply()
	if err != nil || x.Elapsed > s.opts.MoveTimeout {
		why := fmt.Sprintf("%s: no answer to %s within %s", game, method, s.opts.MoveTimeout)
		if err != nil {
			why = answeredWithout(x, game, want, err, why)
		}
		s.rec.fail("move/answer-within-deadline", why, x, want+" in the result, before the call's deadline "+call.Deadline)
		s.markDead()
		return nil, x, false
	}
	s.rec.pass("move/answer-within-deadline", "")
	f := fields(raw)
	problems := envelopeProblems(f, want, "player:")
	if v := str(f, "match_id"); v != call.MatchID {
		problems = append(problems, fmt.Sprintf("match_id is %q, not %q", v, call.MatchID))
	}
	if v := str(f, "player_id"); v != s.id {
		problems = append(problems, fmt.Sprintf("player_id is %q, not %q", v, s.id))
	}
	if err := answersWithID(x, sentID(x)); err != nil {
		problems = append(problems, "the reply is not the JSON-RPC response to the move call: "+err.Error())
	}
	if len(problems) > 0 {
		s.rec.fail("move/response-is-well-formed", game+": "+strings.Join(problems, "; "), x,
			fmt.Sprintf("%s with match_id %q and player_id %q", want, call.MatchID, s.id))
	} else {
		s.rec.pass("move/response-is-well-formed", "")
	}
	return f, x, true
}

// playParity plays even/odd's one move against an opponent who chooses odd.
func (s *session) playParity(ctx context.Context, matchID string, round int) (protocol.GameResult, bool) {
	const id = "move/parity-is-even-or-odd"
	f, x, ok := s.ask(ctx, engine.EvenOddType, s.moveCall(matchID, engine.EvenOddType, round, protocol.ParityMoveRequest()))
	if !ok {
		s.rec.skip(id, "no answer to read a parity from")
		return protocol.GameResult{}, false
	}
	choice := str(f, "parity_choice")
	if choice != "even" && choice != "odd" {
		s.rec.fail(id, fmt.Sprintf("parity_choice is %s", orMissing(f["parity_choice"])), x, `parity_choice "even" or "odd", in lower case`)
		return protocol.GameResult{}, false
	}
	s.rec.pass(id, "")
	const drawn = 7 // odd: the opponent, who chose odd, is right
	result := protocol.GameResult{Status: string(engine.StatusDraw), Choices: map[string]string{s.id: choice, opponentPlayer: "odd"},
		Details: map[string]any{"drawn_number": drawn, "number_parity": "odd"}}
	if choice == "even" {
		winner := opponentPlayer
		result.Status, result.WinnerPlayerID = string(engine.StatusWin), &winner
		result.Reason = fmt.Sprintf("%s chose even, %s chose odd, %d is odd", s.id, opponentPlayer, drawn)
	} else {
		result.Reason = fmt.Sprintf("both chose odd, %d is odd", drawn)
	}
	return result, true
}

// raceGraph is the checker's own small page set, the same for every run,
// made when a check first needs it rather than at every agent's start.
var raceGraph = sync.OnceValue(func() *pages.Graph { return pages.Generate(1, 40) })

// raceSteps bounds the checker's link race.
const raceSteps = 6

// playRace runs a link race of the player alone, from the graph's first
// page to one it does not link to, each move checked against the page.
func (s *session) playRace(ctx context.Context, matchID string, round int) (protocol.GameResult, bool) {
	const id = "move/link-is-on-the-page"
	titles := raceGraph().Titles()
	current := titles[0]
	first, _ := raceGraph().Page(current)
	target := titles[len(titles)-1]
	for _, t := range titles[1:] {
		if t != current && !slices.Contains(first.Links, t) {
			target = t
			break
		}
	}
	path := []string{current}
	for turn := 1; turn <= raceSteps && current != target; turn++ {
		page, _ := raceGraph().Page(current)
		state := map[string]any{"current_page": current, "links": page.Links, "target_page": target,
			"steps_left": raceSteps - turn + 1, "path": path, "summary": page.Summary}
		f, x, ok := s.ask(ctx, engine.LinkRaceType, s.moveCall(matchID, engine.LinkRaceType, round,
			protocol.MoveRequest{MoveType: engine.NavigateMove, Turn: turn, Context: state}))
		if !ok {
			s.rec.skip(id, "no answer to read a link from")
			return protocol.GameResult{}, false
		}
		var data protocol.MoveData
		_ = json.Unmarshal(f["move_data"], &data)
		link := strings.TrimSpace(data.Choice)
		if data.MoveType != engine.NavigateMove || !slices.Contains(page.Links, link) {
			s.rec.fail(id, fmt.Sprintf("turn %d on %q: move_data is %s", turn, current, orMissing(f["move_data"])), x,
				fmt.Sprintf(`move_data {"move_type":"navigate","choice":<one of %q>}`, page.Links))
			return protocol.GameResult{}, false
		}
		current = link
		path = append(path, link)
	}
	s.rec.pass(id, "")
	result := protocol.GameResult{Status: string(engine.StatusDraw), Choices: map[string]string{s.id: current, opponentPlayer: titles[0]},
		Reason: "neither reached " + target, Details: map[string]any{"target_page": target}}
	if current == target {
		result.Status, result.WinnerPlayerID = string(engine.StatusWin), &s.id
		result.Reason = fmt.Sprintf("%s reached %s in %d steps", s.id, target, len(path)-1)
	}
	return result, true
}

// checkStrayCalls sends a move call for a match already over and one for
// a match the player is not in: whatever it answers, it must go on
// answering.
func (s *session) checkStrayCalls(ctx context.Context, last playedMatch) {
	if last.id == "" {
		s.rec.skip("move/late-call-is-harmless", "no match was played to its end")
	} else {
		call := s.moveCall(last.id, last.game, last.round, moveRequestOf(last.game))
		s.survives(ctx, "move/late-call-is-harmless", s.call(ctx, moveMethod(last.game), call, s.opts.MoveTimeout))
	}
	if s.dead != "" {
		return
	}
	call := s.moveCall("R7M3", engine.EvenOddType, 7, protocol.ParityMoveRequest())
	call.PlayerID = "P05"
	call.Context.OpponentID = "P06"
	s.survives(ctx, "move/foreign-match-is-harmless", s.call(ctx, "choose_parity", call, s.opts.MoveTimeout))
}

// moveMethod is the method a game's moves are asked with.
func moveMethod(game string) string {
	if game == engine.EvenOddType {
		return "choose_parity"
	}
	return "game_move_call"
}

func moveRequestOf(game string) protocol.MoveRequest {
	if game == engine.EvenOddType {
		return protocol.ParityMoveRequest()
	}
	return protocol.MoveRequest{MoveType: engine.NavigateMove, Turn: 1}
}
