package node

import (
	"context"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// Ack answers a notification with a small acknowledgement that echoes its
// conversation (the SPEC sample is {"status":"ok"}; the envelope is for
// strict peers).
func (n *Node) Ack(_ context.Context, in protocol.Inbound) (any, error) {
	// Routing read the conversation id already: the body is not parsed again.
	return &protocol.Ack{Envelope: n.PeerEnvelope(in.MessageType+"_ACK", in.ConversationID), Status: "ok"}, nil
}

// AcknowledgeNotifications routes notifications this agent only needs to
// acknowledge. LEAGUE_COMPLETED also runs the agent's LeagueCompleted hook,
// if it has one, and moves the agent to SHUTDOWN. Neither reads the body
// (routing read its conversation id): they only borrow it, and the
// server reuses its memory, the round's broadcasts being the largest
// bodies an agent gets.
func (n *Node) AcknowledgeNotifications(messageTypes ...string) {
	for _, t := range messageTypes {
		n.Server.HandleBorrowing(t, n.Ack)
	}
	n.Server.HandleBorrowing(protocol.TypeLeagueCompleted, func(ctx context.Context, in protocol.Inbound) (any, error) {
		if n.LeagueCompleted != nil {
			n.LeagueCompleted()
		}
		n.SetState(protocol.StateShutdown)
		return n.Ack(ctx, in)
	})
}
