// Package gameprog plays games written as programs in any language: a
// game program's manifest (config.GameManifest) becomes an engine.Game
// whose every match starts the program, in the sandbox of the programs
// leaguetui starts, and drives it over its standard input and output
// with the protocol of protocol.go (docs/games.md, "Writing a game").
// The scheduler, standings, journal, referee and players see only an
// engine.Game.
//
// A program that crashes, hangs, answers garbage or contradicts itself
// ends its match as a game failure: a draw, each seat's status ERROR,
// the details' game_error saying what went wrong.
package gameprog

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// Game is a game program's engine.Game.
type Game struct {
	manifest config.GameManifest

	mu   sync.Mutex
	site Site
}

var _ engine.ProgramGame = (*Game)(nil)

// registered are the games Register made, by name.
var registered = struct {
	sync.Mutex
	games map[string]*Game
}{games: map[string]*Game{}}

// Register makes the manifest's game an engine game, with the random
// strategy for the built-in players (engine.NewAnyRandom). Registering
// the same manifest again returns the game registered first; another
// manifest of the same name, or a built-in game's name, is an error.
func Register(m config.GameManifest) (*Game, error) {
	registered.Lock()
	defer registered.Unlock()
	if g, ok := registered.games[m.Name]; ok {
		if g.manifest.Path != m.Path {
			return nil, fmt.Errorf("game %s: already the game of %s, not of %s", m.Name, g.manifest.Path, m.Path)
		}
		return g, nil
	}
	if _, taken := engine.LookupGame(m.Name); taken {
		return nil, fmt.Errorf("game %s: a built-in game's name; a game program needs a name of its own", m.Name)
	}
	g := &Game{manifest: m}
	engine.Register(g)
	engine.RegisterStrategy(m.Name, engine.AnyRandomName, engine.NewAnyRandom)
	registered.games[m.Name] = g
	return g, nil
}

// Type is the manifest's name.
func (g *Game) Type() string { return g.manifest.Name }

// Manifest is the manifest's path.
func (g *Game) Manifest() string { return g.manifest.Path }

// Rules are the manifest's rules.
func (g *Game) Rules() string { return g.manifest.Rules }

// SetSite says where this process (a referee) runs the game's programs.
func (g *Game) SetSite(s Site) {
	g.mu.Lock()
	g.site = s
	g.mu.Unlock()
}

func (g *Game) currentSite() Site {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.site
}

// Start starts the program for the match and sends it the start; a
// program that cannot start or answers it wrongly is a game failure.
func (g *Game) Start(setup engine.MatchSetup) engine.Play {
	p := &play{game: g, setup: setup}
	proc, err := startProcess(g.manifest, g.currentSite(), setup.MatchID)
	if err != nil {
		p.fail("the game program did not start: %v", err)
		return p
	}
	p.proc = proc
	options := g.manifest.Options
	if options == nil {
		options = map[string]any{}
	}
	start := Start{Type: TypeStart, Protocol: ProtocolVersion, MatchID: setup.MatchID, Seed: MatchSeed(setup.Seed, setup.MatchID),
		LeagueSeed: setup.Seed, Attempt: max(setup.Attempt, 1), Seats: []string{SeatA, SeatB}, Options: options}
	p.exchange(start, g.manifest.Deadlines.Start(), "start", TypeTurn, TypeEnd)
	return p
}

// MatchSeed is the seed a match's program is given: the first 53 bits
// of engine.MatchRand(seed, match, "game"), an integer every JSON reader
// holds exactly.
func MatchSeed(seed int64, matchID string) uint64 {
	return engine.MatchRand(seed, matchID, "game").Uint64() >> 11
}

// play is one match of a game program.
type play struct {
	game  *Game
	setup engine.MatchSetup
	proc  *gameProcess // nil once closed

	turn      int         // leaguetui's turn number: 1 after the start
	seats     [2]SeatTurn // this turn, by seat
	progress  string
	lost      [2]bool // seats the game said lose: never asked again
	end       *End
	failure   string    // why the game failed; "" while it has not
	forfeited [2]string // the technical failure of a seat, from the engine

	decision *engine.Decision
}

// fail ends the match as the game's failure, once, and stops the program.
func (p *play) fail(format string, args ...any) {
	if p.failure == "" {
		p.failure = fmt.Sprintf(format, args...)
	}
	p.close()
}

func (p *play) close() {
	if p.proc != nil {
		p.proc.close()
		p.proc = nil
	}
}

// done says the program has nothing more to say: it ended the match or
// failed.
func (p *play) done() bool { return p.end != nil || p.failure != "" }

