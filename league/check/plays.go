package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/retry"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// The verdict "plays in a leaguetui league" is what a league of leaguetui
// would make of the agent, as opposed to what league.v2 asks of it: the
// checker plays one match per game the way leaguetui's referee does, with
// its client (the dialect fallbacks, the liberal reading of answers, the
// retries and their delays), its deadlines, its reading of a join and of a
// move, and the engine's match loop, which decides technical losses.

// leagueConfig is the configuration leaguetui's agents run with, with this
// run's deadlines.
func (s *session) leagueConfig() config.Config {
	cfg := config.Default()
	cfg.Timeouts.Move, cfg.Timeouts.JoinAck = s.opts.MoveTimeout, s.opts.JoinTimeout
	return cfg
}

// checkAdmissible: the registration the checker admitted is one leaguetui's
// manager admits, held to the manager's own rules (protocol.CheckRegistration).
func (s *session) checkAdmissible(in inbound) {
	const id = "plays/registers"
	var env protocol.Envelope
	var meta protocol.AgentMeta
	var err error
	if s.opts.Role == RefereeRole {
		var req protocol.RefereeRegisterRequest
		err = protocol.Decode(in.Message, &req)
		env, meta = req.Envelope, req.RefereeMeta
	} else {
		var req protocol.LeagueRegisterRequest
		err = protocol.Decode(in.Message, &req)
		env, meta = req.Envelope, req.PlayerMeta
	}
	if err == nil {
		meta.ContactEndpoint = pullSeatStandIn(meta.ContactEndpoint, s.opts.Role)
		err = protocol.CheckRegistration(env, &meta, engine.Role(s.opts.Role))
	}
	if err != nil {
		s.rec.fail(id, "a leaguetui manager refuses this registration: "+err.Error(), received(in.Body),
			"a registration with sender, contact_endpoint (an http(s) URL) and a printable display_name")
		return
	}
	s.rec.pass(id, "")
}

// playLeague plays one match of each game as a leaguetui league would:
// announced, then refereed by leaguetui's rules. The player plays if no
// match is a technical loss of its.
func (s *session) playLeague(ctx context.Context) {
	if len(s.games) == 0 {
		for _, g := range Games {
			s.rec.skip("plays/"+g, fmt.Sprintf("the agent declares no game the checker plays (game_types %v)", s.meta.GameTypes))
		}
		return
	}
	for _, g := range Games {
		if !slices.Contains(s.games, g) {
			s.rec.skip("plays/"+g, "the agent does not play "+g+" here")
		}
	}
	announce := s.announcement()
	for i := range announce.Matches {
		announce.Matches[i].MatchID = leagueMatchID(i + 1)
	}
	// The manager's notices: their failures cost no match.
	_, _ = s.league.Send(ctx, rpc.Call{Endpoint: s.endpoint, Message: announce, Timeout: genericTimeout, Attempts: 1})
	for i, game := range s.games {
		s.statusf("playing %s %s as a leaguetui league would", game, leagueMatchID(i+1))
		o := s.leagueMatch(ctx, game, i+1, leagueMatchID(i+1))
		const lost = "technical loss in a leaguetui league: "
		switch {
		case o.Status == engine.StatusTechnicalLoss && slices.Contains(o.Offenders, s.id):
			s.rec.fail("plays/"+game, lost+o.Reason, exchange{}, "a match played to its result")
		case ctx.Err() != nil:
			s.rec.skip("plays/"+game, "interrupted")
		default:
			s.rec.pass("plays/"+game, fmt.Sprintf("%s, %s", strings.ToLower(string(o.Status)), o.Reason))
		}
	}
}

// leagueMatchID is the id of the league-played match of round round:
// apart from the conformance checks' R<n>M1.
func leagueMatchID(round int) string { return fmt.Sprintf("R%dM2", round) }

