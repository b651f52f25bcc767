package relay_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/relay"
)

// moveCall is a referee's move call, the size of an even/odd one.
const moveCall = `{"jsonrpc":"2.0","id":7,"method":"choose_parity","params":{"protocol":"league.v2","message_type":"CHOOSE_PARITY_CALL","sender":"referee:REF01","timestamp":"2025-03-14T15:09:27.100Z","conversation_id":"conv-R1M1","match_id":"R1M1","player_id":"P01","game_type":"even_odd","context":{"opponent_id":"P02","round_id":1,"your_standings":{"wins":0,"losses":0,"draws":0}},"deadline":"2025-03-14T15:09:57Z"}}`

// moveAnswer is the player's answer to it.
const moveAnswer = `{"jsonrpc":"2.0","id":7,"result":{"protocol":"league.v2","message_type":"CHOOSE_PARITY_RESPONSE","sender":"player:P01","timestamp":"2025-03-14T15:09:27.101Z","conversation_id":"conv-R1M1","player_id":"P01","parity_choice":"even"}}`

// BenchmarkMoveCall measures a move call on loopback as a referee makes
// it, to a player that serves its own /mcp (push) and to a player behind
// a pull seat that takes it with a long poll and answers by POST (pull),
// and to one that answers with its next poll, one request a call
// (pull-one-request, the starters' way), each answering at once. It reports the median call in milliseconds: the
// issue's target is a pull seat adding no more than 2 ms to it.
//
//	go test -run '^$' -bench MoveCall ./agents/relay
func BenchmarkMoveCall(b *testing.B) {
	b.Run("push", func(b *testing.B) {
		player := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			_, _ = io.WriteString(w, moveAnswer)
		}))
		defer player.Close()
		timeCalls(b, player.URL+"/mcp")
	})
	for _, seat := range []struct {
		name   string
		player func(ctx context.Context, league, agent, token string)
	}{{"pull", pullPlayer}, {"pull-one-request", answerAndPollPlayer}} {
		b.Run(seat.name, func(b *testing.B) {
			r := relay.New(relay.Options{})
			m := mux{http.NewServeMux()}
			r.Mount(m)
			league := httptest.NewServer(m)
			defer league.Close()
			r.Open("P01", "tok-one")
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			go seat.player(ctx, league.URL, "P01", "tok-one")
			timeCalls(b, league.URL+"/pull/P01/mcp")
		})
	}
}

// answerAndPollPlayer answers every call with moveAnswer carried by its
// next poll (POST …/next), as the starters' --pull workers do, until ctx
// ends.
func answerAndPollPlayer(ctx context.Context, league, agent, token string) {
	client := &http.Client{}
	var delivery string
	for ctx.Err() == nil {
		var answer []byte
		if delivery != "" {
			answer = []byte(moveAnswer)
		}
		_, next, err := relay.AnswerAndPoll(ctx, client, league+"/pull/"+agent+"/next", token, delivery, answer, 1<<20)
		delivery = ""
		if err == nil {
			delivery = next
		}
	}
}

// timeCalls posts b.N move calls to endpoint one after another and reports
// the median.
func timeCalls(b *testing.B, endpoint string) {
	client := &http.Client{}
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		began := time.Now()
		resp, err := client.Post(endpoint, "application/json", strings.NewReader(moveCall))
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(body) != moveAnswer {
			b.Fatalf("HTTP %d: %s", resp.StatusCode, body)
		}
		took = append(took, time.Since(began))
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2])/float64(time.Millisecond), "ms/median-call")
}

// pullPlayer polls its seat and answers every call with moveAnswer, as
// the starters' --pull loop does, until ctx ends.
func pullPlayer(ctx context.Context, league, agent, token string) {
	client := &http.Client{}
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, league+"/pull/"+agent+"/next", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		delivery := resp.Header.Get(relay.DeliveryHeader)
		if resp.StatusCode != http.StatusOK || delivery == "" {
			continue
		}
		answer, _ := http.NewRequestWithContext(ctx, http.MethodPost, league+"/pull/"+agent+"/reply/"+delivery, strings.NewReader(moveAnswer))
		answer.Header.Set("Authorization", "Bearer "+token)
		if resp, err := client.Do(answer); err == nil {
			resp.Body.Close()
		}
	}
}
