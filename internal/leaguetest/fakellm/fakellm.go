// Package fakellm is a fake language-model provider for tests and local
// trials: one HTTP server on 127.0.0.1 that speaks both the OpenAI
// chat-completions JSON (POST .../chat/completions) and the Anthropic
// messages JSON (POST .../messages), streaming off, and answers every
// request the way it is told: a good tool call, no tool call, an unknown
// tool, empty arguments, an illegal link, 429 with Retry-After, a request
// held until the client gives up, 500, malformed JSON, an answer of
// 200 MB, the move as JSON in the text, or, as a server without tool
// calls, 400 to a request that offers tools and a text move to one that
// does not; a good answer that says it cost math.MaxInt64 tokens, a
// negative count or the most a reply may (llm.MaxUsageTokens); or the key
// it was sent, in every spelling, in its text and as the move. It needs
// no key.
package fakellm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/llm"
)

// Answer is how the fake answers a request.
type Answer string

// The answers.
const (
	Good           Answer = "good"            // a tool call with a legal move
	NoToolCall     Answer = "no_tool_call"    // text only
	UnknownTool    Answer = "unknown_tool"    // a call of a tool it was not given
	EmptyArguments Answer = "empty_arguments" // the right tool with {}
	IllegalLink    Answer = "illegal_link"    // the right tool with a page that is no link
	RateLimited    Answer = "rate_limited"    // 429 with Retry-After
	Hang           Answer = "hang"            // no answer until the client gives up
	ServerError    Answer = "server_error"    // 500
	MalformedJSON  Answer = "malformed_json"  // 200 with a body cut short
	Huge           Answer = "huge"            // 200 with HugeBytes of one answer, streamed
	TextMove       Answer = "text_move"       // no tool call: the legal move as JSON in the text
	NoTools        Answer = "no_tools"        // a server without tool calls: 400 to a request with tools, a text move to one without
	HugeUsage      Answer = "huge_usage"      // a Good answer that says it cost math.MaxInt64 tokens in and out
	NegativeUsage  Answer = "negative_usage"  // a Good answer that says it cost a negative count of tokens
	MaxUsage       Answer = "max_usage"       // a Good answer that says it cost llm.MaxUsageTokens in and out, the most a reply may
	EchoKey        Answer = "echo_key"        // the key it was sent, in every spelling (KeyEncodings), in its text and as the move
)

// HugeBytes is the size of a Huge answer: more than a player should ever
// hold of one reply.
const HugeBytes = 200 << 20

// Answers lists every answer.
var Answers = []Answer{Good, NoToolCall, UnknownTool, EmptyArguments, IllegalLink, RateLimited, Hang, ServerError, MalformedJSON, Huge,
	TextMove, NoTools, HugeUsage, NegativeUsage, MaxUsage, EchoKey}

// KeyEncodings are the spellings of key an EchoKey answer says it in, as
// the standard library writes them: the key itself, as encoding/json
// writes it in a string (with <, > and & as \u003c, \u003e and \u0026,
// and without), and as url.QueryEscape and url.PathEscape do.
func KeyEncodings(key string) []string {
	quoted, _ := json.Marshal(key)
	var plain bytes.Buffer
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(key)
	unquoted := strings.TrimSuffix(plain.String(), "\n")
	return []string{key, string(quoted[1 : len(quoted)-1]), unquoted[1 : len(unquoted)-1], url.QueryEscape(key), url.PathEscape(key)}
}

// Usage is the tokens every answered request says it cost.
const (
	InputTokens  = 120
	OutputTokens = 12
)

// IllegalPage is the page an IllegalLink answer asks for.
const IllegalPage = "No Such Page Anywhere"

// Request is one request the fake received.
type Request struct {
	API    string // "openai" or "anthropic"
	Model  string
	Tool   string // the first tool offered, or the move a request without tools asks for
	Text   bool   // the request offered no tool: the move is asked for as text
	Prompt string // the text of its messages, one after the other
	Key    string // the API key it carried
	At     time.Time
	Answer Answer
}

// Server is a running fake provider.
type Server struct {
	// URL is the server's root, the Anthropic base URL; OpenAIURL adds /v1.
	URL        string
	RetryAfter int // seconds a 429 asks to wait (default 1)

	srv      *httptest.Server
	closing  chan struct{} // closed by Close: held requests are answered
	closed   sync.Once
	mu       sync.Mutex
	answers  []Answer // used in turn; the last one answers every later request
	requests []Request
	holding  int // Hang requests whose client has not given up yet

	limit *rateLimit // Limit's, guarded by mu; nil for none

	scripts map[string]*[]Answer // per model, answers used as answers are (StartScripted, script.go)
}

