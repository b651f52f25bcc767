package check

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/pages"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/ticket"
	"github.com/leaguetui/leaguetui/engine"
)

// refereeChecks are the checks of a referee that need it alive, in order.
var refereeChecks = append([]string{"health/answers", "mcp/tools-list", "rpc/unknown-method-is-32601",
	"rpc/notification-gets-no-reply", "rpc/id-echoed", "notify/acks",
	"rpc/malformed-json-is-32700", "rpc/survives-malformed-json", "rpc/survives-oversize-body",
	"register/presents-saved-credentials"}, refereeMatchChecks...)

// refereeMatchChecks are the checks of the matches a referee runs.
var refereeMatchChecks = []string{"register/uses-assigned-id", "referee/acks-start-match", "referee/invites-both",
	"referee/asks-both-for-a-move", "referee/result-matches-moves", "referee/reports-once",
	"referee/technical-loss-only-after-deadline"}

// How the checker's two players behave in a match.
type behaviour struct {
	moves map[string]string // player id -> its parity
	slow  string            // this player answers its move late, but before the deadline
	quiet string            // this player never answers its move
}

// refMatch is a match the checker gives a referee.
type refMatch struct {
	id, game string
	behaviour
}

// The matches a referee is given: of even/odd, an ordinary one, one with
// a move that comes late but in time, one with a move that never comes;
// of the link race, a race in which both players follow the first link of
// every page (a draw, whatever the pages).
var refereeMatches = []refMatch{
	{"R1M1", engine.EvenOddType, behaviour{moves: map[string]string{assignedPlayer: "even", opponentPlayer: "odd"}}},
	{"R1M2", engine.EvenOddType, behaviour{moves: map[string]string{assignedPlayer: "odd", opponentPlayer: "odd"}, slow: opponentPlayer}},
	{"R1M3", engine.EvenOddType, behaviour{moves: map[string]string{assignedPlayer: "even", opponentPlayer: "even"}, quiet: opponentPlayer}},
	{"R2M1", engine.LinkRaceType, behaviour{}},
}

// lateButInTime is how long the slow player takes over its move, at most:
// never more than half the time the call's deadline leaves.
const lateButInTime = 2 * time.Second

// fakePlayers are the two players of the checker's league, one HTTP
// server each, answering the referee as each match's behaviour says.
type fakePlayers struct {
	servers map[string]*peer
	mu      sync.Mutex
	plays   map[string]behaviour // match id -> how its players behave
}

func (s *session) startPlayers() (*fakePlayers, error) {
	fp := &fakePlayers{servers: map[string]*peer{}, plays: map[string]behaviour{}}
	for _, id := range []string{assignedPlayer, opponentPlayer} {
		p, err := startPeer(s.opts.Host, fp.answer(id))
		if err != nil {
			fp.close()
			return nil, err
		}
		fp.servers[id] = p
	}
	return fp, nil
}

func (fp *fakePlayers) close() {
	for _, p := range fp.servers {
		p.close()
	}
}

// answer is how player id answers the referee.
func (fp *fakePlayers) answer(id string) func(ctx context.Context, in inbound) any {
	return func(ctx context.Context, in inbound) any {
		var env protocol.Envelope
		_ = protocol.Decode(in.Message, &env)
		fp.mu.Lock()
		b := fp.plays[env.MatchID]
		fp.mu.Unlock()
		reply := protocol.NewEnvelope("", protocol.PlayerSender(id), env.ConversationID)
		reply.LeagueID, reply.RoundID, reply.MatchID = env.LeagueID, env.RoundID, env.MatchID
		switch in.Type {
		case protocol.TypeGameInvitation:
			reply.MessageType = protocol.TypeGameJoinAck
			return &protocol.GameJoinAck{Envelope: reply, PlayerID: id, ArrivalTimestamp: protocol.FormatTime(time.Now()), Accept: true}
		case protocol.TypeChooseParityCall, protocol.TypeGameMoveCall:
			var call protocol.MoveCall
			_ = protocol.Decode(in.Message, &call)
			switch id {
			case b.quiet:
				<-ctx.Done() // held until the referee gives up
				return nil
			case b.slow:
				wait := lateButInTime
				if deadline, _, err := protocol.ParseTime(call.Deadline); err == nil {
					wait = min(wait, time.Until(deadline)/2)
				}
				select {
				case <-time.After(wait):
				case <-ctx.Done():
				}
			}
			if in.Type == protocol.TypeGameMoveCall {
				reply.MessageType = protocol.TypeGameMoveResponse
				return &protocol.GameMoveResponse{Envelope: reply, PlayerID: id,
					MoveData: protocol.MoveData{MoveType: engine.NavigateMove, Choice: firstLink(call)}}
			}
			reply.MessageType = protocol.TypeChooseParityResponse
			return &protocol.MoveAnswer{Envelope: reply, PlayerID: id, Choice: b.moves[id]}
		}
		return nil
	}
}

