package llm

import (
	"bytes"
	"cmp"
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
)

// Blanked is what stands wherever a model player would have written its
// provider's key: a provider may echo the key into its reply, and what
// the reply says goes into the move's report (the match file, the web
// view, the HTML report, history.json), the record and the log.
const Blanked = "[redacted]"

// keyEncodings are the ways a string is spelled on its way to a file, a
// page or a URL: as encoding/json writes it (with <, > and & as \u003c,
// \u003e and \u0026, and without), and as url.QueryEscape and
// url.PathEscape write it.
var keyEncodings = []func(string) string{
	func(s string) string { return jsonString(s, true) },
	func(s string) string { return jsonString(s, false) },
	url.QueryEscape,
	url.PathEscape,
}

// keyDepth is how many encodings deep a key is looked for: a key in a
// tool call's arguments (JSON) in a move's reasoning (a JSON string) in
// an MCP reply's text (a JSON string again) is three deep.
const keyDepth = 3

// jsonString is s as encoding/json writes a string, without its quotes.
func jsonString(s string, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(s) // a string always encodes
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	return string(out[1 : len(out)-1])
}

// keyForms is every spelling of key that blank replaces: the key itself
// and every encoding of it (keyEncodings) up to keyDepth deep, longest
// first; none for "".
func keyForms(key string) []string {
	if key == "" {
		return nil
	}
	forms, level := []string{key}, []string{key}
	for range keyDepth {
		var next []string
		for _, s := range level {
			for _, encode := range keyEncodings {
				if e := encode(s); !slices.Contains(forms, e) {
					forms, next = append(forms, e), append(next, e)
				}
			}
		}
		level = next
	}
	// Longest first: a form that holds another is replaced whole.
	slices.SortStableFunc(forms, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return forms
}

// blanker blanks every spelling of one key (keyForms). Every writer of a
// model player's text goes through it: the move's report (Ask), the
// record (cassette.keep) and, through store.Redact, the log. A nil
// blanker (no key) leaves text as it is.
type blanker struct {
	forms    []string
	replacer *strings.Replacer
}

// newBlanker is the blanker of key, registered with the log's redaction
// too; nil for no key.
func newBlanker(key string) *blanker {
	forms := keyForms(key)
	if len(forms) == 0 {
		return nil
	}
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, Blanked)
		store.Redact(f)
	}
	return &blanker{forms: forms, replacer: strings.NewReplacer(pairs...)}
}

// blank is s with every spelling of the key replaced by Blanked.
func (b *blanker) blank(s string) string {
	if b == nil {
		return s
	}
	return b.replacer.Replace(s)
}

// blankBytes is blank for bytes.
func (b *blanker) blankBytes(p []byte) []byte {
	if b == nil || !b.holds(p) {
		return p
	}
	return []byte(b.replacer.Replace(string(p)))
}

// holds reports whether p holds a spelling of the key.
func (b *blanker) holds(p []byte) bool {
	for _, f := range b.forms {
		if bytes.Contains(p, []byte(f)) {
			return true
		}
	}
	return false
}

// blankAnswer blanks what a provider said in an answer, before any of it
// is cut to a cap (a key cut in half would keep its first half).
func (b *blanker) blankAnswer(res answer) answer {
	if b == nil {
		return res
	}
	res.asked, res.said = b.blank(res.asked), b.blank(res.said)
	if res.call != nil {
		call := *res.call
		call.Name, call.Arguments = b.blank(call.Name), b.blank(call.Arguments)
		res.call = &call
	}
	return res
}

// blankReport blanks a move's report: its reasoning and every string of
// its metadata, at any depth.
func (b *blanker) blankReport(r *protocol.ModelMove) {
	if b == nil {
		return
	}
	if r.Reasoning != nil {
		reasoning := *r.Reasoning
		reasoning.Prompt, reasoning.Reply = b.blank(reasoning.Prompt), b.blank(reasoning.Reply)
		r.Reasoning = &reasoning
	}
	if r.Metadata != nil {
		r.Metadata = b.blankValue(r.Metadata).(map[string]any)
	}
	if r.Asks != nil {
		asks := make([]protocol.ModelAsk, len(r.Asks))
		for i, a := range r.Asks {
			a.Reply, a.Feedback = b.blank(a.Reply), b.blank(a.Feedback)
			asks[i] = a
		}
		r.Asks = asks
	}
}

// blankValue is v, a value as encoding/json decodes one, with its strings
// (keys too) blanked.
func (b *blanker) blankValue(v any) any {
	switch x := v.(type) {
	case string:
		return b.blank(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, sub := range x {
			out[b.blank(k)] = b.blankValue(sub)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, sub := range x {
			out[i] = b.blankValue(sub)
		}
		return out
	}
	return v
}
