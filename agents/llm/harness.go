package llm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// A harness (config.Harness) is how a model player asks: its system
// prompt, its prompt, what the prompt shows of the game, how the model
// samples, and how many rethinks a move has. The built-in harness is the
// zero one: TurnFor's prompts, the provider's sampling, no rethink.

// MaxPromptFileBytes bounds a system prompt or prompt template file.
const MaxPromptFileBytes = 64 << 10

// maxPromptBytes bounds a prompt a template writes.
const maxPromptBytes = 1 << 20

// PromptData is what a prompt template (--llm-prompt-template-file) is
// given for a turn. Every value that came from outside (State, Moves,
// History, Opponent, and Prompt, which holds them) is already fenced as
// JSON, as the built-in prompt fences it.
type PromptData struct {
	Prompt   string // the built-in prompt, as the harness's moves and history shape it
	Game     string // the game's name, e.g. even_odd
	Opponent string // the opponent's id, quoted
	Turn     int
	State    string // what the game shows this seat, as JSON
	Moves    string // the legal moves as a JSON list; "" when hidden or none
	History  string // the earlier turns the harness shows, one a line
}

// harness is a model's harness, its files read.
type harness struct {
	settings config.Harness
	system   string             // "" for the built-in
	template *template.Template // nil for the built-in
	report   *protocol.Harness  // nil for the built-in
}

// loadHarness reads and checks the harness's files.
func loadHarness(h config.Harness) (*harness, error) {
	out := &harness{settings: h}
	if h.SystemPromptFile != "" {
		text, err := readPromptFile(h.SystemPromptFile, "--llm-system-prompt-file")
		if err != nil {
			return nil, err
		}
		out.system = text
	}
	var tmplText string
	if h.PromptTemplateFile != "" {
		text, err := readPromptFile(h.PromptTemplateFile, "--llm-prompt-template-file")
		if err != nil {
			return nil, err
		}
		tmplText = text
		tmpl, err := template.New(filepath.Base(h.PromptTemplateFile)).Option("missingkey=error").Parse(text)
		if err != nil {
			return nil, fmt.Errorf("--llm-prompt-template-file %s: %w", h.PromptTemplateFile, err)
		}
		if _, err := render(tmpl, PromptData{Prompt: "p", Game: "g", Opponent: `"o"`, State: "{}", Moves: "[]"}); err != nil {
			return nil, fmt.Errorf("--llm-prompt-template-file %s: %w", h.PromptTemplateFile, err)
		}
		out.template = tmpl
	}
	out.report = harnessReport(h, out.system, tmplText)
	return out, nil
}

// readPromptFile reads a prompt file, refusing one that is empty, over
// MaxPromptFileBytes or not UTF-8.
func readPromptFile(path, flag string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", flag, err)
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(io.LimitReader(f, MaxPromptFileBytes+1)); err != nil {
		return "", fmt.Errorf("%s: %w", flag, err)
	}
	switch {
	case b.Len() > MaxPromptFileBytes:
		return "", fmt.Errorf("%s %s: over %d bytes", flag, path, MaxPromptFileBytes)
	case !utf8.Valid(b.Bytes()):
		return "", fmt.Errorf("%s %s: not UTF-8 text", flag, path)
	case strings.TrimSpace(b.String()) == "":
		return "", fmt.Errorf("%s %s: the file is empty", flag, path)
	}
	return b.String(), nil
}

// harnessReport is the harness as the match files keep it: nil when it is
// the built-in one.
func harnessReport(h config.Harness, system, tmpl string) *protocol.Harness {
	if h == (config.Harness{}) {
		return nil
	}
	r := &protocol.Harness{ReasoningEffort: h.ReasoningEffort, ThinkingBudget: h.ThinkingBudget,
		MaxOutputTokens: h.MaxOutputTokens, Moves: h.Moves, History: h.History, Rethinks: h.Rethinks}
	if h.SystemPromptFile != "" {
		r.SystemPrompt = fileNamed(h.SystemPromptFile, system)
	}
	if h.PromptTemplateFile != "" {
		r.PromptTemplate = fileNamed(h.PromptTemplateFile, tmpl)
	}
	if h.Temperature.Set {
		r.Temperature = &h.Temperature.Value
	}
	if h.TopP.Set {
		r.TopP = &h.TopP.Value
	}
	if h.Seed.Set {
		seed := int64(h.Seed.Value)
		r.Seed = &seed
	}
	return r
}

