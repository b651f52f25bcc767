package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/sandbox"
)

// GameRole is a game program checked (`leaguetui check --game FILE.json`).
const GameRole Role = "game"

// The ids of the game checks.
const (
	gameDeterministic = "game/deterministic"
	gameLegalMoves    = "game/accepts-legal-moves"
	gameGarbage       = "game/refuses-garbage"
	gameTurnLimit     = "game/ends-within-turn-limit"
	gameHidden        = "game/hides-the-other-seat"
	gameTurnTime      = "game/turn-time"
)

// GameTurnLimit bounds a match's turns: the manifest names no turn limit,
// and no game a league should play needs more.
const GameTurnLimit = 1000

// GameOptions are what one check of a game program is given. The caller
// makes the game (league/gameprog's engine.Game over the program, which
// this package does not import) and has it send every line the program
// writes to Transcript (gameprog.Site's Record: Transcript.Record), with
// the sandbox and the manifest's limits as a league's referee runs it.
type GameOptions struct {
	Manifest   config.GameManifest
	Game       engine.Game
	Transcript *GameTranscript
	Matches    int       // seeded matches of random legal moves (default 5)
	Seed       int64     // the first league seed (default 1)
	NoSandbox  bool      // the program runs unconfined (for the sandbox line)
	Status     io.Writer // progress for people; nil for none
}

// GameTranscript keeps the lines a game program sends, for the checker
// to compare.
type GameTranscript struct {
	mu    sync.Mutex
	lines []string
}

// Record takes one line the program sent (gameprog.Site's Record).
func (t *GameTranscript) Record(_ string, line []byte) {
	t.mu.Lock()
	t.lines = append(t.lines, string(line))
	t.mu.Unlock()
}

// take returns the lines recorded since the last take.
func (t *GameTranscript) take() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := t.lines
	t.lines = nil
	return lines
}

// garbage are answers no game takes as a move: an unknown word, nothing,
// a huge string, JSON where a move goes.
var garbage = []string{"__not_a_move__", "", strings.Repeat("x", 64<<10), `{"choice":`, "[1,2,3]"}

// gameRun is what one match of the program showed.
type gameRun struct {
	transcript []string        // every line the program sent
	turns      int             // the last turn's number
	over       bool            // the match ended
	failure    string          // the game's failure (its details' game_error)
	times      []time.Duration // each exchange with the program
	refused    []string        // legal moves refused
	garbage    []string        // garbage taken, or that broke the game
	hidden     []string        // refusals that changed with the other seat's move
	unlisted   bool            // a seat asked without options: no legal move to draw
	both       bool            // a turn asked both seats
}

type gameChecker struct {
	opts GameOptions
	game engine.Game
	man  config.GameManifest
	rec  *recorder
}

