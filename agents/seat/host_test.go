package seat

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startHost starts a host of two seats whose manager is nowhere: what a
// client can do before any seat is taken.
func startHost(t testing.TB) *Host {
	t.Helper()
	h, err := New(Options{Config: config.Default(), DataDir: t.TempDir(), ManagerURL: "http://127.0.0.1:1/mcp",
		Seats: []store.SeatCode{{Name: "seat-1", JoinCode: "join-one"}, {Name: "seat-2", JoinCode: "join-two"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.Shutdown(ctx)
	})
	return h
}

func session(ctx context.Context, t testing.TB, url string) *mcp.ClientSession {
	t.Helper()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestToolsTellAModelHowToPlay(t *testing.T) {
	h := startHost(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := session(ctx, t, h.URL())
	if !strings.Contains(s.InitializeResult().Instructions, "wait_for_turn") {
		t.Errorf("the instructions do not give the loop: %q", s.InitializeResult().Instructions)
	}
	list, err := s.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	required := map[string][]string{"take_seat": {"join_code"}, "submit_move": {"match_id", "move"}, "wait_for_turn": nil, "get_standings": nil}
	for _, tool := range list.Tools {
		want, ok := required[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		delete(required, tool.Name)
		schema, _ := json.Marshal(tool.InputSchema)
		var in struct {
			Type     string   `json:"type"`
			Required []string `json:"required"`
		}
		_ = json.Unmarshal(schema, &in)
		slices.Sort(in.Required)
		if tool.Description == "" || in.Type != "object" || !slices.Equal(in.Required, want) || tool.OutputSchema == nil {
			t.Errorf("%s: description %q, input schema %s, output schema %v", tool.Name, tool.Description, schema, tool.OutputSchema)
		}
	}
	if len(required) > 0 {
		t.Errorf("missing tools: %v", required)
	}
}

func TestNoSeatNoPlay(t *testing.T) {
	h := startHost(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := session(ctx, t, h.URL())
	for _, call := range []mcp.CallToolParams{
		{Name: "take_seat", Arguments: map[string]any{"join_code": "join-on"}},
		{Name: "take_seat", Arguments: map[string]any{"join_code": "join-one-more"}},
		{Name: "wait_for_turn", Arguments: map[string]any{"timeout_seconds": 1}},
		{Name: "submit_move", Arguments: map[string]any{"match_id": "R1M1", "move": "even"}},
		{Name: "get_standings", Arguments: map[string]any{}},
	} {
		res, err := s.CallTool(ctx, &call)
		if err != nil {
			t.Fatalf("%s: %v", call.Name, err)
		}
		if !res.IsError {
			t.Errorf("%s %v: answered without a seat", call.Name, call.Arguments)
		}
	}
}