// checkReferee plays the manager and two players around a registered
// referee.
func (s *session) checkReferee(ctx context.Context) {
	if s.dead != "" {
		s.skipRest(refereeChecks...)
		return
	}
	if s.opts.Strict {
		s.checkHealth(ctx)
		s.checkTools(ctx, []string{"start_match"})
	}
	s.checkRPC(ctx)
	if len(s.games) == 0 {
		why := fmt.Sprintf("the referee checks play %s, which this run does not check or the referee does not declare",
			strings.Join(Games, " and "))
		for _, id := range refereeMatchChecks {
			s.rec.skip(id, why)
		}
	} else {
		s.refereeMatches(ctx)
	}
	if s.dead == "" {
		s.checkHostileRPC(ctx)
	}
	s.refereePlays()
	if s.dead == "" && s.opts.Strict {
		s.checkRestart(ctx)
	}
	s.skipRest(refereeChecks...)
}

// refereeLeagueNeeds are the referee checks whose failure would cost a
// leaguetui league its matches: results that follow the moves and the
// deadlines (start_match taken, or declined by a referee that plays from
// the announcement, is startRefused; a match that never came to a result
// the manager takes is unplayed). How the referee words its calls to
// players is not among them: players read them liberally. Nor is a match
// reported twice: the manager takes the first report and refuses the
// second, and the league goes on.
var refereeLeagueNeeds = []string{"referee/result-matches-moves", "referee/technical-loss-only-after-deadline"}

// startInAnotherDialect sends start_match as leaguetui's manager would
// after the plain form was answered "method not found": with its client,
// which tries the other dialects' forms. It reports whether the match
// goes on: the referee took it, or declined it in every form (-32601), as
// a referee that takes its matches from the round announcement does, and
// the manager then waits for its report. Otherwise the league could not
// give it a match.
func (s *session) startInAnotherDialect(ctx context.Context, x exchange, start *protocol.StartMatch) bool {
	if e := x.rpcError(); e != nil && e.Code == protocol.CodeMethodNotFound {
		_, err := s.league.Send(ctx, rpc.Call{Endpoint: s.endpoint, Message: start, Timeout: genericTimeout, Attempts: 1})
		var rpcErr *protocol.RPCError
		if err == nil || errors.As(err, &rpcErr) && rpcErr.Code == protocol.CodeMethodNotFound {
			return true
		}
		x.Err = err
	}
	if s.startRefused == "" {
		s.startRefused = "start_match was not taken, in any dialect: " + orErr(x)
	}
	return false
}

func orErr(x exchange) string {
	if _, err := x.reply(); err != nil {
		return err.Error()
	}
	return "no answer"
}