// Start runs a fake on a free port of 127.0.0.1 that answers with answers
// in turn, the last one for good.
func Start(answers ...Answer) *Server {
	if len(answers) == 0 {
		answers = []Answer{Good}
	}
	s := &Server{RetryAfter: 1, answers: answers, closing: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// OpenAIURL is the base URL an OpenAI client takes (--llm-base-url).
func (s *Server) OpenAIURL() string { return s.URL + "/v1" }

// Close stops the server, releasing any held request.
func (s *Server) Close() {
	s.closed.Do(func() { close(s.closing) })
	s.srv.Close()
}

// Holding is how many requests the fake holds (Hang) whose client has not
// given up on them.
func (s *Server) Holding() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holding
}

// hold holds a request until its client gives up or the server closes.
func (s *Server) hold(r *http.Request) {
	s.mu.Lock()
	s.holding++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.holding--
		s.mu.Unlock()
	}()
	select {
	case <-r.Context().Done():
	case <-s.closing:
	}
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// next takes the answer for the next request and records it.
func (s *Server) next(r Request) Answer {
	s.mu.Lock()
	defer s.mu.Unlock()
	answers := s.queueFor(r.Model)
	r.Answer = (*answers)[0]
	if len(*answers) > 1 {
		*answers = (*answers)[1:]
	}
	s.requests = append(s.requests, r)
	return r.Answer
}

// asked is what the fake read from a request.
type asked struct {
	api, model, tool, param, prompt string
	options                         []string
	text                            bool // no tool offered: the move asked for as JSON in the text
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&body) != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	q := read(r.URL.Path, body)
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if q.api == "anthropic" {
		key = r.Header.Get("X-Api-Key")
	}
	if s.overLimit(w, q.api, Request{API: q.api, Model: q.model, Tool: q.tool, Text: q.text, Prompt: q.prompt, Key: key, At: time.Now()}) {
		return
	}
	answer := s.next(Request{API: q.api, Model: q.model, Tool: q.tool, Text: q.text, Prompt: q.prompt, Key: key,
		At: time.Now()})
	w.Header().Set("Content-Type", "application/json")
	switch answer {
	case RateLimited:
		w.Header().Set("Retry-After", fmt.Sprint(s.RetryAfter))
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write(errorBody(q.api, "rate_limit_error", "slow down"))
	case Hang:
		s.hold(r)
	case ServerError:
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write(errorBody(q.api, "api_error", "the fake is down"))
	case MalformedJSON:
		_, _ = w.Write([]byte(`{"id": "cut", "choices": [{"message": {"tool_calls": [`))
	case Huge:
		writeHuge(w)
	case NoTools:
		if !q.text {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(errorBody(q.api, "invalid_request_error", "this model does not support tools"))
			return
		}
		_ = json.NewEncoder(w).Encode(reply(q, TextMove, key))
	default:
		_ = json.NewEncoder(w).Encode(withUsage(reply(q, answer, key), q.api, answer))
	}
}

// withUsage is r with the usage answer says.
func withUsage(r map[string]any, api string, answer Answer) map[string]any {
	var in, out int64
	switch answer {
	case HugeUsage:
		in, out = math.MaxInt64, math.MaxInt64
	case NegativeUsage:
		in, out = -1_000_000, math.MinInt64
	case MaxUsage:
		in, out = llm.MaxUsageTokens, llm.MaxUsageTokens
	default:
		return r
	}
	if api == "anthropic" {
		r["usage"] = map[string]any{"input_tokens": in, "output_tokens": out}
	} else {
		r["usage"] = map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in}
	}
	return r
}