// fileNamed names a prompt file by its base name and the hash of its
// text: two harnesses with the same name and other words differ.
func fileNamed(path, text string) string {
	sum := sha256.Sum256([]byte(text))
	return filepath.Base(path) + " sha256:" + hex.EncodeToString(sum[:8])
}

// shape is turn asked with the harness: the prompt rebuilt with its view
// of the game and through its template, its system prompt.
func (h *harness) shape(turn Turn) (Turn, error) {
	s := h.settings
	if !turn.fromGame || (s.Moves == "" && s.History == "" && h.template == nil && h.system == "") {
		return turn, nil
	}
	v := view{history: s.HistoryTurns(), moves: s.MovesShown()}
	shaped := turnWith(turn.mc, turn.past, turn.Deadline, v)
	if h.system != "" {
		shaped.System, shaped.ownSystem = h.system, true
	}
	if h.template == nil {
		return shaped, nil
	}
	prompt, err := render(h.template, promptData(shaped, v))
	if err != nil {
		return turn, err
	}
	shaped.Prompt = prompt
	return shaped, nil
}

// promptData is what a template is given for turn.
func promptData(turn Turn, v view) PromptData {
	mc := turn.mc
	d := PromptData{Prompt: turn.Prompt, Game: mc.GameType, Opponent: Quote(mc.OpponentID), Turn: mc.Turn,
		State: QuoteJSON(mc.State), History: historyText(turn, v)}
	if v.moves && len(turn.Tool.Options) > 0 {
		d.Moves = QuoteList(turn.Tool.Options)
	}
	return d
}

// historyText is the earlier turns a template is given: even/odd's
// matches against the opponent, the link race's path.
func historyText(turn Turn, v view) string {
	if turn.mc.GameType == engine.LinkRaceType {
		return QuoteList(lastOf(engine.StringsOf(turn.mc.State["path"]), v.history))
	}
	if turn.mc.GameType == "even_odd" {
		return pastLines(turn.mc.OpponentID, lastOf(turn.past, v.history), v.history)
	}
	return ""
}

func render(tmpl *template.Template, d PromptData) (string, error) {
	var b bytes.Buffer
	if err := tmpl.Execute(&limitWriter{&b, maxPromptBytes}, d); err != nil {
		return "", err
	}
	return b.String(), nil
}

// limitWriter fails a template that writes more than n bytes.
type limitWriter struct {
	b *bytes.Buffer
	n int
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if w.b.Len()+len(p) > w.n {
		return 0, fmt.Errorf("the prompt is over %d bytes", w.n)
	}
	return w.b.Write(p)
}

// PromptTemplateFailed is the exception type of a move whose prompt
// template failed (MODEL_GENERATION_ERROR): the model is not asked.
const PromptTemplateFailed = "PromptTemplateFailed"

// lastOf is the last n of list; all of it for n < 0.
func lastOf[T any](list []T, n int) []T {
	if n < 0 || n >= len(list) {
		return list
	}
	return list[len(list)-n:]
}

// harnessKey carries a request's harness to the record (cassette), whose
// key it is part of.
type harnessKey struct{}

func withHarness(ctx context.Context, h *protocol.Harness) context.Context {
	if h == nil {
		return ctx
	}
	return context.WithValue(ctx, harnessKey{}, h)
}

func harnessOf(ctx context.Context) *protocol.Harness {
	h, _ := ctx.Value(harnessKey{}).(*protocol.Harness)
	return h
}
