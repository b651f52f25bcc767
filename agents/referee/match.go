package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/metrics"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/retry"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// matchRun is one match in progress: the engine's state machine plus the
// talking to players around it, and the transcript of every exchange.
type matchRun struct {
	r          *Referee
	start      protocol.StartMatch
	game       engine.Game
	match      *engine.Match
	endpoints  map[string]string
	tickets    map[string]string // player id -> its match ticket, from start_match
	senders    [2]string         // players A and B as senders, for the transcript
	conv       string
	transcript *transcript
	createdAt  time.Time
	file       string // where the match file goes, checked at start
	// mu serializes what the two players' goroutines do to match: both are
	// asked at once, and engine.Match is not safe for concurrent use.
	mu sync.Mutex
}

// locked runs f on the match under mu.
func (run *matchRun) locked(f func(m *engine.Match)) {
	run.mu.Lock()
	defer run.mu.Unlock()
	f(run.match)
}

func newMatchRun(r *Referee, start protocol.StartMatch, game engine.Game, file string) *matchRun {
	return &matchRun{
		r: r, start: start, game: game, file: file,
		match: engine.NewMatchWith(game, r.matchSetup(start, game), start.PlayerAID, start.PlayerBID),
		endpoints: map[string]string{
			start.PlayerAID: start.PlayerAEndpoint,
			start.PlayerBID: start.PlayerBEndpoint,
		},
		tickets: map[string]string{
			start.PlayerAID: start.PlayerATicket,
			start.PlayerBID: start.PlayerBTicket,
		},
		senders:    [2]string{protocol.PlayerSender(start.PlayerAID), protocol.PlayerSender(start.PlayerBID)},
		conv:       fmt.Sprintf("conv-%s-%s", start.MatchID, start.LeagueID),
		transcript: &transcript{},
		createdAt:  time.Now().UTC(),
	}
}

// play runs the turn loop to the end, tells the players, saves the match
// file and reports the result.
func (run *matchRun) play(ctx context.Context) {
	run.log(slog.LevelInfo, "match started", slog.String("event_type", "MATCH_STARTED"),
		slog.String("player_A", run.start.PlayerAID), slog.String("player_B", run.start.PlayerBID))
	outcome, played := run.playOut(ctx)
	if !played {
		// The referee is shutting down: the players' failures were its
		// own, so the match has no result; the manager plays it again.
		run.log(slog.LevelInfo, "match cancelled: the referee is shutting down", slog.String("event_type", "MATCH_CANCELLED"))
		return
	}
	run.step(outcome.Step, outcome.Reason)
	run.forEachPlayer(ctx, func(ctx context.Context, player string) { run.notifyGameOver(ctx, player, outcome) })
	err := run.saveDurably(ctx, outcome)
	// The slot is free before the manager hears the result: it hands this
	// referee its next match as soon as the report arrives.
	run.r.release(run.start.MatchID)
	if err != nil {
		// The match's steps still queued go when the window ends.
		run.log(slog.LevelError, "result withheld: its match file cannot be written", slog.String("event_type", "REPORT_WITHHELD"), slog.Any("err", err))
		return
	}
	// The report carries the steps not yet sent: the manager has every
	// step of the match before its result.
	if err := run.report(ctx, outcome, run.r.steps.take(ctx, run.start.MatchID)); err != nil {
		run.log(slog.LevelError, "result not reported", slog.String("event_type", "REPORT_FAILED"), slog.Any("err", err))
		return
	}
	run.r.states.record(run, "finished", string(outcome.Status)) // the manager has the result: no step to send
	run.r.metrics.MatchesDone.Inc()
	run.r.metrics.MatchDuration.Observe(time.Since(run.createdAt).Seconds())
	run.log(slog.LevelInfo, "match finished", slog.String("event_type", "MATCH_FINISHED"),
		slog.String("status", string(outcome.Status)), slog.String("winner", outcome.Winner))
}

// gameAttempts is how many times a match is played when the game itself
// fails in it (a game program that crashes, hangs or contradicts
// itself): once more with a new game, then its failure is the result.
const gameAttempts = 2

// playOut plays the match to its outcome, again with a new game when the
// game failed in it, up to gameAttempts plays; false when the referee is
// shutting down first.
func (run *matchRun) playOut(ctx context.Context) (engine.Outcome, bool) {
	for attempt := 1; ; attempt++ {
		run.turnLoop(ctx)
		if ctx.Err() != nil {
			return engine.Outcome{}, false
		}
		outcome := run.match.Outcome()
		if !outcome.GameFailed || attempt == gameAttempts {
			return outcome, true
		}
		run.step("game failed", outcome.Reason+"; the match is played again with a new game")
		run.log(slog.LevelWarn, "the game failed: the match is played again", slog.String("event_type", "GAME_FAILED"),
			slog.String("reason", outcome.Reason), slog.Int("attempt", attempt))
		run.restart(attempt + 1)
	}
}