// writeHuge streams an answer of HugeBytes whose text never ends until
// then, stopping when the client stops reading.
func writeHuge(w http.ResponseWriter) {
	chunk := []byte(strings.Repeat("x", 64<<10))
	_, _ = w.Write([]byte(`{"id": "huge", "choices": [{"message": {"content": "`))
	for written := 0; written < HugeBytes; written += len(chunk) {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
	_, _ = w.Write([]byte(`"}}]}`))
}

// read finds the API, the offered tool and the prompt of a request.
func read(path string, body map[string]any) asked {
	q := asked{api: "openai"}
	if strings.HasSuffix(path, "/messages") {
		q.api = "anthropic"
	}
	q.model, _ = body["model"].(string)
	tools, _ := body["tools"].([]any)
	if len(tools) > 0 {
		tool, _ := tools[0].(map[string]any)
		schema, _ := tool["input_schema"].(map[string]any)
		if fn, ok := tool["function"].(map[string]any); ok {
			tool, schema = fn, nil
			schema, _ = fn["parameters"].(map[string]any)
		}
		q.tool, _ = tool["name"].(string)
		props, _ := schema["properties"].(map[string]any)
		for name, p := range props {
			q.param = name
			enum, _ := p.(map[string]any)["enum"].([]any)
			for _, e := range enum {
				q.options = append(q.options, fmt.Sprint(e))
			}
		}
	}
	messages, _ := body["messages"].([]any)
	for _, m := range messages {
		q.prompt += textOf(m.(map[string]any)["content"]) + "\n"
	}
	if q.tool == "" {
		var spec struct {
			Tool    string   `json:"tool"`
			Param   string   `json:"param"`
			Options []string `json:"options"`
		}
		jsonAfter(q.prompt, llm.TextMoveLabel, &spec)
		q.tool, q.param, q.options, q.text = spec.Tool, spec.Param, spec.Options, true
	}
	return q
}

// textOf reads a message's content: a string or a list of text blocks.
func textOf(content any) string {
	if s, ok := content.(string); ok {
		return s
	}
	var b strings.Builder
	blocks, _ := content.([]any)
	for _, block := range blocks {
		if m, ok := block.(map[string]any); ok {
			b.WriteString(fmt.Sprint(m["text"]))
		}
	}
	return b.String()
}

// move is the legal move of a Good answer: the first option offered, or
// for the link race the target when it is a link, else the first link not
// yet visited.
func move(q asked) string {
	if len(q.options) > 0 {
		return q.options[0]
	}
	links, path := jsonLine(q.prompt, llm.LinksLabel), jsonLine(q.prompt, llm.PathLabel)
	var target string
	jsonAfter(q.prompt, llm.TargetLabel, &target)
	if slices.Contains(links, target) {
		return target
	}
	for _, l := range links {
		if !slices.Contains(path, l) {
			return l
		}
	}
	if len(links) > 0 {
		return links[0]
	}
	return IllegalPage
}

// jsonLine reads the JSON list after label in the prompt.
func jsonLine(prompt, label string) []string {
	var out []string
	jsonAfter(prompt, label, &out)
	return out
}

// jsonAfter reads the JSON after label in the prompt into v.
func jsonAfter(prompt, label string, v any) {
	for _, line := range strings.Split(prompt, "\n") {
		if rest, ok := strings.CutPrefix(line, label); ok {
			_ = json.Unmarshal([]byte(rest), v)
		}
	}
}

// reply is a 200 answer in the request's API; key is the key the
// request carried.
func reply(q asked, answer Answer, key string) map[string]any {
	name, args := q.tool, map[string]any{q.param: move(q)}
	switch answer {
	case UnknownTool:
		name, args = "search_wikipedia", map[string]any{"query": "anything"}
	case EmptyArguments:
		args = map[string]any{}
	case IllegalLink:
		args = map[string]any{q.param: IllegalPage}
	case EchoKey:
		args = map[string]any{q.param: key, "spellings": KeyEncodings(key)}
	}
	withCall := answer != NoToolCall && answer != TextMove && !q.text
	say := "I will move."
	if answer == EchoKey {
		say = "Your key is " + strings.Join(KeyEncodings(key), " or ") + "."
	}
	if answer == TextMove || q.text {
		raw, _ := json.Marshal(args)
		say = "I choose " + string(raw) + "."
	}
	args, say, withCall = scripted(q, answer, args, say, withCall)
	if q.api == "anthropic" {
		content := []any{map[string]any{"type": "text", "text": say}}
		if withCall {
			content = append(content, map[string]any{"type": "tool_use", "id": "toolu_fake", "name": name, "input": args})
		}
		return map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": q.model,
			"content": content, "stop_reason": "tool_use", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": InputTokens, "output_tokens": OutputTokens}}
	}
	message := map[string]any{"role": "assistant", "content": say}
	if withCall {
		arguments, _ := json.Marshal(args)
		message["tool_calls"] = []any{map[string]any{"id": "call_fake", "type": "function",
			"function": map[string]any{"name": name, "arguments": string(arguments)}}}
	}
	return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": q.model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "message": message}},
		"usage": map[string]any{"prompt_tokens": InputTokens, "completion_tokens": OutputTokens,
			"total_tokens": InputTokens + OutputTokens}}
}

// errorBody is an API's error JSON.
func errorBody(api, kind, message string) []byte {
	if api == "anthropic" {
		b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": kind, "message": message}})
		return b
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"type": kind, "message": message}})
	return b
}