// refereePlays gives a referee's verdict "plays in a leaguetui league"
// from the matches it ran.
func (s *session) refereePlays() {
	const id = "plays/referees-matches"
	if s.startRefused != "" {
		s.rec.add(id, finding{Status: Fail, Message: s.startRefused, Exp: "start_match acknowledged with a result"})
		return
	}
	if s.unplayed != "" {
		s.rec.add(id, finding{Status: Fail, Message: s.unplayed, Exp: "each match played to a result the manager takes"})
		return
	}
	ran := false
	for _, need := range refereeLeagueNeeds {
		d, _ := Lookup(need)
		switch r := s.rec.result(d); r.Status {
		case Fail:
			s.rec.add(id, finding{Status: Fail, Message: need + ": " + r.Message, Sent: r.Sent, Got: r.Got, Exp: r.Expected})
			return
		case Pass:
			ran = true
		}
	}
	if !ran {
		s.rec.skip(id, "the referee ran no match of the checker's")
		return
	}
	s.rec.pass(id, "")
}

// refereeMatches has the referee run the checker's matches one by one.
func (s *session) refereeMatches(ctx context.Context) {
	fp, err := s.startPlayers()
	if err != nil {
		s.dead = "the checker could not start its players: " + err.Error()
		return
	}
	defer fp.close()
	if !slices.Contains(s.games, engine.EvenOddType) {
		s.rec.skip("referee/technical-loss-only-after-deadline", "its matches (a move late but in time, one never answered) are even/odd's")
	}
	var ran []refMatch
	for _, m := range refereeMatches {
		if !slices.Contains(s.games, m.game) {
			continue
		}
		fp.mu.Lock()
		fp.plays[m.id] = m.behaviour
		fp.mu.Unlock()
		ran = append(ran, m)
		if !s.refereeMatch(ctx, fp, m) || s.dead != "" {
			return
		}
	}
	s.checkReportsOnce(ran)
}

// firstLink is the first link of the page a link race's move call shows.
func firstLink(call protocol.MoveCall) string {
	if call.MoveRequest == nil {
		return ""
	}
	links, _ := call.MoveRequest.Context["links"].([]any)
	if len(links) == 0 {
		return ""
	}
	link, _ := links[0].(string)
	return link
}

// startMatch is the checker's start_match for a match of its two players.
func (s *session) startMatch(fp *fakePlayers, matchID, game string) *protocol.StartMatch {
	env := s.managerEnvelope(protocol.TypeStartMatch, "conv-check-"+matchID)
	env.AuthToken, env.RoundID, env.MatchID = s.managerKey, 1, matchID
	msg := &protocol.StartMatch{Envelope: env, GameType: game, RefereeID: s.id,
		PlayerAID: assignedPlayer, PlayerBID: opponentPlayer, LeagueSeed: 1,
		PlayerAEndpoint: fp.servers[assignedPlayer].URL, PlayerBEndpoint: fp.servers[opponentPlayer].URL}
	if s.meta.MatchTickets {
		msg.PlayerATicket = ticket.Mint("tk-a-"+s.ticketKey, checkLeague, matchID, s.id)
		msg.PlayerBTicket = ticket.Mint("tk-b-"+s.ticketKey, checkLeague, matchID, s.id)
	}
	return msg
}

// refereeMatch has the referee run one match and checks it; it reports
// whether the match came to its result.
func (s *session) refereeMatch(ctx context.Context, fp *fakePlayers, m refMatch) bool {
	matchID := m.id
	s.statusf("the referee runs %s %s", m.game, matchID)
	start := s.startMatch(fp, matchID, m.game)
	s.announceMatch(ctx, start)
	x := s.call(ctx, "start_match", start, genericTimeout)
	if _, err := x.reply(); err != nil {
		s.rec.fail("referee/acks-start-match", "start_match was not acknowledged: "+err.Error(), x, "a result, such as START_MATCH_ACK")
		if !s.startInAnotherDialect(ctx, x, start) {
			s.markDead()
			return false
		}
	} else {
		s.rec.pass("referee/acks-start-match", "")
	}
	if !s.checkInvitations(ctx, fp, matchID, m.game) || !s.checkMoveCalls(ctx, fp, matchID, m.game) {
		return false
	}
	over, err := s.awaitResult(ctx, fp, matchID)
	if err != nil {
		s.rec.fail("referee/result-matches-moves", fmt.Sprintf("%s: %v", matchID, err), exchange{Sent: x.Sent},
			"GAME_OVER to both players, then MATCH_RESULT_REPORT to the manager")
		s.markDead()
		return false
	}
	s.checkOutcome(fp, m, over)
	return true
}

