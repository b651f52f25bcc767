package noui

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/engine"
)

// The --json output: one JSON object a line on stdout, an event of the
// league's feed each (in journal order), then the final standings. Field
// names are snake_case and kept stable for scripts; docs/running.md lists them.
// Fields that do not apply to an event's kind are left out.

// JSONEvent is one feed event as --json prints it.
type JSONEvent struct {
	Seq     int64       `json:"seq"`
	Time    time.Time   `json:"time"`
	Kind    string      `json:"kind"`
	Round   int         `json:"round,omitempty"`
	MatchID string      `json:"match_id,omitempty"`
	Referee string      `json:"referee,omitempty"`
	Step    string      `json:"step,omitempty"`
	AgentID string      `json:"agent_id,omitempty"`
	Detail  string      `json:"detail,omitempty"`
	Agent   *JSONAgent  `json:"agent,omitempty"`
	Start   *JSONStart  `json:"start,omitempty"`
	Result  *JSONResult `json:"result,omitempty"`
	// Schedule is the round a round_scheduled event adds (Swiss).
	Schedule *JSONRound `json:"schedule,omitempty"`
}

// JSONAgent is a registered agent (agent_registered). No token, nor its
// hash, is ever printed.
type JSONAgent struct {
	ID          string      `json:"id"`
	Role        engine.Role `json:"role"`
	DisplayName string      `json:"display_name"`
	Endpoint    string      `json:"endpoint"`
}

// JSONStart is what a started league plays (league_started).
type JSONStart struct {
	Seed     int64       `json:"seed"`
	GameType string      `json:"game_type"`
	Players  []string    `json:"players"`
	Rounds   []JSONRound `json:"rounds"`
}

// JSONRound is one round of the schedule.
type JSONRound struct {
	Round   int         `json:"round"`
	Matches []JSONMatch `json:"matches"`
}

// JSONMatch is one scheduled match.
type JSONMatch struct {
	MatchID string `json:"match_id"`
	PlayerA string `json:"player_a"`
	PlayerB string `json:"player_b"`
}

// JSONResult is a match's result (match_result): status WIN, DRAW or
// TECHNICAL_LOSS; winner "" for a draw or a double technical loss.
type JSONResult struct {
	MatchID   string   `json:"match_id"`
	Round     int      `json:"round"`
	PlayerA   string   `json:"player_a"`
	PlayerB   string   `json:"player_b"`
	Status    string   `json:"status"`
	Winner    string   `json:"winner"`
	Offenders []string `json:"offenders,omitempty"`
}

// JSONStandings is the last line: the manager's standings file as it
// serves it, so whatever it holds reaches the script.
type JSONStandings struct {
	Kind      string                 `json:"kind"` // "standings"
	Standings protocol.StandingsFile `json:"standings"`
	// ModelCosts is each model player's cost (tokens, latency, failures),
	// by player id; absent without model players.
	ModelCosts map[string]*protocol.ModelCost `json:"model_costs,omitempty"`
	// ModelSpendUSD is the priced model players' money together, an
	// estimate; absent when none has a price.
	ModelSpendUSD *float64 `json:"model_spend_usd,omitempty"`
}

// KindStandings is the kind of the last line of --json.
const KindStandings = "standings"

// jsonEvent converts a feed event for --json.
func jsonEvent(ev engine.Event) JSONEvent {
	out := JSONEvent{Seq: ev.Seq, Time: ev.Time, Kind: string(ev.Kind), Round: ev.Round, MatchID: ev.MatchID,
		Referee: ev.Referee, Step: ev.Step, AgentID: ev.AgentID, Detail: ev.Detail}
	if a := ev.Agent; a != nil {
		out.Agent = &JSONAgent{ID: a.ID, Role: a.Role, DisplayName: a.DisplayName, Endpoint: a.Endpoint}
	}
	if s := ev.Start; s != nil {
		rounds, _ := s.Schedule() // the league that applied the event checked that it can be made
		out.Start = &JSONStart{Seed: s.Seed, GameType: s.GameType, Players: s.Players, Rounds: make([]JSONRound, len(rounds))}
		for i, r := range rounds {
			out.Start.Rounds[i] = jsonRound(r)
		}
	}
	if r := ev.Schedule; r != nil {
		round := jsonRound(*r)
		out.Schedule = &round
	}
	if r := ev.Result; r != nil {
		out.Result = &JSONResult{MatchID: r.MatchID, Round: r.Round, PlayerA: r.PlayerA, PlayerB: r.PlayerB,
			Status: string(r.Status), Winner: r.Winner, Offenders: r.Offenders}
	}
	return out
}

func jsonRound(r engine.Round) JSONRound {
	round := JSONRound{Round: r.Number, Matches: make([]JSONMatch, len(r.Matches))}
	for j, p := range r.Matches {
		round.Matches[j] = JSONMatch{MatchID: p.MatchID, PlayerA: p.PlayerA, PlayerB: p.PlayerB}
	}
	return round
}

// output is where a run's results go: the progress lines, the events (with
// --json) and the final standings, as --json and --quiet choose.
type output struct {
	progress io.Writer // stderr, or nothing with --quiet
	events   *json.Encoder
	stdout   io.Writer
	json     bool
	order    engine.Tiebreakers // the league file's scoring.tiebreakers, said under the table
}

func newOutput(outs Outputs) *output {
	o := &output{progress: outs.Stderr, stdout: outs.Stdout, json: outs.JSON}
	if outs.Quiet {
		o.progress = io.Discard
	}
	if outs.JSON && !outs.Quiet {
		o.events = json.NewEncoder(outs.Stdout)
	}
	return o
}

// event prints a feed event with --json.
func (o *output) event(ev engine.Event) {
	if o.events != nil {
		_ = o.events.Encode(jsonEvent(ev))
	}
}

// standings prints the final standings: a table, or with --json one line.
func (o *output) standings(s protocol.StandingsFile, costs map[string]*protocol.ModelCost) {
	if o.json {
		spend, _ := protocol.ModelSpend(costs)
		_ = json.NewEncoder(o.stdout).Encode(JSONStandings{Kind: KindStandings, Standings: s, ModelCosts: costs, ModelSpendUSD: spend})
		return
	}
	PrintStandings(o.stdout, s)
	if !o.order.IsDefault() {
		fmt.Fprintf(o.stdout, "\nranked by %s\n", o.order.Legend())
	}
	PrintModelCosts(o.stdout, s, costs)
}
