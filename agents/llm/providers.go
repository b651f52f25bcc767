package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/leaguetui/leaguetui/agents/ratelimit"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/config"
)

// maxOutputTokens bounds one answer of the built-in harness: a move is one
// short tool call (--llm-max-output-tokens changes it).
const maxOutputTokens = config.DefaultMaxOutputTokens

// toolSchema is the JSON schema of a tool's single string argument.
func toolSchema(t Tool) map[string]any {
	param := map[string]any{"type": "string", "description": t.Description}
	if len(t.Options) > 0 && !t.LinkMove && !t.HideOptions {
		param["enum"] = t.Options
	}
	return map[string]any{"type": "object", "properties": map[string]any{t.Param: param}, "required": []string{t.Param}}
}

// openAIBackend speaks the Chat Completions API (OpenAI or any compatible
// server such as Ollama). The SDK's own retries are off: ours stay inside
// the move deadline.
type openAIBackend struct {
	client  openai.Client
	model   string
	mode    *toolMode
	harness config.Harness
}

// replyClient is the HTTP client a provider's SDK talks through: every
// reply read up to the settings' byte cap only (rpc.CapReplies), so a
// provider that answers without end fails the move (REPLY_TOO_LARGE, a
// MODEL_GENERATION_ERROR) instead of filling the player's memory.
// Every request waits for its slot in the schedule the model players of
// the provider and key share (ratelimit.For, in the data folder's
// models/ when there is one). With a record folder the client records
// every exchange there, or answers every request from it and reaches no
// network (nor the schedule).
func replyClient(s config.LLM, o Options, key string, blank *blanker) (*http.Client, error) {
	limit := s.ReplyBytes
	if limit <= 0 {
		limit = config.Default().Player.LLM.ReplyBytes
	}
	limiter := ratelimit.For(o.DataDir, ratelimit.Identity(s.API(), s.ServerURL(), key), ratelimit.Limits{RPM: s.RPM, TPM: s.TPM})
	transport := &ratelimit.Transport{Limiter: limiter, Next: rpc.CapReplies(http.DefaultTransport, limit), AnswerTokens: int64(s.Harness.OutputCap())}
	player := o.Player
	dir, replay := s.RecordDir, false
	if s.ReplayDir != "" {
		dir, replay = s.ReplayDir, true
	}
	if dir == "" {
		return &http.Client{Transport: transport}, nil
	}
	folder, err := recordFolder(dir, player)
	if err != nil {
		return nil, err
	}
	if !replay {
		if err := os.MkdirAll(folder, 0o755); err != nil {
			return nil, fmt.Errorf("--record-models: %w", err)
		}
	}
	return &http.Client{Transport: &cassette{dir: folder, replay: replay, blank: blank, limit: limit, next: transport,
		seen: map[string]int{}}}, nil
}

func newOpenAI(s config.LLM, key string, client *http.Client) *openAIBackend {
	opts := []openaioption.RequestOption{openaioption.WithMaxRetries(0), openaioption.WithAPIKey(key),
		openaioption.WithHTTPClient(client)}
	if url := s.ServerURL(); url != "" {
		opts = append(opts, openaioption.WithBaseURL(url))
	}
	return &openAIBackend{client: openai.NewClient(opts...), model: s.Model, mode: newToolMode(s.ToolCalls), harness: s.Harness}
}

func (b *openAIBackend) complete(ctx context.Context, turn Turn) (answer, error) {
	return completeEither(b.mode, func(text bool) (answer, error) { return b.ask(ctx, turn, text) })
}

// completeEither asks with tools or as text, as mode says, and asks
// again as text at once when a server in auto mode refuses the tools.
func completeEither(mode *toolMode, ask func(text bool) (answer, error)) (answer, error) {
	text := mode.useText()
	res, err := ask(text)
	var pe *providerError
	if err != nil && !text && errors.As(err, &pe) && mode.refusedTools(pe) {
		return ask(true)
	}
	return res, err
}

// prompts are the system prompt and the prompt a move is asked with, with
// tools or as text.
func prompts(turn Turn, text bool) (system, prompt string) {
	if text {
		return asText(turn)
	}
	return turn.System, turn.Prompt
}

func (b *openAIBackend) ask(ctx context.Context, turn Turn, text bool) (answer, error) {
	system, prompt := prompts(turn, text)
	params := openai.ChatCompletionNewParams{
		Model:               shared.ChatModel(b.model),
		Messages:            []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage(prompt)},
		MaxCompletionTokens: openai.Int(int64(b.harness.OutputCap())),
	}
	openAISampling(&params, b.harness)
	if !text {
		params.Tools = []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: turn.Tool.Name, Description: openai.String(turn.Tool.Description), Parameters: toolSchema(turn.Tool)})}
	}
	res := answer{asked: asked(system, prompt)}
	resp, err := b.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return res, requestFailed(err, func(e *openai.Error) (int, *http.Response, string) { return e.StatusCode, e.Response, e.RawJSON() })
	}
	if err := checkUsage(usage{in: resp.Usage.PromptTokens, out: resp.Usage.CompletionTokens}); err != nil {
		return res, err
	}
	res.usage = usage{in: resp.Usage.PromptTokens, out: resp.Usage.CompletionTokens}
	var content strings.Builder
	for _, choice := range resp.Choices {
		content.WriteString(choice.Message.Content)
		for _, call := range choice.Message.ToolCalls {
			res.call = &toolCall{Name: call.Function.Name, Arguments: call.Function.Arguments}
			res.said = said(content.String(), res.call)
			return res, nil
		}
	}
	res.call = b.mode.fromText(content.String(), turn)
	res.said = said(content.String(), nil)
	return res, nil
}

