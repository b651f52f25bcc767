package node

import (
	"context"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/store"
)

// Ack answers a notification with a small acknowledgement that echoes its
// conversation (the SPEC sample is {"status":"ok"}; the envelope is for
// strict peers).
func (n *Node) Ack(_ context.Context, in protocol.Inbound) (any, error) {
	// Routing read the conversation id already: the body is not parsed again.
	ackType, known := ackTypes[in.MessageType]
	if !known {
		ackType = in.MessageType + "_ACK"
	}
	return &protocol.Ack{Envelope: n.PeerEnvelope(ackType, in.ConversationID), Status: "ok"}, nil
}

// ackTypes is the message type of Ack's answer to each message type
// routing knows, made once rather than for every acknowledgement.
var ackTypes = func() map[string]string {
	out := make(map[string]string, len(protocol.Messages))
	for _, m := range protocol.Messages {
		out[m.Type] = m.Type + "_ACK"
	}
	return out
}()

// AcknowledgeNotifications routes notifications this agent only needs to
// acknowledge: they change nothing, so they are taken from anyone. Neither
// reads the body (routing read its conversation id): they only borrow it,
// and the server reuses its memory, the round's broadcasts being the
// largest bodies an agent gets. LEAGUE_COMPLETED, which changes the agent,
// is routed too: see leagueCompleted.
func (n *Node) AcknowledgeNotifications(messageTypes ...string) {
	for _, t := range messageTypes {
		n.Server.HandleBorrowing(t, n.Ack)
	}
	n.Server.HandleBorrowing(protocol.TypeLeagueCompleted, n.leagueCompleted)
}

// leagueCompleted takes LEAGUE_COMPLETED from this agent's manager only
// (CheckManager): it runs the agent's LeagueCompleted hook, if it has one,
// and moves the agent to SHUTDOWN. From anyone else it is refused and
// changes nothing: /health goes on saying what the agent is doing.
func (n *Node) leagueCompleted(ctx context.Context, in protocol.Inbound) (any, error) {
	var env protocol.Envelope
	if err := rpc.DecodeParams(in, &env); err != nil {
		return nil, err
	}
	if err := n.CheckManager("notify_league_completed", env.AuthToken); err != nil {
		n.Log.Warn("league completion refused", "event_type", "NOTIFICATION_REFUSED", store.RefusedKey, protocol.RefusalReason(err),
			"message_type", protocol.TypeLeagueCompleted,
			"sender", env.Sender, "err", err)
		return nil, err
	}
	if n.LeagueCompleted != nil {
		n.LeagueCompleted()
	}
	n.SetState(protocol.StateShutdown)
	return n.Ack(ctx, in)
}