// announceMatch tells the referee of its match as a leaguetui league's
// round announcement does, before start_match: with the referee's id and
// the players' endpoints, which a referee of another implementation takes
// its matches from.
func (s *session) announceMatch(ctx context.Context, start *protocol.StartMatch) {
	msg := &protocol.RoundAnnouncement{Envelope: s.managerEnvelope(protocol.TypeRoundAnnouncement, "conv-check-round-"+start.MatchID),
		Matches: []protocol.AnnouncedMatch{{MatchID: start.MatchID, GameType: start.GameType, PlayerAID: start.PlayerAID,
			PlayerBID: start.PlayerBID, RefereeEndpoint: s.endpoint, RefereeID: s.id,
			PlayerAEndpoint: start.PlayerAEndpoint, PlayerBEndpoint: start.PlayerBEndpoint}}}
	msg.RoundID = start.RoundID
	_, _ = s.league.Send(ctx, rpc.Call{Endpoint: s.endpoint, Message: msg, Timeout: genericTimeout, Attempts: 1})
}

// unplayedf notes the first match that would not have counted in a
// leaguetui league.
func (s *session) unplayedf(format string, args ...any) {
	if s.unplayed == "" {
		s.unplayed = fmt.Sprintf(format, args...)
	}
}

// reportRefusal is why leaguetui's manager would refuse the report, as it
// authenticates a referee's: an envelope it refuses, or a sender or token
// other than those the registration gave; "" when it takes it.
func (s *session) reportRefusal(report protocol.MatchResultReport) string {
	if err := protocol.CheckEnvelope(report.Envelope); err != nil {
		return err.Error()
	}
	switch kind, id := protocol.SplitSender(report.Sender); {
	case report.AuthToken == "":
		return "auth_token is missing"
	case kind != protocol.RefereeRole || id != s.id:
		return fmt.Sprintf("sender %q is not the registered referee %s", report.Sender, protocol.RefereeSender(s.id))
	case report.AuthToken != s.token:
		return "auth_token is not the one its registration gave"
	}
	return ""
}

// matchMessages are the messages of type kind a player received about a match.
func matchMessages(p *peer, kind, matchID string) []inbound {
	var out []inbound
	for _, in := range p.received(kind) {
		var env protocol.Envelope
		if protocol.Decode(in.Message, &env) == nil && env.MatchID == matchID {
			out = append(out, in)
		}
	}
	return out
}

// checkInvitations: both players are invited, each with its own seat.
func (s *session) checkInvitations(ctx context.Context, fp *fakePlayers, matchID, game string) bool {
	const id = "referee/invites-both"
	both := func() bool {
		return len(matchMessages(fp.servers[assignedPlayer], protocol.TypeGameInvitation, matchID)) > 0 &&
			len(matchMessages(fp.servers[opponentPlayer], protocol.TypeGameInvitation, matchID)) > 0
	}
	if err := fp.servers[assignedPlayer].await(ctx, genericTimeout, s.alive, both); err != nil {
		s.unplayedf("%s: both players were not invited: a player never invited cannot play its moves", matchID)
		s.rec.fail(id, fmt.Sprintf("%s: both players were not invited: %v", matchID, err), exchange{},
			"GAME_INVITATION (handle_game_invitation) to player A and to player B")
		s.markDead()
		return false
	}
	var problems []string
	var sent []byte
	for seat, pid := range map[string]string{protocol.RolePlayerA: assignedPlayer, protocol.RolePlayerB: opponentPlayer} {
		in := matchMessages(fp.servers[pid], protocol.TypeGameInvitation, matchID)[0]
		sent = in.Body
		var inv protocol.GameInvitation
		_ = protocol.Decode(in.Message, &inv)
		f := fields(in.Message)
		problems = append(problems, prefixed(pid, envelopeProblems(f, protocol.TypeGameInvitation, "referee:"))...)
		opponent := map[string]string{assignedPlayer: opponentPlayer, opponentPlayer: assignedPlayer}[pid]
		if inv.RoleInMatch != seat || inv.OpponentID != opponent || inv.GameType != game {
			problems = append(problems, fmt.Sprintf("%s: role_in_match %q, opponent_id %q, game_type %q", pid, inv.RoleInMatch, inv.OpponentID, inv.GameType))
		}
	}
	s.checkRefereeID(fp, matchID)
	if len(problems) > 0 {
		s.rec.fail(id, matchID+": "+strings.Join(problems, "; "), received(sent),
			"each invitation with the full envelope, match_id, game_type "+game+", the addressee's role_in_match and the other player as opponent_id")
		return false
	}
	s.rec.pass(id, "")
	return true
}

