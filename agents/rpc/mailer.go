package rpc

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
)

// Mailer delivers notifications without ever holding up the sender: each
// recipient has its own queue, delivered in order by its own goroutine, so
// one slow or dead agent delays nobody else, and every agent still gets its
// messages in the order they were posted (standings before round-completed
// before the next round; a match's steps in order).
type Mailer struct {
	client  *Client
	log     *slog.Logger
	mu      sync.Mutex
	boxes   map[string]*mailbox
	pending sync.WaitGroup
}

type letter struct {
	msg     protocol.Message
	timeout time.Duration
}

// mailbox is one recipient's queue. The letters still to deliver are
// queue[head:]; a queue that empties starts again at the front of its
// array, so that a box posted a letter a round, and delivered before the
// next, allocates nothing for it (queue[1:] left no room to append in).
type mailbox struct {
	mu    sync.Mutex
	queue []letter
	head  int
	wake  chan struct{}
}

// NewMailer sends through client and logs what could not be delivered.
func NewMailer(client *Client, log *slog.Logger) *Mailer {
	return &Mailer{client: client, log: log, boxes: map[string]*mailbox{}}
}

// Post queues msg for endpoint and returns at once. Delivery uses the
// client's retry policy with timeout for each attempt.
func (p *Mailer) Post(endpoint string, msg protocol.Message, timeout time.Duration) {
	p.pending.Add(1)
	p.mu.Lock()
	box, ok := p.boxes[endpoint]
	if !ok {
		box = &mailbox{wake: make(chan struct{}, 1)}
		p.boxes[endpoint] = box
		go p.deliver(endpoint, box)
	}
	p.mu.Unlock()
	box.push(letter{msg: msg, timeout: timeout})
	select {
	case box.wake <- struct{}{}:
	default:
	}
}

func (p *Mailer) deliver(endpoint string, box *mailbox) {
	for range box.wake {
		for l, ok := box.next(); ok; l, ok = box.next() {
			call := Call{Endpoint: endpoint, Message: l.msg, Timeout: l.timeout}
			if _, err := p.client.Send(context.Background(), call); err != nil {
				p.log.Warn("notification not delivered", "event_type", "NOTIFICATION_FAILED", "endpoint", endpoint,
					"message_type", l.msg.Header().MessageType, "err", err)
			}
			p.pending.Done()
		}
	}
}

func (b *mailbox) push(l letter) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue) == cap(b.queue) && b.head > 0 {
		// Full, with delivered letters in front: the rest slide down
		// rather than the array grow.
		n := copy(b.queue, b.queue[b.head:])
		clear(b.queue[n:])
		b.queue, b.head = b.queue[:n], 0
	}
	b.queue = append(b.queue, l)
}

func (b *mailbox) next() (letter, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.head == len(b.queue) {
		return letter{}, false
	}
	l := b.queue[b.head]
	b.queue[b.head] = letter{} // delivered: the box keeps no message alive
	b.head++
	if b.head == len(b.queue) {
		b.queue, b.head = b.queue[:0], 0
	}
	return l, true
}

// Drain waits until every posted message was delivered or given up, or ctx ends.
func (p *Mailer) Drain(ctx context.Context) {
	done := make(chan struct{})
	go func() { p.pending.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}
