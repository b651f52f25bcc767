package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/report"
)

// Replay steps through a finished league's matches in schedule order,
// every one of them (the live console keeps the last 200), read from a
// data folder that it only reads (league/report): n or → the next match,
// p or ← the one before, g the first, G the last, j/k scroll the match's
// transcript, q quits.
type Replay struct {
	league        *report.League
	at            int // the match shown
	scroll        int // first transcript line shown
	width, height int
}

// NewReplay shows league from its first match.
func NewReplay(league *report.League) *Replay {
	return &Replay{league: league, width: 100, height: 30}
}

// RunReplay shows the replay until the user quits or ctx ends (SIGTERM,
// or SIGHUP when its terminal closes: a normal way out, as for the
// console).
func RunReplay(ctx context.Context, league *report.League) error {
	_, err := tea.NewProgram(NewReplay(league), tea.WithAltScreen(), tea.WithContext(ctx)).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}

func (r *Replay) Init() tea.Cmd { return nil }

func (r *Replay) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		r.width, r.height = msg.Width, msg.Height
	case tea.KeyMsg:
		last := len(r.league.Matches) - 1
		switch msg.String() {
		case "q", "ctrl+c", "esc":
			return r, tea.Quit
		case "n", "right", "l", " ":
			r.show(min(r.at+1, max(last, 0)))
		case "p", "left", "h":
			r.show(max(r.at-1, 0))
		case "g", "home":
			r.show(0)
		case "G", "end":
			r.show(max(last, 0))
		case "j", "down":
			r.scroll++
		case "k", "up":
			r.scroll = max(r.scroll-1, 0)
		}
	}
	return r, nil
}

func (r *Replay) show(i int) {
	if i != r.at {
		r.at, r.scroll = i, 0
	}
}

// View draws the league's line, the match's head and its transcript, cut
// to the terminal. Every string from the folder is made printable first.
func (r *Replay) View() string {
	l := r.league
	lines := []string{fmt.Sprintf("replay · league %s · %s · seed %d · %s · %d of %d matches played",
		clean(l.LeagueID), clean(l.GameType), l.Seed, l.State, l.Played(), len(l.Matches))}
	if len(l.Matches) == 0 {
		return strings.Join(append(lines, "", "No match was scheduled.", "", "q quit"), "\n")
	}
	m := l.Matches[r.at]
	lines = append(lines, fmt.Sprintf("match %d of %d · %s · round %d · referee %s · %s", r.at+1, len(l.Matches),
		clean(m.MatchID), m.Round, clean(m.Referee), rounded(m.Duration())), "")
	for _, p := range []string{m.PlayerA, m.PlayerB} {
		line := fmt.Sprintf("  %-8s %-20s %-16s move %s", clean(p), clean(truncate(l.Name(p), 20)), clean(m.PlayerStatus(p)), clean(m.Move(p)))
		if t := m.Models[p]; t != nil {
			line += fmt.Sprintf(" · %s/%s %d/%d tok %s %d ms", clean(t.Provider), clean(t.Model), t.InputTokens, t.OutputTokens,
				protocol.Money(t.CostUSD), t.LatencyMS)
			if t.Rethinks > 0 {
				line += fmt.Sprintf(" · %d rethinks", t.Rethinks)
			}
		}
		lines = append(lines, line)
	}
	result := m.Status()
	if w := m.Winner(); w != "" {
		result += ", " + clean(w) + " wins"
	}
	lines = append(lines, "  result "+result)
	if reason := m.Reason(); reason != "" {
		lines = append(lines, "  "+clean(reason))
	}
	if race := m.Race; race != nil {
		lines = append(lines, "  path A "+clean(strings.Join(race.PathA, " → ")), "  path B "+clean(strings.Join(race.PathB, " → ")))
	}
	lines = append(lines, "", fmt.Sprintf("transcript: %d exchanges", len(m.Exchanges)))
	body := r.transcript(m)
	room := max(r.height-len(lines)-2, 1)
	r.scroll = min(r.scroll, max(len(body)-room, 0))
	lines = append(lines, body[r.scroll:min(len(body), r.scroll+room)]...)
	for len(lines) < r.height-1 {
		lines = append(lines, "")
	}
	lines = append(lines, "n/→ next match · p/← previous · g first · G last · j/k scroll · q quit")
	for i, line := range lines {
		lines[i] = truncate(line, r.width)
	}
	return strings.Join(lines, "\n")
}

// transcript is one line per exchange.
func (r *Replay) transcript(m *report.Match) []string {
	if m.File == nil {
		return []string{"  (no match file)"}
	}
	out := make([]string, 0, len(m.Exchanges))
	for _, x := range m.Exchanges {
		line := fmt.Sprintf("  %3d %s %-24s %s → %s", x.Seq, clean(x.Timestamp), clean(x.MessageType), clean(x.From), clean(x.To))
		if x.Move != "" {
			line += " · " + clean(x.Move)
		}
		out = append(out, line)
		out = append(out, viewLines(x.View)...)
		if x.Model != nil {
			out = append(out, replayReasoning(x.Model.Reasoning)...)
		}
	}
	return out
}

// replayReasoning fences a model move's prompt and reply under it, a
// line of theirs a line behind a bar, each line made printable.
func replayReasoning(r *protocol.Reasoning) []string {
	if r == nil {
		return nil
	}
	out := []string{"       ┌ the model's reasoning"}
	for _, part := range []struct{ name, text string }{{"prompt", r.Prompt}, {"reply", r.Reply}} {
		out = append(out, "       ├ "+part.name)
		for _, line := range strings.Split(part.text, "\n") {
			out = append(out, "       │ "+clean(line))
		}
	}
	end := "       └"
	if r.Truncated {
		end += fmt.Sprintf(" (each cut to %d bytes)", protocol.ReasoningBytes)
	}
	return append(out, end)
}

// clean makes a string from the data folder safe to print on a terminal.
func clean(s string) string { return protocol.Printable(s) }