// turnLoop runs the match's steps (the invitations, then each turn) until
// it is done.
func (run *matchRun) turnLoop(ctx context.Context) {
	for turn := 0; !run.match.Done(); {
		switch run.match.State() {
		case engine.StateWaitingForPlayers:
			run.step("invited", "")
			run.forEachPending(ctx, run.invite)
		case engine.StateCollectingMoves:
			turn++
			run.turnStep(turn)
			run.forEachPending(ctx, run.askMove)
		}
	}
}

// restart begins the match again with a new game (a game program's new
// process) and the same seed and players, who joined already: they are
// not invited twice. A player asked again for a turn it answered gives
// the same move (it keeps its moves by match and turn).
func (run *matchRun) restart(attempt int) {
	setup := run.r.matchSetup(run.start, run.game)
	setup.Attempt = attempt
	match := engine.NewMatchWith(run.game, setup, run.start.PlayerAID, run.start.PlayerBID)
	match.Joined(run.start.PlayerAID, true)
	match.Joined(run.start.PlayerBID, true)
	run.mu.Lock()
	run.match = match
	run.mu.Unlock()
}

// log writes one of the match's lines: its match_id, then attrs. It is
// the line Log.With("match_id", …) and key-value pairs write, without
// a logger derived for each match and the pairs turned into attributes.
func (run *matchRun) log(level slog.Level, msg string, attrs ...slog.Attr) {
	const most = 3 // the most attrs a match's line has; more costs an allocation
	all := append(make([]slog.Attr, 0, 1+most), slog.String("match_id", run.start.MatchID))
	run.r.Log.LogAttrs(context.Background(), level, msg, append(all, attrs...)...)
}

// turnStep tells the manager a turn begins: "joined" then "choosing" for
// the first, "turn N" for each later one, with where the game stands.
func (run *matchRun) turnStep(turn int) {
	run.r.CountTurn()
	var progress string
	run.locked(func(m *engine.Match) { progress = m.Progress() })
	if turn == 1 {
		run.step("joined", "")
	}
	run.step(engine.TurnStep(turn), progress)
}

// step tells the manager how the match goes on, without waiting for it,
// and keeps the state get_match_state answers.
func (run *matchRun) step(name, detail string) {
	run.r.states.record(run, name, detail)
	run.r.steps.post(protocol.StepEntry{RoundID: run.start.RoundID, MatchID: run.start.MatchID, Step: name, Detail: detail})
}

// forEachPending runs step for every player the current step waits for, in
// parallel: neither player waits on the other, nor sees the other's move.
func (run *matchRun) forEachPending(ctx context.Context, step func(context.Context, string)) {
	var wg sync.WaitGroup
	for _, p := range run.match.Pending() {
		wg.Add(1)
		go func() { defer wg.Done(); step(ctx, p) }()
	}
	wg.Wait()
}

func (run *matchRun) forEachPlayer(ctx context.Context, step func(context.Context, string)) {
	var wg sync.WaitGroup
	for _, p := range run.match.Players() {
		wg.Add(1)
		go func() { defer wg.Done(); step(ctx, p) }()
	}
	wg.Wait()
}

func (run *matchRun) opponentOf(player string) (opponent, role string) {
	players := run.match.Players()
	if player == players[0] {
		return players[1], protocol.RolePlayerA
	}
	return players[0], protocol.RolePlayerB
}

// senderOf is player as the sender of its messages, made once a match.
func (run *matchRun) senderOf(player string) string {
	switch player {
	case run.start.PlayerAID:
		return run.senders[0]
	case run.start.PlayerBID:
		return run.senders[1]
	}
	return protocol.PlayerSender(player)
}

func (run *matchRun) envelope(messageType string) protocol.Envelope {
	env := run.r.PeerEnvelope(messageType, run.conv)
	env.RoundID, env.MatchID = run.start.RoundID, run.start.MatchID
	if run.start.LeagueID != "" {
		env.LeagueID = run.start.LeagueID
	}
	return env
}

// envelopeTo starts a message to player: its match ticket is the auth_token,
// what the player checks that the manager gave this referee this match.
func (run *matchRun) envelopeTo(messageType, player string) protocol.Envelope {
	env := run.envelope(messageType)
	env.AuthToken = run.tickets[player]
	return env
}