// exchange sends msg and takes the answer, which must be of one of the
// types want (or an error); what it was asked is said in a failure.
func (p *play) exchange(msg any, deadline time.Duration, what string, want ...string) (Verdict, bool) {
	if p.proc == nil {
		return Verdict{}, false
	}
	raw, err := p.proc.ask(msg, deadline)
	if err != nil {
		p.fail("%s: %v", what, err)
		return Verdict{}, false
	}
	typ, err := typeOf(raw)
	if err != nil {
		p.fail("%s: the answer %s: %v", what, clip(raw), err)
		return Verdict{}, false
	}
	if typ == TypeError {
		var e Error
		if err := decodeStrict(raw, &e); err != nil {
			p.fail("%s: the answer %s: %v", what, clip(raw), err)
			return Verdict{}, false
		}
		p.fail("%s: the game program says: %s", what, e.Message)
		return Verdict{}, false
	}
	if !slices.Contains(want, typ) {
		p.fail("%s: answered %q, want %s", what, typ, strings.Join(want, " or "))
		return Verdict{}, false
	}
	switch typ {
	case TypeTurn:
		var t Turn
		if err := decodeStrict(raw, &t); err != nil {
			p.fail("%s: the turn %s: %v", what, clip(raw), err)
		} else if err := p.takeTurn(t); err != nil {
			p.fail("%s: the turn %s: %v", what, clip(raw), err)
		}
	case TypeEnd:
		var e End
		if err := decodeStrict(raw, &e); err != nil {
			p.fail("%s: the end %s: %v", what, clip(raw), err)
		} else if err := checkEnd(e); err != nil {
			p.fail("%s: the end %s: %v", what, clip(raw), err)
		} else {
			p.end = &e
			p.close()
		}
	case TypeVerdict:
		var v Verdict
		if err := decodeStrict(raw, &v); err != nil {
			p.fail("%s: the verdict %s: %v", what, clip(raw), err)
			return Verdict{}, false
		}
		return v, true
	}
	return Verdict{}, false
}

// takeTurn checks a turn and makes it the current one.
func (p *play) takeTurn(t Turn) error {
	var seats [2]SeatTurn
	var seen [2]bool
	if len(t.Seats) != 2 {
		return fmt.Errorf("%d seats, want A and B", len(t.Seats))
	}
	for _, s := range t.Seats {
		i, ok := seatIndex(s.Seat)
		if !ok || seen[i] {
			return fmt.Errorf("seat %q: want A and B, each once", s.Seat)
		}
		seen[i] = true
		if s.Asked {
			if err := checkAsked(s); err != nil {
				return fmt.Errorf("seat %s: %w", s.Seat, err)
			}
			if p.lost[i] {
				return fmt.Errorf("seat %s is asked again after a move that loses", s.Seat)
			}
		}
		seats[i] = s
	}
	if !seats[0].Asked && !seats[1].Asked {
		return fmt.Errorf("no seat is asked and the match is not over")
	}
	p.seats, p.progress = seats, t.Progress
	p.turn++
	return nil
}

// checkAsked refuses an asked seat's turn that no player could answer.
func checkAsked(s SeatTurn) error {
	if strings.TrimSpace(s.MoveType) == "" {
		return fmt.Errorf("asked without a move_type")
	}
	if s.Options != nil {
		if len(s.Options) == 0 {
			return fmt.Errorf("asked with no legal move (options [])")
		}
		seen := map[string]bool{}
		for _, o := range s.Options {
			if o == "" || seen[o] {
				return fmt.Errorf("options %q: want distinct moves, none empty", s.Options)
			}
			seen[o] = true
		}
	}
	if _, taken := s.Observation["text"]; taken && s.Text != "" {
		return fmt.Errorf("observation holds \"text\", the key its text goes in")
	}
	return nil
}

// checkEnd refuses an end that names no seat of the match.
func checkEnd(e End) error {
	if _, ok := seatIndex(e.Winner); e.Winner != "" && !ok {
		return fmt.Errorf("winner %q: want A, B, or \"\" for a draw", e.Winner)
	}
	var seen [2]bool
	for _, s := range e.Seats {
		i, ok := seatIndex(s.Seat)
		if !ok || seen[i] {
			return fmt.Errorf("seat %q: want A and B, each at most once", s.Seat)
		}
		seen[i] = true
	}
	return nil
}

func seatIndex(seat string) (int, bool) {
	switch seat {
	case SeatA:
		return 0, true
	case SeatB:
		return 1, true
	}
	return 0, false
}

func sideIndex(s engine.Side) int {
	if s == engine.SideB {
		return 1
	}
	return 0
}

func (p *play) Turn(s engine.Side) engine.Turn {
	seat := p.seats[sideIndex(s)]
	state := maps.Clone(seat.Observation)
	if seat.Text != "" {
		if state == nil {
			state = map[string]any{}
		}
		state["text"] = seat.Text
	}
	return engine.Turn{Number: p.turn, MoveType: seat.MoveType, Options: slices.Clone(seat.Options), State: state}
}

func (p *play) Asked(s engine.Side) bool { return !p.done() && p.seats[sideIndex(s)].Asked }