// RunGame checks a game program: it plays seeded matches of opts.Game
// and gives a verdict per game check. Its error is for what keeps it from
// checking at all.
func RunGame(ctx context.Context, opts GameOptions) (Report, error) {
	if opts.Matches <= 0 {
		opts.Matches = 5
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if opts.Game == nil || opts.Transcript == nil {
		return Report{}, errors.New("check: a game check needs the game and its transcript")
	}
	m := opts.Manifest
	c := &gameChecker{opts: opts, game: opts.Game, man: m, rec: newRecorder()}
	c.checkAll(ctx)
	limits := m.EffectiveLimits()
	strength := sandbox.Probe().Describe(sandbox.Limits{MemoryBytes: uint64(limits.MemoryMB) << 20,
		CPUSeconds: uint64(limits.CPUSeconds), Processes: uint64(limits.Processes), FileBytes: uint64(limits.FileMB) << 20}, opts.NoSandbox)
	r := Report{Role: GameRole, Games: []string{m.Name}, Strict: true, Sandbox: strength}
	for _, d := range Selected(GameRole, true) {
		r.Results = append(r.Results, c.rec.result(d))
	}
	return r, nil
}

func (c *gameChecker) statusf(format string, args ...any) {
	if c.opts.Status != nil {
		fmt.Fprintf(c.opts.Status, "leaguetui check: "+format+"\n", args...)
	}
}

// checkAll plays the matches and judges them.
func (c *gameChecker) checkAll(ctx context.Context) {
	c.statusf("game %s (%s): the same seed twice", c.man.Name, c.man.Path)
	first := c.play("R1M1", c.opts.Seed, false)
	again := c.play("R1M1", c.opts.Seed, false)
	other := c.play("R1M1", c.opts.Seed+1, false)
	c.judgeDeterminism(first, again, other)
	runs := []gameRun{first}
	for i := 1; i < c.opts.Matches && ctx.Err() == nil; i++ {
		c.statusf("game %s: match %d of %d", c.man.Name, i+1, c.opts.Matches)
		runs = append(runs, c.play(fmt.Sprintf("R%dM1", i+1), c.opts.Seed+int64(i), false))
	}
	c.statusf("game %s: answers that are no move", c.man.Name)
	probe := c.play("R9M1", c.opts.Seed, true)
	c.judgeLegal(runs)
	c.judgeGarbage(probe)
	c.judgeTurnLimit(append(runs, probe))
	c.judgeHidden(probe)
	c.judgeTurnTime(append(runs, probe))
}

// play is one match: each asked seat plays a legal move drawn from the
// match's seeded random source; with probe, every asked seat is first
// given each garbage answer, and in a turn asking both, seat B is given
// one before and after seat A's move.
func (c *gameChecker) play(matchID string, seed int64, probe bool) gameRun {
	c.opts.Transcript.take()
	var run gameRun
	rng := rand.New(rand.NewSource(seed))
	began := time.Now()
	p := c.game.Start(engine.MatchSetup{MatchID: matchID, Seed: seed})
	run.times = append(run.times, time.Since(began))
	for !p.Over() && run.turns < GameTurnLimit {
		asked := []engine.Side{}
		for _, s := range []engine.Side{engine.SideA, engine.SideB} {
			if p.Asked(s) {
				asked = append(asked, s)
			}
		}
		run.turns = p.Turn(asked[0]).Number
		run.both = run.both || len(asked) == 2
		if probe && len(asked) == 2 && c.probeHidden(p, &run) {
			asked = asked[1:] // A moved in the probe
		}
		for _, s := range asked {
			if p.Over() || !c.moveLegally(p, s, rng, probe, &run) {
				break
			}
		}
		if p.Over() || run.unlisted {
			break
		}
		began = time.Now()
		p.Advance()
		run.times = append(run.times, time.Since(began))
	}
	run.over = p.Over()
	d := p.Decide()
	if e, ok := d.Details["game_error"].(string); ok {
		run.failure = e
	}
	run.transcript = c.opts.Transcript.take()
	return run
}

// moveLegally gives the seat garbage first (with probe), then one of its
// legal moves; false when the seat has no listed moves.
func (c *gameChecker) moveLegally(p engine.Play, s engine.Side, rng *rand.Rand, probe bool, run *gameRun) bool {
	t := p.Turn(s)
	if t.Options == nil {
		run.unlisted = true
		return false
	}
	if probe {
		for _, g := range garbage {
			if slices.Contains(t.Options, g) || p.Over() {
				continue
			}
			_, err := c.move(p, s, t.MoveType, g, run)
			switch {
			case p.Over():
				run.garbage = append(run.garbage, fmt.Sprintf("turn %d, %s answered %s: the game failed", t.Number, s, clip([]byte(g))))
			case !errors.Is(err, engine.ErrInvalidMove):
				run.garbage = append(run.garbage, fmt.Sprintf("turn %d, %s answered %s: taken as a move", t.Number, s, clip([]byte(g))))
				return true
			}
		}
	}
	if p.Over() {
		return true
	}
	choice := t.Options[rng.Intn(len(t.Options))]
	if _, err := c.move(p, s, t.MoveType, choice, run); err != nil {
		run.refused = append(run.refused, fmt.Sprintf("turn %d, %s played %q (listed in %q): refused: %v", t.Number, s, choice, t.Options, err))
	}
	return true
}

func (c *gameChecker) move(p engine.Play, s engine.Side, moveType, choice string, run *gameRun) (string, error) {
	began := time.Now()
	m, err := p.Move(s, engine.Answer{MoveType: moveType, Choice: choice})
	run.times = append(run.times, time.Since(began))
	return m, err
}

// probeHidden: in a turn asking both seats, what B is told when its
// answer is refused must not change once A has moved. True when A moved.
func (c *gameChecker) probeHidden(p engine.Play, run *gameRun) bool {
	tb, ta := p.Turn(engine.SideB), p.Turn(engine.SideA)
	_, err := c.move(p, engine.SideB, tb.MoveType, garbage[0], run)
	if p.Over() {
		run.garbage = append(run.garbage, fmt.Sprintf("turn %d, B answered %q: the game failed", tb.Number, garbage[0]))
	}
	if !errors.Is(err, engine.ErrInvalidMove) || p.Over() || ta.Options == nil {
		return false // the garbage check judges it
	}
	before := err.Error()
	choice := ta.Options[0]
	if _, err := c.move(p, engine.SideA, ta.MoveType, choice, run); err != nil || p.Over() {
		if err != nil {
			run.refused = append(run.refused, fmt.Sprintf("turn %d, A played %q (listed in %q): refused: %v", ta.Number, choice, ta.Options, err))
		}
		return true
	}
	_, err = c.move(p, engine.SideB, tb.MoveType, garbage[0], run)
	if errors.Is(err, engine.ErrInvalidMove) && err.Error() != before {
		run.hidden = append(run.hidden, fmt.Sprintf("turn %d: B was told %q before A moved and %q after A played %q", tb.Number, before, err.Error(), choice))
	}
	return true
}