// invite sends GAME_INVITATION and records the player's join or failure.
func (run *matchRun) invite(ctx context.Context, player string) {
	opponent, role := run.opponentOf(player)
	msg := &protocol.GameInvitation{Envelope: run.envelopeTo(protocol.TypeGameInvitation, player), GameType: run.game.Type(),
		RoleInMatch: role, OpponentID: opponent, PlayerID: player}
	var ack protocol.GameJoinAck
	err := run.ask(ctx, player, msg, run.r.opts.Config.Timeouts.JoinAck, protocol.TypeGameJoinAck,
		func(raw json.RawMessage) (bool, error) {
			ack = protocol.GameJoinAck{}
			if protocol.Decode(raw, &ack) != nil || !protocol.HoldsJoin(raw) {
				return false, nil
			}
			return true, nil
		})
	run.locked(func(m *engine.Match) {
		if err != nil {
			m.Failed(player, err.Error())
			return
		}
		m.Joined(player, ack.Accept)
	})
}

// askMove asks for the game's move of this turn and records it; an answer
// that is not a move is retried like a timeout, with GAME_ERROR first.
func (run *matchRun) askMove(ctx context.Context, player string) {
	var turn engine.Turn
	run.locked(func(m *engine.Match) { turn, _ = m.Turn(player) })
	call := run.moveCall(player, turn)
	err := run.ask(ctx, player, call, run.r.opts.Config.Timeouts.Move, protocol.MovesOf(turn.MoveType).Answer,
		func(raw json.RawMessage) (bool, error) {
			answer, ok := protocol.ReadMove(raw)
			if !ok {
				return false, nil
			}
			var invalid error
			run.locked(func(m *engine.Match) { invalid = m.Answered(player, answer) })
			if errors.Is(invalid, engine.ErrInvalidMove) {
				return true, protocol.Reject(protocol.CodeInvalidMove, "%v", invalid)
			}
			return true, nil
		})
	if err != nil {
		run.locked(func(m *engine.Match) { m.Failed(player, err.Error()) })
	}
}

// moveCall is the call that asks player for turn's move: CHOOSE_PARITY_CALL
// for even/odd's move, as league.v2 has it, GAME_MOVE_CALL with the turn and
// what the game shows for every other.
func (run *matchRun) moveCall(player string, turn engine.Turn) *protocol.MoveCall {
	opponent, _ := run.opponentOf(player)
	callType := protocol.MovesOf(turn.MoveType).Call
	request := &protocol.MoveRequest{MoveType: turn.MoveType, ValidOptions: turn.Options}
	if callType == protocol.TypeGameMoveCall {
		request.Turn, request.Context = turn.Number, turn.State
	}
	return &protocol.MoveCall{Envelope: run.envelopeTo(callType, player), PlayerID: player, GameType: run.game.Type(),
		Context: protocol.MoveContext{OpponentID: opponent, RoundID: run.start.RoundID,
			YourStandings: run.start.Standings[player]},
		MoveRequest: request,
	}
}

// ask sends msg to player up to the configured attempts. read looks at a
// reply: whether it holds the answer, and whether that answer is invalid.
// A reply without the answer means the player will post it back; we wait
// for that until the call's deadline. Before each retry the player gets a
// GAME_ERROR saying why. The first attempt is always made, whatever the
// circuit breaker says of the player: a technical loss needs a real
// failure at this match. Retries and GAME_ERRORs are repeats, which an open
// breaker (the player has failed call after call) fails at once; the error
// then names the last real failure.
func (run *matchRun) ask(ctx context.Context, player string, msg protocol.Message, timeout time.Duration,
	answerType string, read func(json.RawMessage) (bool, error)) error {
	a := run.r.asks.Get().(*asking)
	defer run.r.asks.Put(a)
	a.run, a.ctx, a.player, a.callType, a.answerType = run, ctx, player, msg.Header().MessageType, answerType
	defer a.clear()
	attempts, skipped := 0, 0
	err := retry.Do(ctx, a.policy, func(attempt int) error {
		attempts = attempt
		err := run.askOnce(ctx, player, msg, timeout, answerType, read, attempt > 1)
		if rpc.RefusedByBreaker(err) && a.failed != nil {
			skipped++
		} else if err != nil {
			a.failed = err
		}
		return err
	})
	switch {
	case err == nil || interrupted(err):
		return err
	case skipped > 0:
		return fmt.Errorf("%s after %d attempts, %d of them skipped by the open circuit breaker: %w",
			a.callType, attempts, skipped, a.failed)
	}
	return fmt.Errorf("%s after %d attempts: %w", a.callType, attempts, a.failed)
}

