// Package tui is the interactive console: a Bubble Tea program that shows a
// league as its manager reports it over HTTP (standings, the live event
// feed) and sends the admin's start, pause, resume and stop. It reads the
// league the same way whether it started the manager or attached to one.
//
// The root model routes messages to panes (rounds, match flow, standings,
// agents, log), each owning its keys, help and size; HTTP work runs as
// tea.Cmds; feed events are applied as they come and the screen is redrawn
// at most about 30 times a second.
package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// ChildInfo is one agent process the console started.
type ChildInfo struct {
	Name     string // "manager", "referee REF01", "player P01"
	ID       string // the id the manager gave it; "" for the manager
	Endpoint string
	PID      int
	Running  bool
}

// Options configure the console.
type Options struct {
	// Control reads the league from its manager and sends admin commands.
	// Nil runs no HTTP at all (the tests feed the model by hand).
	Control *control.Client
	// Children lists the processes the console started, nil when attached.
	Children func() []ChildInfo
	// Attached says the manager was already running; it changes the words
	// only: the console reads the league the same way.
	Attached bool
	// Seed is the seed a league the console started will use, shown
	// before the league starts (the feed gives it from then on).
	Seed int64
	// Scoring is the league's points table, for live standings between the
	// manager's own standings (which always win when in step). Zero means
	// the protocol's default.
	Scoring engine.Scoring
	// Now is the clock; tests fix it so screens are stable.
	Now func() time.Time
	// Location shows times in this zone (default the local one).
	Location *time.Location
	// NoColor drops colours (NO_COLOR is honoured in any case).
	NoColor bool
	// HealthEvery is how often agents' /health is probed; 0 means every
	// 3 s, negative never.
	HealthEvery time.Duration
	// ResumeCommand resumes the league the console started once a storage
	// failure is fixed; said with the failure ("" when attached).
	ResumeCommand string
	// Notice is said first, in the log and on the status line: what
	// league a reopened data folder holds.
	Notice string
	// Info is shown atop the info and keys view (?): the manager's URL
	// and the admin token of a league the console started.
	Info []string
	// Season reads the table of the season the league joins when it
	// completes (--season); the standings pane shows it (e). Nil: none.
	Season func() ([]engine.SeasonRow, error)
	// Joining, while the league waits for outside players, says where
	// they register and who has joined (nil: the league waits for none).
	Joining func() string
	// FlashFor is how long a status message stays (default 5 s).
	FlashFor time.Duration
	// Logger gets the log pane's warnings and errors too (the console's
	// log file); nil logs nowhere else.
	Logger *slog.Logger
	// Input and Output default to the terminal.
	Input  io.Reader
	Output io.Writer
}

// rendererFPS is how often Bubble Tea writes the screen to the terminal.
// Feed events redraw at most every frameEvery; a key redraws at once and
// then waits for the renderer's next write, so a faster renderer keeps a
// key's answer well inside 50 ms however fast events arrive.
const rendererFPS = 60

// Run shows the console until the user quits or ctx ends. It returns how
// the user left; stopping children the console started is the caller's
// job, after Run returns, so the terminal is restored first.
func Run(ctx context.Context, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the feed's long poll and any request in flight
	m := New(ctx, opts)
	progOpts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(ctx), tea.WithFPS(rendererFPS)}
	if opts.Input != nil {
		progOpts = append(progOpts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		progOpts = append(progOpts, tea.WithOutput(opts.Output))
	}
	final, err := tea.NewProgram(m, progOpts...).Run()
	switch {
	case errors.Is(err, tea.ErrInterrupted):
		return ErrInterrupted // SIGINT from outside the terminal
	case err == nil && final.(*Model).interrupted:
		return ErrInterrupted
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return nil // the caller's context ended (SIGTERM): a normal way out
	}
	return err
}

// ErrInterrupted ends a console left with Ctrl-C rather than q: leaguetui
// exits with status 130 then, as --no-ui does.
var ErrInterrupted = errors.New("interrupted with Ctrl-C")

// ErrNotTerminal says the console cannot run here.
var ErrNotTerminal = errors.New("the console needs a terminal")

// CheckTerminal fails unless both stdin and stdout are terminals: Bubble
// Tea would otherwise fail obscurely or draw escape codes into a file.
// Its error ends with instead, what the user may run in its place (e.g.
// "run with --no-ui to play the league headless").
func CheckTerminal(stdin, stdout *os.File, instead string) error {
	var not []string
	if !term.IsTerminal(stdin.Fd()) {
		not = append(not, "standard input")
	}
	if !term.IsTerminal(stdout.Fd()) {
		not = append(not, "standard output")
	}
	switch len(not) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%w, and %s is not one: %s", ErrNotTerminal, not[0], instead)
	}
	return fmt.Errorf("%w, and neither %s nor %s is one: %s", ErrNotTerminal, not[0], not[1], instead)
}