// checkRefereeID: the referee sends as the id it was given.
func (s *session) checkRefereeID(fp *fakePlayers, matchID string) {
	in := matchMessages(fp.servers[assignedPlayer], protocol.TypeGameInvitation, matchID)[0]
	if sender := str(fields(in.Message), "sender"); sender != protocol.RefereeSender(s.id) {
		s.rec.fail("register/uses-assigned-id", fmt.Sprintf("the invitation's sender is %q", sender), received(in.Body),
			fmt.Sprintf("sender %q: the id the registration answer gave", protocol.RefereeSender(s.id)))
		return
	}
	s.rec.pass("register/uses-assigned-id", "")
}

func prefixed(who string, problems []string) []string {
	for i, p := range problems {
		problems[i] = who + ": " + p
	}
	return problems
}

// checkMoveCalls: both players are asked for their move, each by its id,
// with a deadline.
func (s *session) checkMoveCalls(ctx context.Context, fp *fakePlayers, matchID, game string) bool {
	const id = "referee/asks-both-for-a-move"
	callType := moveCallType(game)
	both := func() bool {
		return len(matchMessages(fp.servers[assignedPlayer], callType, matchID)) > 0 &&
			len(matchMessages(fp.servers[opponentPlayer], callType, matchID)) > 0
	}
	if err := fp.servers[assignedPlayer].await(ctx, genericTimeout, s.alive, both); err != nil {
		s.unplayedf("%s: both players were not asked for a move: a player never asked loses the match", matchID)
		s.rec.fail(id, fmt.Sprintf("%s: both players joined, but both were not asked for a move: %v", matchID, err), exchange{},
			callType+" ("+moveMethod(game)+") to both players")
		s.markDead()
		return false
	}
	var problems []string
	for _, pid := range []string{assignedPlayer, opponentPlayer} {
		in := matchMessages(fp.servers[pid], callType, matchID)[0]
		var call protocol.MoveCall
		_ = protocol.Decode(in.Message, &call)
		problems = append(problems, prefixed(pid, envelopeProblems(fields(in.Message), callType, "referee:"))...)
		if game == engine.LinkRaceType && firstLink(call) == "" {
			problems = append(problems, pid+": move_request.context.links is empty: the player has no link to follow")
		}
		if call.PlayerID != pid {
			problems = append(problems, fmt.Sprintf("%s: player_id is %q", pid, call.PlayerID))
		}
		if deadline, utc, err := protocol.ParseTime(call.Deadline); err != nil || !utc || deadline.Before(in.At.Add(-time.Second)) {
			problems = append(problems, fmt.Sprintf("%s: deadline %q is not a UTC time after the call", pid, call.Deadline))
		}
	}
	if len(problems) > 0 {
		s.rec.fail(id, matchID+": "+strings.Join(problems, "; "), exchange{}, "each call with the full envelope, the addressee's player_id and a deadline in UTC")
		return false
	}
	s.rec.pass(id, "")
	return true
}