// asking is what an ask's retry policy reads: the policy and its hooks
// are made once for all the asks that reuse it (Referee.asks), not for
// every one.
type asking struct {
	policy     retry.Policy
	run        *matchRun
	ctx        context.Context
	player     string
	callType   string
	answerType string
	failed     error // the last real failure
}

func newAsking(cfg config.Retry) *asking {
	a := &asking{policy: retry.Configured(cfg)}
	a.policy.Final = a.final
	a.policy.BeforeRetry = a.beforeRetry
	return a
}

// final: once the context ends, the ask ends, reported like attempts that
// ran out.
func (a *asking) final(error) bool { return a.ctx.Err() != nil }

// beforeRetry tells the player why it is asked again.
func (a *asking) beforeRetry(attempt int, _ error) error {
	a.run.gameError(a.ctx, a.player, a.callType, a.answerType, a.failed, attempt)
	return nil
}

// clear lets go of the ask, before the next reuses its policy.
func (a *asking) clear() { *a = asking{policy: a.policy} }

// interrupted reports the retry loop's error when the context ended it.
func interrupted(err error) bool {
	var interrupted *retry.Interrupted
	return errors.As(err, &interrupted)
}

func (run *matchRun) askOnce(ctx context.Context, player string, msg protocol.Message, timeout time.Duration,
	answerType string, read func(json.RawMessage) (bool, error), repeat bool) error {
	deadline := time.Now().Add(timeout)
	kind := metrics.CallJoin
	if call, ok := msg.(*protocol.MoveCall); ok {
		call.Deadline = protocol.FormatTime(deadline) // protocol.md §3.8: now + the move timeout, for this attempt
		kind = metrics.CallMove
	}
	late := run.r.inbox.expect(run.start.MatchID, player, answerType, run.tickets[player])
	defer late.close()
	asked := time.Now()
	raw, err := run.tell(ctx, player, msg, rpc.Call{Timeout: timeout, Attempts: 1, Repeat: repeat})
	if err != nil {
		return err
	}
	run.r.metrics.MoveDuration.WithLabelValues(kind).Observe(time.Since(asked).Seconds())
	run.transcript.addRaw(run.senderOf(player), run.r.Sender(), raw)
	if answered, invalid := read(raw); answered {
		return invalid
	}
	select {
	case raw := <-late.answers:
		run.transcript.addRaw(run.senderOf(player), run.r.Sender(), raw)
		if answered, invalid := read(raw); answered {
			return invalid
		}
		return protocol.Reject(protocol.CodeMissingField, "the posted %s holds no %s", answerType, protocol.AnswerField(answerType))
	case <-time.After(time.Until(deadline)):
		return &rpc.CallError{Code: protocol.CodeTimeout, Endpoint: run.endpoints[player],
			Err: errors.New(protocol.MissingAnswer(answerType) + " and posted none in time")}
	case <-ctx.Done():
		return ctx.Err()
	}
}

// tell records msg in the transcript and sends it to player as call says,
// encoded once for both.
func (run *matchRun) tell(ctx context.Context, player string, msg protocol.Message, call rpc.Call) (json.RawMessage, error) {
	call.Endpoint = run.endpoints[player]
	call.Message = run.transcript.add(run.r.Sender(), run.senderOf(player), msg)
	return run.r.Client.Send(ctx, call)
}

// gameError tells a player its answer failed and that it will be asked again.
func (run *matchRun) gameError(ctx context.Context, player, callType, action string, cause error, attempt int) {
	code := retryCode(cause)
	max := run.r.opts.Config.Retry.Attempts
	var state engine.MatchState
	run.locked(func(m *engine.Match) { state = m.State() })
	msg := &protocol.GameError{Envelope: run.envelopeTo(protocol.TypeGameError, player), ErrorCode: code,
		ErrorName: protocol.ErrorNames[code], ErrorDescription: cause.Error(), AffectedPlayer: player, PlayerID: player,
		ActionRequired: action, GameState: string(state), Retryable: true,
		RetryCount: attempt, MaxRetries: max, RetryInfo: protocol.RetryInfo{RetryCount: attempt, MaxRetries: max},
		Consequence: "technical loss if no valid " + action + " after " + fmt.Sprint(max) + " attempts"}
	run.r.Log.Warn("retrying", "event_type", "GAME_ERROR", "match_id", run.start.MatchID, "player_id", player,
		"call", callType, "attempt", attempt, "err", cause)
	_, _ = run.tell(ctx, player, msg, rpc.Call{Timeout: run.r.opts.Config.Timeouts.GameOver, Attempts: 1, Repeat: true})
}