// leagueMatch runs one match with the engine's match loop, as leaguetui's
// referee does; the checker's opponent moves with a built-in strategy.
func (s *session) leagueMatch(ctx context.Context, game string, round int, matchID string) engine.Outcome {
	g, _ := engine.LookupGame(game)
	setup := engine.MatchSetup{MatchID: matchID, Seed: 1}
	if game == engine.LinkRaceType {
		setup.GameSetup = engine.RaceSetup{Pages: graphPages{}, Settings: engine.DefaultRaceSettings}
	}
	m := engine.NewMatchWith(g, setup, s.id, opponentPlayer)
	names := engine.StrategyNamesFor(game)
	opponent, err := engine.NewStrategyFor(game, names[0], 1)
	if err != nil {
		panic(err) // every game the checker plays has strategies
	}
	for !m.Done() && ctx.Err() == nil {
		state := m.State()
		for _, p := range m.Pending() {
			if m.Done() || m.State() != state {
				break // the step ended (a player failed): the loop asks again
			}
			switch {
			case m.State() == engine.StateWaitingForPlayers && p == opponentPlayer:
				m.Joined(p, true)
			case m.State() == engine.StateWaitingForPlayers:
				s.leagueInvite(ctx, m, game, round, matchID)
			case p == opponentPlayer:
				turn, _ := m.Turn(p)
				choice := opponent.Choose(engine.MoveContext{Self: p, OpponentID: s.id, MatchID: matchID, Round: round,
					GameType: game, Turn: turn.Number, MoveType: turn.MoveType, Options: turn.Options, State: turn.State})
				_ = m.Answered(p, engine.Answer{MoveType: turn.MoveType, Choice: choice})
			default:
				s.leagueMove(ctx, m, game, round, matchID)
			}
		}
	}
	o := m.Outcome()
	over := &protocol.GameOver{Envelope: s.refereeEnvelope(protocol.TypeGameOver, matchID, round), GameType: game,
		GameResult: protocol.GameResult{Status: string(o.Status), Choices: o.Moves, Reason: o.Reason, Details: o.Details},
		Reason:     o.Reason}
	if o.Winner != "" {
		over.GameResult.WinnerPlayerID = &o.Winner
	}
	cfg := s.leagueConfig()
	_, _ = s.league.Send(ctx, rpc.Call{Endpoint: s.endpoint, Message: over, Timeout: cfg.Timeouts.GameOver})
	return o
}

// leagueInvite invites the player as the referee does.
func (s *session) leagueInvite(ctx context.Context, m *engine.Match, game string, round int, matchID string) {
	inv := s.invitation(matchID, game, round)
	var ack protocol.GameJoinAck
	err := s.leagueAsk(ctx, inv, matchID, s.leagueConfig().Timeouts.JoinAck, protocol.TypeGameJoinAck,
		func(raw json.RawMessage) (bool, error) {
			ack = protocol.GameJoinAck{}
			return protocol.Decode(raw, &ack) == nil && protocol.HoldsJoin(raw), nil
		})
	if err != nil {
		m.Failed(s.id, err.Error())
		return
	}
	m.Joined(s.id, ack.Accept)
}

// leagueMove asks the player for this turn's move as the referee does; an
// invalid move is asked again, like a missing one.
func (s *session) leagueMove(ctx context.Context, m *engine.Match, game string, round int, matchID string) {
	turn, _ := m.Turn(s.id)
	request := protocol.MoveRequest{MoveType: turn.MoveType, ValidOptions: turn.Options}
	callType := protocol.MoveCallType(turn.MoveType)
	if callType == protocol.TypeGameMoveCall {
		request.Turn, request.Context = turn.Number, turn.State
	}
	call := s.moveCall(matchID, game, round, request)
	call.MessageType = callType
	answerType := protocol.TypeChooseParityResponse
	if callType == protocol.TypeGameMoveCall {
		answerType = protocol.TypeGameMoveResponse
	}
	err := s.leagueAsk(ctx, call, matchID, s.leagueConfig().Timeouts.Move, answerType,
		func(raw json.RawMessage) (bool, error) {
			answer, ok := protocol.ReadMove(raw)
			if !ok {
				return false, nil
			}
			if invalid := m.Answered(s.id, answer); errors.Is(invalid, engine.ErrInvalidMove) {
				return true, protocol.Reject(protocol.CodeInvalidMove, "%v", invalid)
			}
			return true, nil
		})
	if err != nil {
		m.Failed(s.id, err.Error())
	}
}

