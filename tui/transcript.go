package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/league/control"
)

// matchFile is a match file (matches/<league>/<match_id>.json) as the
// console shows it: its result as the file has it, every field of every
// game, whatever referee wrote it.
type matchFile struct {
	protocol.MatchFile
	Result map[string]any `json:"result"`
}

// transcriptMsg carries a match file the manager served, or why not.
type transcriptMsg struct {
	MatchID string
	File    *matchFile
	Err     error
}

// loadTranscript asks the manager for a match's file (GET /matches/{id}),
// off the event loop: the console reads nothing from the disk, attached or
// not.
func loadTranscript(ctx context.Context, c *control.Client, matchID string) tea.Cmd {
	return func() tea.Msg {
		if c == nil {
			return transcriptMsg{MatchID: matchID, Err: control.ErrNoMatchFile}
		}
		data, err := c.MatchFile(ctx, matchID)
		if err != nil {
			return transcriptMsg{MatchID: matchID, Err: err}
		}
		var f matchFile
		if err := json.Unmarshal(data, &f); err != nil {
			return transcriptMsg{MatchID: matchID, Err: fmt.Errorf("match file %s: %w", matchID, err)}
		}
		protocol.MakePrintable(&f) // the transcript holds what players sent
		return transcriptMsg{MatchID: matchID, File: &f}
	}
}

// transcriptView shows one match: its file's transcript when the file is at
// hand, else the steps the feed reported (attached to a remote manager, or
// the match still running), updated live.
type transcriptView struct {
	ctx     *programContext
	matchID string
	file    *matchFile
	note    string // why the feed's steps are shown
	loading bool
	vp      viewport.Model
	width   int
	height  int
}

func newTranscriptView(ctx *programContext, matchID string) *transcriptView {
	return &transcriptView{ctx: ctx, matchID: matchID, loading: true, vp: viewport.New(0, 0)}
}

func (t *transcriptView) SetSize(width, height int) {
	t.width, t.height = width, height
	t.vp.Width, t.vp.Height = width, max(height-1, 1)
}

// setFile takes the answer of loadTranscript.
func (t *transcriptView) setFile(msg transcriptMsg) {
	t.loading = false
	switch {
	case msg.File != nil:
		t.file, t.note = msg.File, ""
	case errors.Is(msg.Err, control.ErrNoMatchFile):
		t.note = "steps from the feed: the manager has no match file (still running, or its referee keeps it)"
	default:
		t.note = "steps from the feed: match file unreadable (" + msg.Err.Error() + ")"
	}
}

// needsReload reports a match shown from the feed that has since finished,
// whose file its referee has now written.
func (t *transcriptView) needsReload() bool {
	m := t.ctx.State.Match(t.matchID)
	return t.file == nil && !t.loading && m != nil && m.Result != nil
}

func (t *transcriptView) Help() keyHelp {
	k := t.ctx.ListKeys
	return keyHelp{short: []key.Binding{k.Up, k.Down, k.PgDown, k.Back},
		full: [][]key.Binding{{k.Up, k.Down, k.PgUp, k.PgDown}, {k.Back}}}
}

func (t *transcriptView) Update(msg tea.KeyMsg) tea.Cmd {
	k := t.ctx.ListKeys
	switch {
	case key.Matches(msg, k.Top):
		t.vp.GotoTop()
		return nil
	case key.Matches(msg, k.Bottom):
		t.vp.GotoBottom()
		return nil
	}
	var cmd tea.Cmd
	t.vp, cmd = t.vp.Update(msg)
	return cmd
}

func (t *transcriptView) View() string {
	s := t.ctx.Styles
	title := s.PaneTitle.Render("Match " + t.matchID)
	var lines []string
	switch {
	case t.loading:
		lines = []string{s.Dim.Render(" asking the manager for the match file…")}
	case t.file != nil:
		lines = t.fileLines()
	default:
		lines = t.feedLines()
	}
	t.vp.SetContent(strings.Join(lines, "\n"))
	return fit(title, t.width) + "\n" + block(strings.Split(t.vp.View(), "\n"), t.width, t.vp.Height)
}

// summary is the match's players, referee and result in one line.
func (t *transcriptView) summary() string {
	m := t.ctx.State.Match(t.matchID)
	if m == nil {
		return " (match not in the schedule)"
	}
	return fmt.Sprintf(" round %d · %s vs %s · referee %s · %s", m.Round, t.ctx.called(m.PlayerA), t.ctx.called(m.PlayerB),
		orDash(m.Referee), matchState(t.ctx, m))
}

