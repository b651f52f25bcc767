package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/leaguetui/leaguetui/agents/metrics"
	"github.com/leaguetui/leaguetui/league/process"
)

// refereeMoveMetric is the referees' histogram of their calls to players,
// from asking to the answer; its call="move" histogram is the move as the
// league sees it, whatever carries it.
const refereeMoveMetric = metrics.Namespace + "_referee_move_duration_seconds"

// moveTally is the referees' move histogram's sum and count.
type moveTally struct {
	seconds float64
	count   uint64
}

// since is the mean of the moves t counts beyond before, 0 for none.
func (t moveTally) since(before moveTally) time.Duration {
	if t.count <= before.count {
		return 0
	}
	return time.Duration((t.seconds - before.seconds) / float64(t.count-before.count) * float64(time.Second))
}

// refereeMoves reads every referee's move histogram from its GET
// /metrics and adds them up.
func refereeMoves(ctx context.Context, referees []*process.Child) (moveTally, error) {
	var total moveTally
	for _, r := range referees {
		t, err := refereeMovesOf(ctx, r.Endpoint)
		if err != nil {
			return moveTally{}, fmt.Errorf("referee %s: %w", r.Endpoint, err)
		}
		total.seconds += t.seconds
		total.count += t.count
	}
	return total, nil
}

func refereeMovesOf(ctx context.Context, endpoint string) (moveTally, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second) // a referee that does not answer fails the bench, not hangs it
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(endpoint, "/mcp")+"/metrics", nil)
	if err != nil {
		return moveTally{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return moveTally{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return moveTally{}, fmt.Errorf("GET /metrics answered %s", resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return moveTally{}, err
	}
	for _, m := range families[refereeMoveMetric].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "call" && l.GetValue() == metrics.CallMove && m.GetHistogram() != nil {
				return moveTally{seconds: m.GetHistogram().GetSampleSum(), count: m.GetHistogram().GetSampleCount()}, nil
			}
		}
	}
	return moveTally{}, nil // no move asked yet: the histogram has no call="move" child
}
