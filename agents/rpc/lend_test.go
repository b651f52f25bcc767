package rpc_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/rpc"
)

// lendingServer serves two message types: ROUND_ANNOUNCEMENT, whose
// handler only borrows the body (as an agent's acknowledgements do), and
// GAME_INVITATION, whose handler keeps every Inbound it gets (as the
// referee's inbox keeps late answers). Both hold each request until the
// test lets it go, so that all of a wave are read, each into a buffer of
// its own, before any handler looks at its body.
type lendingServer struct {
	entered chan struct{}
	release chan struct{} // replaced for each wave, under mu
	mu      sync.Mutex
	kept    map[string]protocol.Inbound // conversation id -> what the keeping handler got
	sent    map[string][]byte           // conversation id -> the message sent
	seen    []string                    // what a handler found wrong
}

func newLendingServer(t *testing.T) (*lendingServer, string) {
	ls := &lendingServer{entered: make(chan struct{}, 64), kept: map[string]protocol.Inbound{}, sent: map[string][]byte{}}
	s := rpc.NewServer(slog.New(slog.DiscardHandler), func() string { return "player:P01" })
	s.HandleBorrowing(protocol.TypeRoundAnnouncement, func(_ context.Context, in protocol.Inbound) (any, error) {
		ls.wait()
		ls.check(in)
		return &protocol.Ack{Envelope: protocol.NewEnvelope("ROUND_ANNOUNCEMENT_ACK", "player:P01", in.ConversationID), Status: "ok"}, nil
	})
	s.Handle(protocol.TypeGameInvitation, func(_ context.Context, in protocol.Inbound) (any, error) {
		ls.wait()
		ls.check(in)
		ls.mu.Lock()
		ls.kept[in.ConversationID] = in
		ls.mu.Unlock()
		return &protocol.Ack{Envelope: protocol.NewEnvelope("GAME_JOIN_ACK", "player:P01", in.ConversationID), Status: "ok"}, nil
	})
	l, err := s.Listen("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Shutdown(context.Background()) })
	return ls, l.URL()
}

// wait tells the test the handler is in, and waits for its wave to end.
func (ls *lendingServer) wait() {
	ls.mu.Lock()
	release := ls.release
	ls.mu.Unlock()
	ls.entered <- struct{}{}
	<-release
}

// check compares what a handler got with what was sent.
func (ls *lendingServer) check(in protocol.Inbound) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if want := ls.sent[in.ConversationID]; !bytes.Equal(in.Body, want) {
		ls.seen = append(ls.seen, fmt.Sprintf("%s got %.80q, sent %.80q", in.ConversationID, in.Body, want))
	}
}

// message is a league message of the given type whose every byte says
// which request it is: its conversation id, and padding of a length of
// its own (up to 12 KB, the size of a 64-player standings update).
func message(messageType string, n int, rng *rand.Rand) (conversation string, body []byte) {
	conversation = fmt.Sprintf("conv-%s-%05d", strings.ToLower(messageType[:4]), n)
	pad := strings.Repeat(string(rune('a'+n%26)), rng.IntN(12<<10))
	return conversation, fmt.Appendf(nil, `{"protocol":"league.v2","message_type":%q,"sender":"referee:REF01",`+
		`"timestamp":"2025-01-15T10:00:00Z","conversation_id":%q,"round_id":1,"match_id":"R1M%d","padding":%q}`,
		messageType, conversation, n, pad)
}

// TestLentBodiesStayEachRequestsOwn sends waves of concurrent requests of
// every size through a real server, half to a handler that borrows its
// body and half to one that keeps it: each handler must see its own
// bytes after the rest of its wave was read, and every kept body must
// still be what was sent after all later waves were read into the
// server's reused buffers.
func TestLentBodiesStayEachRequestsOwn(t *testing.T) {
	ls, url := newLendingServer(t)
	rng := rand.New(rand.NewPCG(13, 1))
	const waves, perWave = 12, 8
	n := 0
	for range waves {
		release := make(chan struct{})
		ls.mu.Lock()
		ls.release = release
		ls.mu.Unlock()
		replies := make(chan error, perWave)
		for i := range perWave {
			messageType := protocol.TypeRoundAnnouncement
			if i%2 == 1 {
				messageType = protocol.TypeGameInvitation
			}
			id := n
			n++
			conversation, msg := message(messageType, id, rng)
			ls.mu.Lock()
			ls.sent[conversation] = msg
			ls.mu.Unlock()
			go func() { replies <- postEcho(url, id, msg, conversation) }()
		}
		for range perWave {
			select {
			case <-ls.entered:
			case <-time.After(10 * time.Second):
				t.Fatal("a wave's requests did not all reach their handlers")
			}
		}
		close(release)
		for range perWave {
			if err := <-replies; err != nil {
				t.Error(err)
			}
		}
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for _, wrong := range ls.seen {
		t.Error(wrong)
	}
	if len(ls.kept) != waves*perWave/2 {
		t.Fatalf("the keeping handler kept %d bodies, want %d", len(ls.kept), waves*perWave/2)
	}
	for conversation, in := range ls.kept {
		if !bytes.Equal(in.Body, ls.sent[conversation]) {
			t.Errorf("kept body of %s changed after later requests: %.80q", conversation, in.Body)
		}
		if in.MessageType != protocol.TypeGameInvitation || in.Method != "league.handle_message" || in.Protocol != protocol.Version ||
			in.ConversationID != conversation {
			t.Errorf("kept Inbound of %s changed after later requests: %+v", conversation, in)
		}
	}
}

// postEcho posts msg as a JSON-RPC request and checks that the reply
// acknowledges its conversation.
func postEcho(url string, id int, msg []byte, conversation string) error {
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"league.handle_message","params":%s,"id":%d}`, msg, id)
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var reply bytes.Buffer
	if _, err := reply.ReadFrom(resp.Body); err != nil {
		return err
	}
	if want := fmt.Sprintf(`"conversation_id":%q`, conversation); !strings.Contains(reply.String(), want) {
		return fmt.Errorf("reply to %s does not echo it: %s", conversation, reply.String())
	}
	return nil
}