// leagueAsk sends msg with leaguetui's client and retry policy, each
// attempt within timeout. read says whether a reply holds the answer (and
// whether it is invalid); a reply without it means the answer is posted
// back to the referee's endpoint, which is waited for until the deadline.
func (s *session) leagueAsk(ctx context.Context, msg protocol.Message, matchID string, timeout time.Duration, answerType string,
	read func(json.RawMessage) (bool, error)) error {
	cfg := s.leagueConfig()
	callType := msg.Header().MessageType
	attempts := 0
	var failed error
	policy := retry.Configured(cfg.Retry)
	policy.BeforeRetry = func(attempt int, _ error) error {
		s.tellGameError(ctx, msg, answerType, failed, attempt, cfg.Retry.Attempts)
		return nil
	}
	err := retry.Do(ctx, policy, func(attempt int) error {
		attempts = attempt
		failed = s.leagueAskOnce(ctx, msg, matchID, timeout, answerType, read, attempt > 1)
		return failed
	})
	if err != nil {
		return fmt.Errorf("%s after %d attempts: %w", callType, attempts, err)
	}
	return nil
}

func (s *session) leagueAskOnce(ctx context.Context, msg protocol.Message, matchID string, timeout time.Duration, answerType string,
	read func(json.RawMessage) (bool, error), repeat bool) error {
	deadline := time.Now().Add(timeout)
	if call, ok := msg.(*protocol.MoveCall); ok {
		call.Deadline = protocol.FormatTime(deadline)
	}
	postedType := answerType
	if answerType == protocol.TypeGameMoveResponse {
		postedType = protocol.TypeChooseParityResponse // the message table reads it as an alias
	}
	before := len(s.mgr.received(postedType))
	raw, err := s.league.Send(ctx, rpc.Call{Endpoint: s.endpoint, Message: msg, Timeout: timeout, Attempts: 1, Repeat: repeat})
	if err != nil {
		return err
	}
	if answered, invalid := read(raw); answered {
		return invalid
	}
	posted := func() (json.RawMessage, bool) {
		for _, in := range s.mgr.received(postedType)[before:] {
			if str(fields(in.Message), "match_id") == matchID {
				return in.Message, true
			}
		}
		return nil, false
	}
	_ = s.mgr.await(ctx, time.Until(deadline), nil, func() bool { _, ok := posted(); return ok })
	if late, ok := posted(); ok {
		if answered, invalid := read(late); answered {
			return invalid
		}
		return protocol.Reject(protocol.CodeMissingField, "the posted %s holds no %s", answerType, protocol.AnswerField(answerType))
	}
	return &rpc.CallError{Code: protocol.CodeTimeout, Endpoint: s.endpoint,
		Err: errors.New(protocol.MissingAnswer(answerType) + " and posted none in time")}
}

// tellGameError tells the player, as the referee does before each retry,
// why its answer failed and that it is asked again.
func (s *session) tellGameError(ctx context.Context, call protocol.Message, answerType string, cause error, attempt, max int) {
	code := rpc.ErrorCode(cause)
	if code == "" {
		code = protocol.CodeMissingField
	}
	h := call.Header()
	msg := &protocol.GameError{Envelope: s.refereeEnvelope(protocol.TypeGameError, h.MatchID, int(h.RoundID)), ErrorCode: code,
		ErrorName: protocol.ErrorNames[code], ErrorDescription: cause.Error(), AffectedPlayer: s.id, PlayerID: s.id,
		ActionRequired: answerType, Retryable: true, RetryCount: attempt, MaxRetries: max,
		RetryInfo:   protocol.RetryInfo{RetryCount: attempt, MaxRetries: max},
		Consequence: fmt.Sprintf("technical loss if no valid %s after %d attempts", answerType, max)}
	_, _ = s.league.Send(ctx, rpc.Call{Endpoint: s.endpoint, Message: msg, Timeout: s.leagueConfig().Timeouts.GameOver, Attempts: 1, Repeat: true})
}

// graphPages serves the checker's page graph to the engine's link race, as
// a page server serves a referee's.
type graphPages struct{}

func (graphPages) Titles() ([]string, error) { return raceGraph().Titles(), nil }

func (graphPages) Page(title string) (engine.Page, error) {
	p, ok := raceGraph().Page(title)
	if !ok {
		return engine.Page{}, fmt.Errorf("no page %q", title)
	}
	return p, nil
}

func (graphPages) Capability() string { return "leaguetui check's page graph" }