// retryCode is the protocol.md §5.3 code a GAME_ERROR gives for why an
// answer failed: E001 or E009 when none came, our own code for an answer we
// refused (E004 for an invalid move), and E003 for an answer that held no
// valid reply, such as a JSON-RPC error: a peer's own code is never relayed.
func retryCode(cause error) string {
	var callErr *rpc.CallError
	var refused *protocol.LeagueError
	switch {
	case errors.As(cause, &callErr):
		return callErr.Code
	case errors.Is(cause, context.DeadlineExceeded):
		return protocol.CodeTimeout
	case errors.As(cause, &refused) && refused.ErrorCode == protocol.CodeInvalidMove:
		return protocol.CodeInvalidMove
	}
	return protocol.CodeMissingField
}

// notifyGameOver sends the same GAME_OVER to a player; a player that does
// not acknowledge it changes nothing. To a player that just failed this
// match it is a repeat: skipped while its breaker is open.
func (run *matchRun) notifyGameOver(ctx context.Context, player string, o engine.Outcome) {
	msg := &protocol.GameOver{Envelope: run.envelopeTo(protocol.TypeGameOver, player), GameType: run.game.Type(),
		GameResult: gameResult(o), Reason: o.Reason}
	raw, err := run.tell(ctx, player, msg, rpc.Call{Timeout: run.r.opts.Config.Timeouts.GameOver, Attempts: 1,
		Repeat: slices.Contains(o.Offenders, player)})
	if err == nil {
		run.transcript.addRaw(run.senderOf(player), run.r.Sender(), raw)
	}
}

func gameResult(o engine.Outcome) protocol.GameResult {
	var winner *string
	if o.Winner != "" {
		w := o.Winner
		winner = &w
	}
	return protocol.GameResult{Status: string(o.Status), WinnerPlayerID: winner, Choices: o.Moves,
		Reason: o.Reason, Details: withStatuses(o.Details, o.Statuses)}
}

// withStatuses adds each player's own ending, for games that have one, to
// the game's details as player_statuses.
func withStatuses(details map[string]any, statuses map[string]string) map[string]any {
	if len(statuses) == 0 {
		return details
	}
	out := maps.Clone(details)
	if out == nil {
		out = map[string]any{}
	}
	out["player_statuses"] = statuses
	return out
}

// report sends MATCH_RESULT_REPORT, with the match's steps not yet sent,
// to the manager with the retry policy.
func (run *matchRun) report(ctx context.Context, o engine.Outcome, steps []protocol.StepEntry) error {
	cfg := run.r.opts.Config
	result := run.result(o)
	msg := &protocol.MatchResultReport{Envelope: run.r.Envelope(protocol.TypeMatchResultReport, run.conv+"-report"),
		GameType: run.game.Type(), Result: protocol.ReportResult{Winner: result.WinnerPlayerID, Score: result.Score,
			Status: string(o.Status), Details: protocol.ReportDetails{Choices: o.Moves, Game: withStatuses(o.Details, o.Statuses),
				Reason: o.Reason}}}
	msg.RoundID, msg.MatchID, msg.Steps = run.start.RoundID, run.start.MatchID, steps
	if o.Status == engine.StatusTechnicalLoss {
		msg.Result.Details.TechnicalLoss = true
		msg.Result.Details.Offenders = o.Offenders
		if len(o.Offenders) == 1 {
			msg.Result.Details.OffendingPlayer = o.Offenders[0]
		}
	}
	var ack protocol.Ack
	return run.r.Client.Do(ctx, rpc.Call{Endpoint: run.r.opts.ManagerURL, Message: encodedOnce(msg), Timeout: cfg.Timeouts.Report,
		BeforeRetry: func(attempt int, err error) {
			run.r.Log.Warn("result not taken yet, retrying", "event_type", "REPORT_RETRY", "match_id", run.start.MatchID,
				"attempt", attempt, "err", err)
		}}, &ack)
}

// encodedOnce is msg encoded for every attempt and form of its call, in
// the bytes the client would make of it each time; one that does not
// encode goes as it is, for the client to say why.
func encodedOnce(msg protocol.Message) protocol.Message {
	if encoded, err := protocol.Encode(msg); err == nil {
		return encoded
	}
	return msg
}
