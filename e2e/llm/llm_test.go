// Package llm_test plays leagues of model players with real processes:
// `leaguetui --no-ui --strategies llm,...` against a fake provider on
// 127.0.0.1 that speaks the OpenAI and Anthropic APIs, and checks that the
// moves come from its tool calls, that every failure ends in the seed's
// status with its metadata in the match file and the player's history,
// and that the standings agree with the match files.
package llm_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const (
	leagueID      = "league_2025_even_odd"
	leagueTimeout = 3 * time.Minute
	testKey       = "sk-e2e-model-key-5f3c9a17d2b84e60"
)

// match is a match file, the parts these tests read.
type match = leaguetest.MatchFile[struct {
	leaguetest.MatchResult
	Choices        map[string]string      `json:"choices"`
	PlayerStatuses map[string]string      `json:"player_statuses"`
	Errors         []leaguetest.GameError `json:"errors"`
}]

// modelReply is the "model" block of a player's move reply in a match file.
type modelReply struct {
	Player       string
	Provider     string         `json:"provider"`
	Model        string         `json:"model"`
	InputTokens  int64          `json:"input_tokens"`
	OutputTokens int64          `json:"output_tokens"`
	Fallback     bool           `json:"fallback"`
	ErrorType    string         `json:"error_type"`
	Status       string         `json:"status"`
	Metadata     map[string]any `json:"metadata"`
}

// modelReplies reads the model blocks of a match's move replies.
func modelReplies(t testing.TB, m match) []modelReply {
	t.Helper()
	return modelBlocks(t, m, func(r *modelReply, player string) { r.Player = player })
}

// modelBlocks decodes the "model" block of each of a match's transcript
// entries that has one into a T, in the transcript's order, and hands
// each its player.
func modelBlocks[T any](t testing.TB, m match, player func(*T, string)) []T {
	t.Helper()
	var out []T
	for _, e := range m.Transcript {
		block, ok := e.Content["model"]
		if !ok {
			continue
		}
		raw, _ := json.Marshal(block)
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: model block %s: %v", m.MatchID, raw, err)
		}
		id, _ := e.Content["player_id"].(string)
		player(&v, id)
		out = append(out, v)
	}
	return out
}

// history is a player's history.json, the parts these tests read.
type history struct {
	Strategy string `json:"strategy"`
	Stats    struct {
		Model *struct {
			Moves        int   `json:"moves"`
			InputTokens  int64 `json:"input_tokens"`
			OutputTokens int64 `json:"output_tokens"`
			Failures     int   `json:"failures"`
			Fallbacks    int   `json:"fallbacks"`
		} `json:"model"`
	} `json:"stats"`
	Matches []struct {
		MatchID string `json:"match_id"`
		Model   *struct {
			Errors []struct {
				ErrorType string         `json:"error_type"`
				Status    string         `json:"status"`
				Fallback  bool           `json:"fallback"`
				Metadata  map[string]any `json:"metadata"`
			} `json:"errors"`
		} `json:"model"`
	} `json:"matches"`
}

func readHistory(t *testing.T, dir, player string) history {
	t.Helper()
	var h history
	leaguetest.ReadJSON(t, filepath.Join(dir, "players", player, "history.json"), &h)
	return h
}

// runLeague runs a whole headless league with the args and returns its
// match files, having checked the standings against them, and what it
// printed.
func runLeague(t *testing.T, dir string, args ...string) ([]match, string) {
	t.Helper()
	args = append([]string{"--no-ui", "--free-ports", "--data", dir, "--seed", "3", "--referees", "1",
		"--move-timeout", "3s", "--join-timeout", "5s", "--retry-delay", "50ms", "--llm-model", "fake"}, args...)
	run := leaguetest.RunLeaguetui(t, dir, leagueTimeout, nil, args...)
	if run.Err != nil {
		leaguetest.KillLeftovers(t, dir)
		t.Fatalf("leaguetui %v: %v\n%s", args, run.Err, run.Stderr)
	}
	checkNoKey(t, dir, run.Stdout+run.Stderr)
	matches := leaguetest.ReadMatchFiles[match](t, dir, leaguetest.LeagueIn(t, dir))
	results := make([]leaguetest.MatchResult, len(matches))
	for i, m := range matches {
		results[i] = m.Result.MatchResult
	}
	leaguetest.CheckStandings(t, dir, leaguetest.LeagueIn(t, dir), results)
	return matches, run.Stdout
}