// asked is a move's prompt as its reasoning keeps it.
func asked(system, prompt string) string { return "system: " + system + "\n\n" + prompt }

// said is a model's answer as its reasoning keeps it: its text, then the
// tool it called.
func said(text string, call *toolCall) string {
	if call != nil {
		text = strings.TrimSpace(text + "\n\ntool call: " + call.Name + " " + call.Arguments)
	}
	return text
}

// anthropicBackend speaks the Messages API, retries off like openAIBackend.
type anthropicBackend struct {
	client  anthropic.Client
	model   string
	mode    *toolMode
	harness config.Harness
}

func newAnthropic(s config.LLM, key string, client *http.Client) *anthropicBackend {
	opts := []anthropicoption.RequestOption{anthropicoption.WithMaxRetries(0), anthropicoption.WithAPIKey(key),
		anthropicoption.WithHTTPClient(client)}
	if url := s.ServerURL(); url != "" {
		opts = append(opts, anthropicoption.WithBaseURL(url))
	}
	return &anthropicBackend{client: anthropic.NewClient(opts...), model: s.Model, mode: newToolMode(s.ToolCalls), harness: s.Harness}
}

func (b *anthropicBackend) complete(ctx context.Context, turn Turn) (answer, error) {
	return completeEither(b.mode, func(text bool) (answer, error) { return b.ask(ctx, turn, text) })
}

func (b *anthropicBackend) ask(ctx context.Context, turn Turn, text bool) (answer, error) {
	system, prompt := prompts(turn, text)
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(b.model),
		MaxTokens: int64(b.harness.OutputCap()),
		System:    []anthropic.TextBlockParam{{Text: system}},
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))},
	}
	anthropicSampling(&params, b.harness)
	if !text {
		tool := anthropic.ToolUnionParamOfTool(anthropic.ToolInputSchemaParam{
			Properties: toolSchema(turn.Tool)["properties"], Required: []string{turn.Tool.Param}}, turn.Tool.Name)
		tool.OfTool.Description = anthropic.String(turn.Tool.Description)
		params.Tools = []anthropic.ToolUnionParam{tool}
	}
	res := answer{asked: asked(system, prompt)}
	resp, err := b.client.Messages.New(ctx, params)
	if err != nil {
		return res, requestFailed(err, func(e *anthropic.Error) (int, *http.Response, string) { return e.StatusCode, e.Response, e.RawJSON() })
	}
	if err := checkUsage(usage{in: resp.Usage.InputTokens, out: resp.Usage.OutputTokens}); err != nil {
		return res, err
	}
	res.usage = usage{in: resp.Usage.InputTokens, out: resp.Usage.OutputTokens}
	var content strings.Builder
	for _, block := range resp.Content {
		if block.Type == "tool_use" {
			res.call = &toolCall{Name: block.Name, Arguments: string(block.Input)}
			res.said = said(content.String(), res.call)
			return res, nil
		}
		content.WriteString(block.Text)
	}
	res.call = b.mode.fromText(content.String(), turn)
	res.said = said(content.String(), nil)
	return res, nil
}

// requestFailed classifies an SDK's error: E is its API error type, whose
// status code, response and body reply reads.
func requestFailed[E any, PE interface {
	*E
	error
}](err error, reply func(PE) (int, *http.Response, string)) *providerError {
	var apiErr PE
	if errors.As(err, &apiErr) {
		status, resp, body := reply(apiErr)
		pe := classify(err, status, retryAfter(resp))
		pe.body = body
		return pe
	}
	return classify(err, 0, 0)
}

// retryAfter is a 429's wait as the provider gives it (ratelimit.RetryAfter:
// bounded, never negative), 0 without one.
func retryAfter(resp *http.Response) time.Duration {
	if resp == nil {
		return 0
	}
	wait, _ := ratelimit.RetryAfter(resp.Header, time.Now())
	return wait
}

// openAISampling sends the harness's sampling settings that are set; the
// built-in harness sends none, so the request is as it always was.
func openAISampling(p *openai.ChatCompletionNewParams, h config.Harness) {
	if h.Temperature.Set {
		p.Temperature = openai.Float(h.Temperature.Value)
	}
	if h.TopP.Set {
		p.TopP = openai.Float(h.TopP.Value)
	}
	if h.Seed.Set {
		p.Seed = openai.Int(int64(h.Seed.Value))
	}
	if h.ReasoningEffort != "" {
		p.ReasoningEffort = shared.ReasoningEffort(h.ReasoningEffort)
	}
}

// anthropicSampling is openAISampling for the Messages API, whose
// thinking budget stands for a reasoning effort.
func anthropicSampling(p *anthropic.MessageNewParams, h config.Harness) {
	if h.Temperature.Set {
		p.Temperature = anthropic.Float(h.Temperature.Value)
	}
	if h.TopP.Set {
		p.TopP = anthropic.Float(h.TopP.Value)
	}
	if h.ThinkingBudget > 0 {
		p.Thinking = anthropic.ThinkingConfigParamOfEnabled(int64(h.ThinkingBudget))
	}
}
