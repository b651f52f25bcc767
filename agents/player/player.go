// Package player is the player agent: it registers with the manager, accepts
// invitations, answers move calls with its strategy, and keeps its history.
package player

import (
	"context"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// Options are what a player process is started with.
type Options struct {
	Config     config.Config
	DataDir    string
	Port       int
	ManagerURL string
	Name       string
	Strategy   string
	Seed       int64
}

// Player is the player agent.
type Player struct {
	*node.Node
	opts Options

	mu       sync.Mutex // serializes the strategy and the history
	strategy engine.Strategy
	moves    map[string]string // match id -> the move we gave, so a retry or a replay gets the same
	opponent map[string]string // match id -> opponent, from the invitation
	history  History
	// historyFile writes history.json at a bounded rate; nil until registered.
	historyFile *store.Coalescer
}

// New prepares a player with its strategy.
func New(opts Options) (*Player, error) {
	strategy, err := engine.NewStrategy(opts.Strategy, opts.Seed)
	if err != nil {
		return nil, err
	}
	n, err := node.New(opts.Config, "player", opts.Name, opts.DataDir)
	if err != nil {
		return nil, err
	}
	p := &Player{Node: n, opts: opts, strategy: strategy, moves: map[string]string{}, opponent: map[string]string{}}
	p.Server.Handle(protocol.TypeGameInvitation, p.handleInvitation)
	p.Server.Handle(protocol.TypeChooseParityCall, p.handleMoveCall)
	p.Server.Handle(protocol.TypeGameOver, p.handleGameOver)
	p.AcknowledgeNotifications(protocol.TypeRoundAnnouncement, protocol.TypeStandingsUpdate,
		protocol.TypeRoundCompleted, protocol.TypeGameError)
	p.Server.Handle(protocol.TypeLeagueCompleted, p.handleLeagueCompleted)
	return p, nil
}

// Start listens and registers with the manager.
func (p *Player) Start(ctx context.Context) error {
	if err := p.Listen(p.opts.Port); err != nil {
		return err
	}
	endpoint, err := p.ContactEndpoint(p.opts.ManagerURL)
	if err != nil {
		return err
	}
	req := &protocol.LeagueRegisterRequest{
		Envelope: p.Envelope(protocol.TypeLeagueRegisterRequest, ""),
		PlayerMeta: protocol.AgentMeta{DisplayName: p.Name, Version: protocol.ProtocolVersion,
			GameTypes: engine.GameTypes(), ContactEndpoint: endpoint, ProtocolVersion: protocol.ProtocolVersion},
	}
	timeout := p.opts.Config.Timeouts.RegisterPlayer
	regCtx, cancel := context.WithTimeout(ctx, 3*timeout)
	defer cancel()
	if _, err := p.Register(regCtx, p.opts.ManagerURL, req, timeout); err != nil {
		return err
	}
	id, _ := p.Identity()
	history, err := loadHistory(p.Layout.PlayerHistory(id), id, p.strategy.Name())
	if err != nil {
		p.Log.Warn("starting a new history", "event_type", "HISTORY_UNREADABLE", "err", err)
	}
	// Under p.mu: the server is already taking requests, and handleGameOver
	// reads the history under it.
	p.mu.Lock()
	p.history = history
	p.recall(p.Cfg.LeagueID)
	p.historyFile = p.openHistory(id)
	p.mu.Unlock()
	return nil
}

// recall replays what the history says of this league into the strategy,
// and remembers each move given: a player restarted in the middle of a
// league then chooses as if it had never stopped, and a match played again
// gets the same move. Call with p.mu held.
func (p *Player) recall(leagueID string) {
	for _, e := range p.history.Matches {
		if e.LeagueID != leagueID {
			continue
		}
		p.strategy.Observe(engine.Observation{MatchID: e.MatchID, OpponentID: e.OpponentID,
			MyMove: e.MyChoice, OpponentMove: e.OpponentChoice, Right: e.Details.NumberParity})
		if e.MyChoice != "" {
			p.moves[e.MatchID] = e.MyChoice
		}
	}
}

// handleInvitation always joins: auto_accept_invitations is the default.
func (p *Player) handleInvitation(_ context.Context, in protocol.Inbound) (any, error) {
	var inv protocol.GameInvitation
	if err := rpc.DecodeParams(in, &inv); err != nil {
		return nil, err
	}
	p.SetState(node.StateActive)
	p.mu.Lock()
	p.opponent[inv.MatchID] = inv.OpponentID
	p.mu.Unlock()
	id, _ := p.Identity()
	ack := &protocol.GameJoinAck{Envelope: p.PeerEnvelope(protocol.TypeGameJoinAck, inv.ConversationID),
		PlayerID: id, ArrivalTimestamp: protocol.FormatTime(time.Now()), Accept: true}
	ack.MatchID, ack.RoundID = inv.MatchID, inv.RoundID
	p.Log.Info("joined", "event_type", "GAME_JOINED", "match_id", inv.MatchID, "opponent_id", inv.OpponentID)
	return ack, nil
}

// handleMoveCall answers with the strategy's move, the same one again if the
// referee asks twice for the same match.
func (p *Player) handleMoveCall(_ context.Context, in protocol.Inbound) (any, error) {
	var call protocol.ChooseParityCall
	if err := rpc.DecodeParams(in, &call); err != nil {
		return nil, err
	}
	options := []string{engine.Even, engine.Odd}
	if call.MoveRequest != nil && len(call.MoveRequest.ValidOptions) > 0 {
		options = call.MoveRequest.ValidOptions
	}
	id, _ := p.Identity()
	p.mu.Lock()
	move, again := p.moves[call.MatchID]
	if !again {
		move = p.strategy.Choose(engine.MoveContext{Self: id, OpponentID: call.Context.OpponentID,
			MatchID: call.MatchID, Round: int(call.Context.RoundID), Options: options})
		p.moves[call.MatchID] = move
	}
	p.mu.Unlock()
	p.Log.Info("move chosen", "event_type", "CHOICE_MADE", "match_id", call.MatchID, "choice", move)
	resp := &protocol.ChooseParityResponse{Envelope: p.PeerEnvelope(protocol.TypeChooseParityResponse, call.ConversationID),
		PlayerID: id, ParityChoice: move}
	resp.MatchID, resp.RoundID = call.MatchID, call.RoundID
	return resp, nil
}

// handleGameOver learns from the result and records it in the history file.
func (p *Player) handleGameOver(ctx context.Context, in protocol.Inbound) (any, error) {
	var over protocol.GameOver
	if err := rpc.DecodeParams(in, &over); err != nil {
		return nil, err
	}
	id, _ := p.Identity()
	p.mu.Lock()
	entry, fresh := p.history.record(id, p.opponent[over.MatchID], over)
	if fresh {
		p.strategy.Observe(engine.Observation{MatchID: over.MatchID, OpponentID: entry.OpponentID,
			MyMove: entry.MyChoice, OpponentMove: entry.OpponentChoice, Right: entry.Details.NumberParity})
		// p.moves keeps the move: a match that is played again (its referee
		// or the manager failed before the result was recorded) gets the
		// same move, so it ends the same way.
		delete(p.opponent, over.MatchID)
	}
	file := p.historyFile
	save := fresh && p.history.due()
	p.mu.Unlock()
	if save && file != nil {
		file.Request()
	}
	return p.Ack(ctx, in)
}