// fourPlayerLeague runs the issue's own command against a fake that gives
// answer: four even/odd players, llm and random cycled, the model players
// speaking to an OpenAI-compatible server.
func fourPlayerLeague(t *testing.T, answer fakellm.Answer) (*fakellm.Server, string, []match, string) {
	t.Helper()
	fake := fakellm.Start(answer)
	t.Cleanup(fake.Close)
	t.Setenv("OPENAI_API_KEY", testKey)
	dir := t.TempDir()
	matches, stdout := runLeague(t, dir, "--players", "4", "--strategies", "llm,random", "--llm-provider", "openai",
		"--llm-base-url", fake.OpenAIURL(), "--suspend-after", "0")
	if len(matches) != 6 {
		t.Fatalf("%d match files, want 6", len(matches))
	}
	return fake, dir, matches, stdout
}

// checkNoKey fails the test if the API key the players read from the
// environment is in any file of the data folder (logs, journal, match
// files, histories, the agents' outputs) or in leaguetui's output.
func checkNoKey(t *testing.T, dir, output string) {
	t.Helper()
	if strings.Contains(output, testKey) {
		t.Error("leaguetui's output holds the API key")
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(data), testKey) {
			t.Errorf("%s holds the API key", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The issue's own command: four players, model players and random ones
// cycled, against an OpenAI-compatible server. Every model move is the
// server's tool call, costs what its usage said, and the league completes.
func TestEvenOddLeagueOfModels(t *testing.T) {
	fake, dir, matches, stdout := fourPlayerLeague(t, fakellm.Good)
	models := map[string]bool{"P01": true, "P03": true} // llm,random cycled over P01..P04
	moves := 0
	for _, m := range matches {
		for _, r := range modelReplies(t, m) {
			moves++
			if !models[r.Player] || r.Provider != "openai" || r.Model != "fake" || r.ErrorType != "" ||
				r.InputTokens != fakellm.InputTokens || r.OutputTokens != fakellm.OutputTokens {
				t.Errorf("%s: model reply %+v", m.MatchID, r)
			}
			if m.Result.Choices[r.Player] != "even" { // the fake's tool call: the first option offered
				t.Errorf("%s: %s chose %q, not the tool call's even", m.MatchID, r.Player, m.Result.Choices[r.Player])
			}
		}
	}
	requests := fake.Requests()
	if moves != 6 || len(requests) != moves {
		t.Errorf("%d model moves in the match files, %d requests to the provider; want 6 of each", moves, len(requests))
	}
	for _, r := range requests {
		if r.Key != testKey || r.Tool != "choose_parity" || r.Model != "fake" {
			t.Errorf("the provider got %+v", r)
		}
	}
	for player := range models {
		h := readHistory(t, dir, player)
		if h.Strategy != "llm" || h.Stats.Model == nil || h.Stats.Model.Moves != 3 ||
			h.Stats.Model.InputTokens != 3*fakellm.InputTokens || h.Stats.Model.OutputTokens != 3*fakellm.OutputTokens {
			t.Errorf("%s's history: strategy %q, model stats %+v", player, h.Strategy, h.Stats.Model)
		}
		// Under the standings: model, provider/model, moves, tokens in and
		// out, ms/move, failed, fallbacks, rethinks, and "no price": the
		// fake model is in no price table.
		want := []string{player, "openai/fake", "3", fmt.Sprint(3 * fakellm.InputTokens), fmt.Sprint(3 * fakellm.OutputTokens)}
		if !slices.ContainsFunc(strings.Split(stdout, "\n"), func(line string) bool {
			f := strings.Fields(line)
			return len(f) == 11 && slices.Equal(f[:5], want) && f[6] == "0" && f[7] == "0" && f[8] == "0" && f[9]+" "+f[10] == "no price"
		}) {
			t.Errorf("no model cost line %v for %s under the standings:\n%s", want, player, stdout)
		}
	}
	if !strings.Contains(stdout, "league spend: no price") {
		t.Errorf("no unpriced league spend under the standings:\n%s", stdout)
	}
}

// A provider that answers 429 to everything leaves a completed league in
// which every match of a model player carries PROVIDER_RATE_LIMIT, the
// model player's game ending ERROR (a technical loss in even/odd).
func TestRateLimitedProviderLeague(t *testing.T) {
	fake, _, matches, _ := fourPlayerLeague(t, fakellm.RateLimited)
	for _, m := range matches {
		replies := modelReplies(t, m)
		modelPlayers := 0
		for _, p := range m.Players {
			if p == "P01" || p == "P03" { // llm,random cycled over P01..P04
				modelPlayers++
			}
		}
		if len(replies) != modelPlayers {
			t.Errorf("%s: %d model replies for %d model players", m.MatchID, len(replies), modelPlayers)
		}
		for _, r := range replies {
			if r.ErrorType != engine.ErrorRateLimit || r.Status != engine.RaceError || r.Metadata["provider"] != "openai" ||
				r.Metadata["has_tool_call_request"] != false || r.Metadata["exception_type"] == nil || r.Metadata["step"] != 1.0 {
				t.Errorf("%s: model reply %+v", m.MatchID, r)
			}
			if m.Result.Status != string(engine.StatusTechnicalLoss) || m.Result.PlayerStatuses[r.Player] != engine.RaceError {
				t.Errorf("%s: %s's failure ended %s with statuses %v", m.MatchID, r.Player, m.Result.Status, m.Result.PlayerStatuses)
			}
		}
	}
	if len(fake.Requests()) < 2 {
		t.Errorf("the provider got %d requests", len(fake.Requests()))
	}
}

// Every answer of the fake, in a link race of a model player against a
// random one, ends the model player's race in the seed's status with the
// seed's metadata, in the match file (the game's errors and the move
// reply) and in the player's history; with --llm-fallback random a
// provider failure is answered by a random link, marked as a fallback.
func TestTaxonomyInLinkRaces(t *testing.T) {
	cases := []struct {
		answer    fakellm.Answer
		provider  string
		errorType string
		fallback  bool
	}{
		{fakellm.NoToolCall, "openai", engine.ErrorNoToolCall, false},
		{fakellm.UnknownTool, "anthropic", engine.ErrorInvalidTool, false},
		{fakellm.EmptyArguments, "openai", engine.ErrorInvalidTool, false},
		{fakellm.IllegalLink, "anthropic", engine.ErrorInvalidLink, false},
		{fakellm.RateLimited, "openai", engine.ErrorRateLimit, false},
		{fakellm.Hang, "anthropic", engine.ErrorProviderTimeout, false},
		{fakellm.ServerError, "openai", engine.ErrorProviderAPI, false},
		{fakellm.MalformedJSON, "anthropic", engine.ErrorGeneration, false},
		{fakellm.ServerError, "anthropic", engine.ErrorProviderAPI, true},
	}
	for _, c := range cases {
		name := string(c.answer) + "/" + c.provider
		if c.fallback {
			name += "/fallback"
		}
		t.Run(name, func(t *testing.T) {
			fake := fakellm.Start(c.answer)
			defer fake.Close()
			t.Setenv("OPENAI_API_KEY", testKey)
			t.Setenv("ANTHROPIC_API_KEY", testKey)
			base := fake.URL
			if c.provider == "openai" {
				base = fake.OpenAIURL()
			}
			args := []string{"--game", "link_race", "--players", "2", "--strategies", "llm,random",
				"--llm-provider", c.provider, "--llm-base-url", base}
			if c.fallback {
				args = append(args, "--llm-fallback", "random")
			}
			dir := t.TempDir()
			matches, _ := runLeague(t, dir, args...)
			if len(matches) != 1 {
				t.Fatalf("%d match files, want 1", len(matches))
			}
			m := matches[0]
			status, _ := engine.ModelErrorStatus(c.errorType)
			replies := modelReplies(t, m)
			if len(replies) == 0 {
				t.Fatal("no model reply in the match file")
			}
			first := replies[0]
			if first.Player != "P01" || first.ErrorType != c.errorType || first.Status != status || first.Fallback != c.fallback ||
				first.Metadata["provider"] != c.provider || first.Metadata["step"] != 1.0 || first.Metadata["current_page"] == nil {
				t.Errorf("the model's first reply: %+v", first)
			}
			checkToolCallMetadata(t, c.errorType, first.Metadata)
			checkRaceError(t, m, c.errorType, status, c.fallback)
			checkHistoryError(t, dir, c.errorType, status, c.fallback)
		})
	}
}

// checkToolCallMetadata: a failure of a tool call says so, and names the
// page asked for when it is no link.
func checkToolCallMetadata(t *testing.T, errorType string, meta map[string]any) {
	t.Helper()
	toolCall := slices.Contains([]string{engine.ErrorInvalidTool, engine.ErrorInvalidLink}, errorType)
	if meta["has_tool_call_request"] != toolCall || (toolCall && meta["tool_call"] == nil) ||
		(!toolCall && errorType != engine.ErrorNoToolCall && meta["exception_type"] == nil) {
		t.Errorf("%s metadata %v", errorType, meta)
	}
	if errorType == engine.ErrorInvalidLink && (meta["requested_page"] != fakellm.IllegalPage ||
		meta["is_target_page"] != false || meta["available_links_count"] == nil) {
		t.Errorf("%s metadata %v", errorType, meta)
	}
}

// checkRaceError: the game ended P01's race with the status and recorded
// the error type, unless a fallback answered for the model.
func checkRaceError(t *testing.T, m match, errorType, status string, fallback bool) {
	t.Helper()
	var recorded []string
	for _, e := range m.Result.Errors {
		recorded = append(recorded, e.ErrorType)
	}
	if fallback {
		if slices.Contains(recorded, errorType) || m.Result.PlayerStatuses["P01"] == status && status != engine.RaceError {
			t.Errorf("a fallback race recorded %v, P01 %s", recorded, m.Result.PlayerStatuses["P01"])
		}
		if m.Result.PlayerStatuses["P01"] == engine.RaceError {
			t.Errorf("the fallback's race ended ERROR: %v", m.Result.Errors)
		}
		return
	}
	if m.Result.PlayerStatuses["P01"] != status || len(recorded) != 1 || recorded[0] != errorType || m.Result.Errors[0].Player != "A" {
		t.Errorf("P01 ended %q with errors %+v; want %s, %s", m.Result.PlayerStatuses["P01"], m.Result.Errors, status, errorType)
	}
}

// checkHistoryError: P01's history has the failure, its metadata and
// whether a fallback answered.
func checkHistoryError(t *testing.T, dir, errorType, status string, fallback bool) {
	t.Helper()
	h := readHistory(t, dir, "P01")
	if len(h.Matches) != 1 || h.Matches[0].Model == nil || len(h.Matches[0].Model.Errors) == 0 {
		t.Fatalf("P01's history: %+v", h.Matches)
	}
	e := h.Matches[0].Model.Errors[0]
	if e.ErrorType != errorType || e.Status != status || e.Fallback != fallback || e.Metadata["step"] != 1.0 {
		t.Errorf("P01's history records %+v", e)
	}
	if h.Stats.Model == nil || h.Stats.Model.Failures == 0 || (h.Stats.Model.Fallbacks > 0) != fallback {
		t.Errorf("P01's model stats %+v", h.Stats.Model)
	}
}

// Two model players race each other through a whole link-race league.
func TestLinkRaceLeagueOfModels(t *testing.T) {
	fake := fakellm.Start(fakellm.Good)
	defer fake.Close()
	t.Setenv("ANTHROPIC_API_KEY", testKey)
	dir := t.TempDir()
	matches, _ := runLeague(t, dir, "--game", "link_race", "--players", "3", "--strategies", "llm,llm,greedy",
		"--llm-provider", "anthropic", "--llm-base-url", fake.URL)
	if len(matches) != 3 {
		t.Fatalf("%d match files, want 3", len(matches))
	}
	moves := 0
	for _, m := range matches {
		for _, r := range modelReplies(t, m) {
			moves++
			if r.ErrorType != "" || r.Provider != "anthropic" || r.InputTokens != fakellm.InputTokens {
				t.Errorf("%s: model reply %+v", m.MatchID, r)
			}
		}
		if len(m.Result.Errors) != 0 {
			t.Errorf("%s: errors %+v", m.MatchID, m.Result.Errors)
		}
	}
	requests := fake.Requests()
	if moves == 0 || len(requests) != moves {
		t.Errorf("%d model moves in the match files, %d requests", moves, len(requests))
	}
	for _, r := range requests {
		if r.API != "anthropic" || r.Tool != engine.NavigateMove || r.Key != testKey {
			t.Errorf("the provider got %+v", r)
		}
	}
}
