package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/agents/relay"
	"github.com/leaguetui/leaguetui/agents/seat"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// hostPullPlayers starts spec.Players players in this process that
// register with the contact endpoint "pull" (relay.Marker) and take
// their calls from their pull seats: each polls its seat on the
// manager's relay, has its player answer the call in this process (its
// handler, as a pull starter's loop calls its own) and carries the
// answer on its next poll.
func hostPullPlayers(ctx context.Context, spec launcher.Spec, managerURL string) (func(), error) {
	spec.Config.Network.Advertise = relay.Marker
	hosted, err := hostPlayers(ctx, spec, managerURL, spec.Players)
	if err != nil {
		return nil, err
	}
	polling, stopPolling := context.WithCancel(ctx)
	var polls sync.WaitGroup
	base := strings.TrimSuffix(strings.TrimSuffix(managerURL, "/"), "/mcp")
	client := keptAlive(len(hosted))
	for _, p := range hosted {
		polls.Go(func() { pullLoop(polling, client, base, p) })
	}
	return func() { stopPolling(); polls.Wait(); hosted.stop() }, nil
}

// keptAlive is a client to one host for players that each keep their
// connections alive, as each would with a client of its own: net/http's
// default keeps 2 idle connections a host, and players sharing one would
// open a new connection for most requests.
func keptAlive(players int) *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4*players + 8, IdleConnTimeout: time.Minute}}
}

// pullWorkers is how many calls a pull player answers at once: a
// notification may come while a match's call is answered.
const pullWorkers = 2

// pullLoop is a pull player's loop, until ctx ends: pullWorkers workers,
// each posting the answer to its last call with the poll for its next
// (POST …/next with League-Delivery), one request a call.
func pullLoop(ctx context.Context, client *http.Client, base string, p *player.Player) {
	id, token := p.Identity()
	url := base + "/pull/" + id + "/next"
	var workers sync.WaitGroup
	for range pullWorkers {
		workers.Go(func() {
			var answered string // the delivery whose answer goes with the next poll
			var answer []byte
			for ctx.Err() == nil {
				call, delivery, err := relay.AnswerAndPoll(ctx, client, url, token, answered, answer, pullBytes)
				answered, answer = "", nil
				if err != nil {
					sleepCtx(ctx, 100*time.Millisecond) // refused, or the manager is gone: do not spin
					continue
				}
				if delivery != "" {
					answered, answer = delivery, answerCall(ctx, p, call)
				}
			}
		})
	}
	workers.Wait()
}

// pullBytes bounds what a poll reads: a call is at most the league's
// message size, far under this.
const pullBytes = 8 << 20

// answerCall is p's handler's answer to call, as a pull starter's loop
// has its player answer; a notification's answer is the empty body.
func answerCall(ctx context.Context, p *player.Player, call []byte) []byte {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "/mcp", bytes.NewReader(call))
	if err != nil {
		return nil
	}
	req.Header.Set("Content-Type", "application/json")
	answer := httptest.NewRecorder()
	p.Server.ServeHTTP(answer, req)
	return answer.Body.Bytes()
}

// playSeats takes every seat of the league's seats file with an MCP
// client of the official Go SDK over Streamable HTTP, one session a seat,
// and plays each: wait_for_turn, then submit_move with its first legal
// move, until the league is completed. The seats are taken before it
// returns, so the league has its players.
func playSeats(ctx context.Context, seatsFile string) (func(), error) {
	file, err := store.LoadSeats(seatsFile)
	if err != nil {
		return nil, err
	}
	playing, stopPlaying := context.WithCancel(ctx)
	var clients sync.WaitGroup
	stop := func() { stopPlaying(); clients.Wait() }
	client := keptAlive(len(file.Seats))
	errs := make([]error, len(file.Seats))
	sessions := make([]*mcp.ClientSession, len(file.Seats))
	var taking sync.WaitGroup
	slots := make(chan struct{}, registeringAtOnce)
	for i, s := range file.Seats {
		slots <- struct{}{}
		taking.Go(func() {
			defer func() { <-slots }()
			sessions[i], errs[i] = takeSeat(playing, client, file.MCPURL, s)
		})
	}
	taking.Wait()
	if err := errors.Join(errs...); err != nil {
		closeSessions(sessions)
		stop()
		return nil, err
	}
	for _, s := range sessions {
		clients.Go(func() { playSeat(playing, s) })
	}
	return func() { stop(); closeSessions(sessions) }, nil
}

// takeSeat opens an MCP session at url and takes seat s with its code.
func takeSeat(ctx context.Context, client *http.Client, url string, s store.SeatCode) (*mcp.ClientSession, error) {
	session, err := mcp.NewClient(&mcp.Implementation{Name: "leaguetui-bench", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client}, nil)
	if err != nil {
		return nil, fmt.Errorf("seat %s: %w", s.Name, err)
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "take_seat", Arguments: map[string]any{"join_code": s.JoinCode}})
	if err == nil && res.IsError {
		err = fmt.Errorf("take_seat answered an error: %s", toolText(res))
	}
	if err != nil {
		_ = session.Close()
		return nil, fmt.Errorf("seat %s: %w", s.Name, err)
	}
	return session, nil
}

// playSeat is an MCP client's loop over the tools, answering each turn
// at once with its first legal move, until the league is completed or
// ctx ends.
func playSeat(ctx context.Context, session *mcp.ClientSession) {
	for ctx.Err() == nil {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "wait_for_turn", Arguments: map[string]any{"timeout_seconds": 5}})
		if err != nil || res.IsError {
			if err != nil {
				sleepCtx(ctx, 100*time.Millisecond) // the host is gone or stopping: do not spin
			}
			continue
		}
		var turn seat.Turn
		raw, _ := json.Marshal(res.StructuredContent)
		if json.Unmarshal(raw, &turn) != nil {
			continue
		}
		switch {
		case turn.State == seat.StateLeagueCompleted:
			return
		case turn.State == seat.StateYourTurn && len(turn.Legal) > 0:
			_, _ = session.CallTool(ctx, &mcp.CallToolParams{Name: "submit_move",
				Arguments: map[string]any{"match_id": turn.MatchID, "move": turn.Legal[0]}})
		}
	}
}

func closeSessions(sessions []*mcp.ClientSession) {
	for _, s := range sessions {
		if s != nil {
			_ = s.Close()
		}
	}
}

// toolText is a tool result's text, for an error to quote.
func toolText(res *mcp.CallToolResult) string {
	var out []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			out = append(out, t.Text)
		}
	}
	return strings.Join(out, " ")
}

// sleepCtx waits d or until ctx ends: a pause between retries of a
// client whose host does not answer, not a synchronisation.
func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