// awaitResult waits for GAME_OVER at both players and the report, and
// returns the GAME_OVER each player got.
func (s *session) awaitResult(ctx context.Context, fp *fakePlayers, matchID string) (map[string]inbound, error) {
	done := func() bool {
		return len(matchMessages(fp.servers[assignedPlayer], protocol.TypeGameOver, matchID)) > 0 &&
			len(matchMessages(fp.servers[opponentPlayer], protocol.TypeGameOver, matchID)) > 0 &&
			len(matchMessages(s.mgr, protocol.TypeMatchResultReport, matchID)) > 0
	}
	if err := s.mgr.await(ctx, s.opts.RefereeMatchTimeout, s.alive, done); err != nil {
		return nil, fmt.Errorf("GAME_OVER to both players and the report did not all come: %v", err)
	}
	return map[string]inbound{
		assignedPlayer: matchMessages(fp.servers[assignedPlayer], protocol.TypeGameOver, matchID)[0],
		opponentPlayer: matchMessages(fp.servers[opponentPlayer], protocol.TypeGameOver, matchID)[0],
	}, nil
}

// checkOutcome compares what the referee announced and reported with the
// moves and with even/odd's rules.
func (s *session) checkOutcome(fp *fakePlayers, m refMatch, overs map[string]inbound) {
	matchID, b := m.id, m.behaviour
	var problems []string
	var first protocol.GameOver
	for i, pid := range []string{assignedPlayer, opponentPlayer} {
		var over protocol.GameOver
		if err := protocol.Decode(overs[pid].Message, &over); err != nil {
			problems = append(problems, fmt.Sprintf("%s: GAME_OVER unreadable: %v", pid, err))
			continue
		}
		problems = append(problems, prefixed(pid, envelopeProblems(fields(overs[pid].Message), protocol.TypeGameOver, "referee:"))...)
		if i == 0 {
			first = over
		}
	}
	var report protocol.MatchResultReport
	reportIn := matchMessages(s.mgr, protocol.TypeMatchResultReport, matchID)[0]
	if err := protocol.Decode(reportIn.Message, &report); err != nil {
		problems = append(problems, "MATCH_RESULT_REPORT unreadable: "+err.Error())
	} else if why := s.reportRefusal(report); why != "" {
		s.unplayedf("%s: a leaguetui manager refuses its report: %s", matchID, why)
	}
	want := expectedOutcome(b, first)
	if m.game == engine.LinkRaceType {
		want = outcome{string(engine.StatusDraw), "", "both players followed the first link of every page from the same start: a draw"}
	}
	r := first.GameResult
	if r.Status != want.status || deref(r.WinnerPlayerID) != want.winner {
		problems = append(problems, fmt.Sprintf("GAME_OVER says %s, winner %q; %s", r.Status, deref(r.WinnerPlayerID), want.why))
	}
	if deref(report.Result.Winner) != want.winner {
		problems = append(problems, fmt.Sprintf("the report's winner is %q; %s", deref(report.Result.Winner), want.why))
	}
	if want.status != string(engine.StatusTechnicalLoss) {
		for pid, move := range b.moves {
			if r.Choices[pid] != move {
				problems = append(problems, fmt.Sprintf("GAME_OVER gives %s's move as %q; it chose %q", pid, r.Choices[pid], move))
			}
		}
	}
	const id = "referee/result-matches-moves"
	if len(problems) > 0 {
		s.rec.add(id, finding{Status: Fail, Message: matchID + ": " + strings.Join(problems, "; "),
			Sent: fmt.Sprintf("start_match %s (%s); the players chose %v", matchID, m.game, b.moves),
			Got:  "GAME_OVER to " + assignedPlayer + ": " + clip(overs[assignedPlayer].Body) + "\nMATCH_RESULT_REPORT: " + clip(reportIn.Body),
			Exp:  "GAME_OVER to both and MATCH_RESULT_REPORT agreeing with the moves: " + want.why})
	} else {
		s.rec.pass(id, "")
	}
	if b.slow != "" || b.quiet != "" {
		s.checkTechnicalLoss(fp, matchID, b, r, overs)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// outcome is what a match must end with.
type outcome struct{ status, winner, why string }

// expectedOutcome is even/odd's result for the moves of b and the number
// the referee drew.
func expectedOutcome(b behaviour, over protocol.GameOver) outcome {
	if b.quiet != "" {
		other := assignedPlayer
		if b.quiet == assignedPlayer {
			other = opponentPlayer
		}
		return outcome{string(engine.StatusTechnicalLoss), other, b.quiet + " never answered its move: a technical loss, " + other + " wins"}
	}
	a, o := b.moves[assignedPlayer], b.moves[opponentPlayer]
	if a == o {
		return outcome{string(engine.StatusDraw), "", "both chose " + a + ": a draw"}
	}
	n, ok := drawnNumber(over.GameResult.Details["drawn_number"])
	if !ok || n < 1 || n > 10 {
		return outcome{"a drawn_number from 1 to 10", "", fmt.Sprintf("drawn_number %v is not from 1 to 10", over.GameResult.Details["drawn_number"])}
	}
	parity := "odd"
	if n%2 == 0 {
		parity = "even"
	}
	winner := assignedPlayer
	if o == parity {
		winner = opponentPlayer
	}
	return outcome{string(engine.StatusWin), winner, fmt.Sprintf("%s chose %s, %s chose %s, %d is %s: %s wins", assignedPlayer, a, opponentPlayer, o, n, parity, winner)}
}

func drawnNumber(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		return int(n), n == float64(int(n))
	case int:
		return n, true
	}
	return 0, false
}

// checkTechnicalLoss: a move late but in time is a move; a technical loss
// comes only once the quiet player's deadline has passed.
func (s *session) checkTechnicalLoss(fp *fakePlayers, matchID string, b behaviour, r protocol.GameResult, overs map[string]inbound) {
	const id = "referee/technical-loss-only-after-deadline"
	if b.slow != "" {
		if r.Status == string(engine.StatusTechnicalLoss) {
			s.rec.fail(id, fmt.Sprintf("%s: %s answered its move within the deadline, after about %s, and was given a technical loss", matchID, b.slow, lateButInTime),
				received(overs[assignedPlayer].Body), "the move counted")
			return
		}
		s.rec.pass(id, "")
		return
	}
	calls := matchMessages(fp.servers[b.quiet], protocol.TypeChooseParityCall, matchID)
	var call protocol.MoveCall
	_ = protocol.Decode(calls[0].Message, &call)
	deadline, _, err := protocol.ParseTime(call.Deadline)
	ended := overs[b.quiet].At
	if err == nil && ended.Before(deadline.Add(-time.Second)) {
		s.rec.fail(id, fmt.Sprintf("%s: the technical loss came at %s, before the deadline %s of the first move call", matchID,
			protocol.FormatTime(ended), call.Deadline), received(calls[0].Body), "no technical loss before the deadline")
		return
	}
	s.rec.pass(id, "")
}

// checkReportsOnce: one report per match run.
func (s *session) checkReportsOnce(ran []refMatch) {
	const id = "referee/reports-once"
	for _, m := range ran {
		if n := len(matchMessages(s.mgr, protocol.TypeMatchResultReport, m.id)); n != 1 {
			in := matchMessages(s.mgr, protocol.TypeMatchResultReport, m.id)
			var body []byte
			if len(in) > 0 {
				body = in[len(in)-1].Body
			}
			s.rec.fail(id, fmt.Sprintf("%s was reported %d times", m.id, n), received(body), "exactly one MATCH_RESULT_REPORT per match")
			return
		}
	}
	s.rec.pass(id, "")
}

// servePages serves the checker's page graph over MCP, as `leaguetui
// pages` does, for a referee's link race; a leaguetui referee finds it in
// LEAGUETUI_PAGES_URL.
func (s *session) servePages() (stop func(), err error) {
	ln, err := net.Listen("tcp", net.JoinHostPort(s.opts.Host, "0"))
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: pages.Handler(pages.NewServer(raceGraph())), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	s.pagesURL = "http://" + ln.Addr().String() + "/mcp"
	return func() { _ = srv.Close() }, nil
}