func (t *transcriptView) fileLines() []string {
	f := t.file
	lines := []string{t.summary(), t.ctx.Styles.Dim.Render(fmt.Sprintf(" %s · %s → %s · %d messages",
		f.GameType, f.Lifecycle.StartedAt, f.Lifecycle.FinishedAt, len(f.Transcript))), ""}
	for _, e := range f.Transcript {
		lines = append(lines, fmt.Sprintf(" %3d %s %-22s %s → %s", e.Seq, shortTime(e.Timestamp), e.MessageType, e.From, e.To))
		content, reasoning := splitReasoning(e.Content)
		if c := contentSummary(content); c != "" {
			for _, w := range wrapWords(c, max(t.width-8, 20)) {
				lines = append(lines, "       "+t.ctx.Styles.Dim.Render(w))
			}
		}
		lines = append(lines, viewLines(e.View())...)
		lines = append(lines, t.reasoningLines(reasoning)...)
	}
	if len(f.Result) > 0 {
		lines = append(lines, "", " result: "+contentSummary(f.Result))
	}
	return lines
}

// viewLines are the game's drawing of what a move call's seat sees (a
// board), under the exchange, a line of the game's a line behind a bar,
// each made printable: the drawing comes from the game program, and no
// line of it may read as the console's own.
func viewLines(view string) []string {
	if view == "" {
		return nil
	}
	// Made printable first, a line break is the two characters \n, as it
	// already is in a match file the console reads through the manager.
	var out []string
	for _, line := range strings.Split(strings.TrimSuffix(protocol.Printable(view), `\n`), `\n`) {
		out = append(out, "       ▏ "+line)
	}
	return out
}

// wrapWords breaks text into lines of at most width cells at its spaces,
// and in a long JSON value after its commas, so that no word is cut; only a
// word longer than the line itself is broken. Escape codes are kept.
func wrapWords(text string, width int) []string {
	return strings.Split(ansi.Wrap(text, width, ","), "\n")
}

// splitReasoning is a message's content without its model block's
// reasoning, so the summary line stays short, and that reasoning, which
// gets a block of its own (nil when there is none). The file's content is
// left as it is.
func splitReasoning(content map[string]any) (map[string]any, map[string]any) {
	model, _ := content["model"].(map[string]any)
	reasoning, _ := model["reasoning"].(map[string]any)
	if reasoning == nil {
		return content, nil
	}
	trimmedModel := make(map[string]any, len(model))
	for k, v := range model {
		if k != "reasoning" {
			trimmedModel[k] = v
		}
	}
	trimmed := make(map[string]any, len(content))
	for k, v := range content {
		trimmed[k] = v
	}
	trimmed["model"] = trimmedModel
	return trimmed, reasoning
}

// reasoningLines fence a model move's prompt and reply: every line of
// theirs behind a bar, already made printable (a line break arrives as
// the two characters \n and starts a line of the block), so no word of the
// model or of another player reads as the console's own.
func (t *transcriptView) reasoningLines(reasoning map[string]any) []string {
	if reasoning == nil {
		return nil
	}
	dim := t.ctx.Styles.Dim
	width := max(t.width-12, 20)
	lines := []string{"       " + dim.Render("┌ the model's reasoning")}
	for _, part := range []string{"prompt", "reply"} {
		text, _ := reasoning[part].(string)
		lines = append(lines, "       "+dim.Render("├ "+part))
		for _, line := range strings.Split(text, `\n`) {
			for _, w := range wrapWords(line, width) {
				lines = append(lines, "       "+dim.Render("│ ")+w)
			}
		}
	}
	end := "└"
	if cut, _ := reasoning["truncated"].(bool); cut {
		end += fmt.Sprintf(" (each cut to %d bytes)", protocol.ReasoningBytes)
	}
	return append(lines, "       "+dim.Render(end))
}

func (t *transcriptView) feedLines() []string {
	lines := []string{t.summary(), t.ctx.Styles.Dim.Render(" " + t.note), ""}
	m := t.ctx.State.Match(t.matchID)
	if m == nil || len(m.Steps) == 0 {
		return append(lines, " no step reported yet")
	}
	for _, st := range m.Steps {
		line := fmt.Sprintf(" %s %-8s %-16s %s", st.Time.In(t.ctx.location()).Format("15:04:05.000"), orDash(st.Referee), st.Step, st.Detail)
		lines = append(lines, line)
	}
	return lines
}

// envelopeKeys are the fields every message has; the summary leaves them out.
var envelopeKeys = []string{"protocol", "message_type", "sender", "timestamp", "conversation_id", "league_id",
	"round_id", "match_id", "auth_token"}

// contentSummary is a message's own fields as key=value, keys sorted.
func contentSummary(content map[string]any) string {
	keys := make([]string, 0, len(content))
	for k := range content {
		if !slices.Contains(envelopeKeys, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v, err := json.Marshal(content[k])
		if err != nil {
			continue
		}
		parts = append(parts, k+"="+string(v))
	}
	return strings.Join(parts, " ")
}

// shortTime keeps the clock part of an ISO timestamp.
func shortTime(ts string) string {
	if i := strings.IndexByte(ts, 'T'); i >= 0 && len(ts) > i+1 {
		ts = ts[i+1:]
	}
	return fit(ts, 12)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