// Move asks the program for its verdict on the answer. Once the game
// has failed, an answer is taken as it is: the match ends as the game's
// failure when the turn does.
func (p *play) Move(s engine.Side, a engine.Answer) (string, error) {
	i := sideIndex(s)
	seat := []string{SeatA, SeatB}[i]
	if p.done() {
		return a.Choice, nil
	}
	v, ok := p.exchange(Move{Type: TypeMove, Turn: p.turn, Seat: seat, MoveType: a.MoveType, Move: a.Choice},
		p.game.manifest.Deadlines.Answer(), fmt.Sprintf("the move of %s in turn %d", seat, p.turn), TypeVerdict)
	if !ok {
		return a.Choice, nil
	}
	if v.Seat != seat {
		p.fail("the move of %s in turn %d: a verdict for seat %q", seat, p.turn, v.Seat)
		return a.Choice, nil
	}
	move := v.Move
	if move == "" {
		move = a.Choice
	}
	switch v.Verdict {
	case VerdictAccepted:
		return move, nil
	case VerdictLoses:
		p.lost[i] = true
		return move, nil
	case VerdictNotAMove:
		return "", engine.InvalidMove("%s", cmp.Or(fromGame(v.Reason), fmt.Sprintf("%q is not a move", a.Choice)))
	}
	p.fail("the move of %s in turn %d: verdict %q, want %s, %s or %s", seat, p.turn, v.Verdict,
		VerdictAccepted, VerdictNotAMove, VerdictLoses)
	return a.Choice, nil
}

func (p *play) Advance() {
	if p.done() {
		return
	}
	p.exchange(Advance{Type: TypeAdvance, Turn: p.turn}, p.game.manifest.Deadlines.Answer(),
		fmt.Sprintf("the end of turn %d", p.turn), TypeTurn, TypeEnd)
}

func (p *play) Over() bool { return p.done() }

// Progress is the program's word on where the game stands.
func (p *play) Progress() string { return p.progress }

// Forfeit records a seat's technical failure (a player that timed out,
// failed, or whose model failed): the match is a technical loss, and
// the program is stopped.
func (p *play) Forfeit(s engine.Side, reason string) {
	p.forfeited[sideIndex(s)] = reason
}

// Decide settles the match: the program's end, or its failure, or the
// technical loss of a seat. The program is stopped.
func (p *play) Decide() engine.Decision {
	if p.decision != nil {
		return *p.decision
	}
	p.close()
	var d engine.Decision
	switch {
	case p.forfeited[0] != "" || p.forfeited[1] != "":
		// As in a built-in game: a model error names the seat's ending.
		for i, reason := range p.forfeited {
			if status, ok := engine.ModelErrorStatus(reason); ok {
				d.Statuses[i] = status
			}
		}
		if p.failure != "" {
			d.Details = map[string]any{"game_error": p.failure}
		}
	case p.failure != "":
		d = engine.Decision{Winner: engine.NoSide, Statuses: [2]string{GameError, GameError},
			Details: map[string]any{"game_error": p.failure},
			Reason:  "game failed: " + p.failure, Step: "game failed", GameFailed: true}
	case p.end != nil:
		d = decision(*p.end)
	default:
		p.failure = "the match ended before the game did"
		d = engine.Decision{Statuses: [2]string{GameError, GameError}, Details: map[string]any{"game_error": p.failure},
			Reason: "game failed: " + p.failure, Step: "game failed", GameFailed: true}
	}
	p.decision = &d
	return d
}

// decision is the engine's reading of an end.
func decision(e End) engine.Decision {
	d := engine.Decision{Details: e.Details, Right: e.Right, Reason: fromGame(e.Reason), Step: fromGame(e.Step)}
	switch e.Winner {
	case SeatA:
		d.Winner = engine.SideA
	case SeatB:
		d.Winner = engine.SideB
	}
	for _, s := range e.Seats {
		i, _ := seatIndex(s.Seat)
		d.Statuses[i] = s.Status
	}
	return d
}

// typeOf is a message's type; an answer that is not a JSON object with
// a type is garbage.
func typeOf(raw []byte) (string, error) {
	var head struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return "", fmt.Errorf("is not a JSON object: %v", err)
	}
	if head.Type == nil {
		return "", fmt.Errorf("has no type")
	}
	return *head.Type, nil
}

// decodeStrict decodes one message, refusing a key its type does not
// hold and anything after it; numbers in observations and details keep
// their spelling.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value on the line")
	}
	return nil
}

// maxWords bounds a game program's words that reach players, files and
// screens as a reason or a step.
const maxWords = 500

// fromGame is a game program's words made fit for a reason: at most
// maxWords bytes (cut at a character's start), with what a terminal would
// obey escaped (protocol.Printable), since the game is a participant.
func fromGame(s string) string {
	if len(s) > maxWords {
		cut := maxWords
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return protocol.Printable(s)
}

// clip is an answer, short enough for a reason.
func clip(raw []byte) string {
	const most = 200
	if len(raw) > most {
		return fmt.Sprintf("%q…", raw[:most])
	}
	return fmt.Sprintf("%q", raw)
}
