package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/player"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/launcher"
)

// hostedPlayers are players run inside the bench process instead of one
// process each, so that a league of a thousand players fits on a machine
// where a thousand processes would not. Each is still a whole
// agents/player.Player with its own HTTP listener on its own port,
// registered with the manager like any player.
type hostedPlayers []*player.Player

// registeringAtOnce bounds the registrations in flight, so that the
// manager's journal commits them in batches without a storm of connections.
const registeringAtOnce = 32

// hostPlayers starts n players in this process, named and seeded the way
// launcher.Launch names and seeds player processes.
func hostPlayers(ctx context.Context, opts launcher.Spec, managerURL string, n int) (hostedPlayers, error) {
	strategies := engine.StrategyNamesFor(opts.Config.GameType)
	players := make(hostedPlayers, n)
	errs := make([]error, n)
	slots := make(chan struct{}, registeringAtOnce)
	var wg sync.WaitGroup
	for i := range n {
		if ctx.Err() != nil {
			break // stopped while they start: start no more
		}
		p, err := player.New(player.Options{Config: opts.Config, DataDir: opts.DataDir, ManagerURL: managerURL,
			Name: fmt.Sprintf("P%04d", i+1), Strategy: strategies[i%len(strategies)], Seed: opts.Seed})
		if err != nil {
			players.stop()
			return nil, err
		}
		p.Stdout = io.Discard
		players[i] = p
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			errs[i] = p.Start(ctx)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		players.stop()
		return nil, err
	}
	for i, err := range errs {
		if err != nil {
			players.stop()
			return nil, fmt.Errorf("player %s: %w", players[i].Name, err)
		}
	}
	return players, nil
}

func (h hostedPlayers) endpoints() []string {
	out := make([]string, 0, len(h))
	for _, p := range h {
		out = append(out, p.Endpoint())
	}
	return out
}

// stop shuts every player down at once, which also writes their history
// files.
func (h hostedPlayers) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stopping sync.WaitGroup
	for _, p := range h {
		if p != nil {
			stopping.Go(func() { _ = p.Shutdown(ctx) })
		}
	}
	stopping.Wait()
}

// cpu is the CPU time of this process, where the hosted players run.
func (h hostedPlayers) cpu() (time.Duration, bool) { return CPUTime(os.Getpid()) }
