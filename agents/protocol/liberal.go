package protocol

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/segmentio/encoding/json"

	"github.com/leaguetui/leaguetui/agents/protocol/internal/wirejson"
)

// Liberal decoding: other implementations spell fields differently
// (protocol.md §8 and §9). Each table maps the canonical key to the spellings
// we also accept; the first one present wins when the canonical key is absent.
var (
	envelopeAliases = aliases(map[string][]string{
		"match_id":     {"game_id", "matchId"},
		"round_id":     {"round", "roundId"},
		"auth_token":   {"token", "authToken"},
		"message_type": {"messageType", "type"},
	})
	agentMetaAliases = aliases(map[string][]string{
		"game_types":       {"supported_games", "games"},
		"contact_endpoint": {"endpoint", "contact_url", "url"},
		"display_name":     {"name"},
		"join_code":        {"joinCode"},
	})
	announcedMatchAliases = aliases(map[string][]string{
		"player_A_id":       {"player_a_id", "player_A", "player_a", "player1_id"},
		"player_B_id":       {"player_b_id", "player_B", "player_b", "player2_id"},
		"player_A_endpoint": {"player_a_endpoint"},
		"player_B_endpoint": {"player_b_endpoint"},
		"game_type":         {"game"},
	})
	joinAckAliases     = aliases(map[string][]string{"accept": {"accepted"}})
	choiceAliases      = aliases(map[string][]string{"parity_choice": {"choice", "parity", "move"}})
	gameResultAliases  = aliases(map[string][]string{"winner_player_id": {"winner", "winner_id"}})
	reportResultAlias  = aliases(map[string][]string{"winner": {"winner_id", "winner_player_id"}})
	registerRespAlias  = aliases(map[string][]string{"auth_token": {"token"}})
	invitationAliases  = aliases(map[string][]string{"role_in_match": {"role"}, "opponent_id": {"opponent"}})
	leagueQueryAliases = aliases(map[string][]string{"query_params": {"params"}})
)

// aliasTable maps canonical keys to the other spellings of one message part.
type aliasTable struct {
	spellings map[string][]string // canonical key → other spellings, the first present wins
	quoted    [][]byte            // every other spelling in quotes, as it appears as a JSON key
}

func aliases(spellings map[string][]string) *aliasTable {
	t := &aliasTable{spellings: spellings}
	for _, list := range spellings {
		for _, s := range list {
			t.quoted = append(t.quoted, []byte(`"`+s+`"`))
		}
	}
	return t
}

// canonical returns data with every canonical key of tables filled in from
// its first present alias. Most messages (all of leaguetui's own) use no
// alias at all: when none can be in data, data is returned as it is,
// without decoding it a first time only to find nothing to change.
func canonical(data []byte, tables ...*aliasTable) ([]byte, error) {
	if isObject(data) && !mayHoldAlias(data, tables) {
		return data, nil
	}
	out, _, err := withAliases(data, tables...)
	return out, err
}

func isObject(data []byte) bool {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	return len(trimmed) > 0 && trimmed[0] == '{'
}

// mayHoldAlias looks for an alias spelling in quotes anywhere in data. A
// backslash could hide a key behind escapes, so it counts as a maybe.
func mayHoldAlias(data []byte, tables []*aliasTable) bool {
	if bytes.IndexByte(data, '\\') >= 0 {
		return true
	}
	for _, t := range tables {
		for _, q := range t.quoted {
			if bytes.Contains(data, q) {
				return true
			}
		}
	}
	return false
}

// withAliases returns data with every canonical key of tables filled in from
// its first present alias, and data's fields.
func withAliases(data []byte, tables ...*aliasTable) ([]byte, map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := Unmarshal(data, &fields); err != nil {
		return nil, nil, err
	}
	if fields == nil {
		return nil, nil, fmt.Errorf("expected a JSON object, got %s", truncate(data))
	}
	changed := false
	for _, table := range tables {
		for key, spellings := range table.spellings {
			if _, ok := fields[key]; ok {
				continue
			}
			for _, s := range spellings {
				if v, ok := fields[s]; ok {
					fields[key] = v
					changed = true
					break
				}
			}
		}
	}
	if !changed {
		return data, fields, nil
	}
	out, err := json.Marshal(fields)
	return out, fields, err
}

func truncate(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// Decode reads a league message body into msg, accepting the field spellings
// of other implementations. It is the one entry point for inbound messages.
func Decode(data []byte, msg Message) error {
	switch msg := msg.(type) {
	case *MoveAnswer:
		return decodeChoice(data, msg)
	case *GameJoinAck:
		return msg.UnmarshalJSON(data) // it fills in the envelope's aliases and its own, once
	}
	normalized, err := canonical(data, aliasTablesOf(msg)...)
	if err != nil {
		return err
	}
	return Unmarshal(normalized, msg)
}

// aliasTablesOf are the other spellings Decode fills in for msg.
func aliasTablesOf(msg Message) []*aliasTable {
	switch msg.(type) {
	case *GameJoinAck:
		return nil // its UnmarshalJSON fills in its aliases
	case *RegisterResponse:
		return []*aliasTable{envelopeAliases, registerRespAlias}
	case *GameInvitation:
		return []*aliasTable{envelopeAliases, invitationAliases}
	case *LeagueQuery:
		return []*aliasTable{envelopeAliases, leagueQueryAliases}
	case *StartMatch:
		return []*aliasTable{envelopeAliases, announcedMatchAliases}
	}
	return []*aliasTable{envelopeAliases}
}

// decodeChoice also reads the generic GAME_MOVE_RESPONSE form
// {"move_data":{"choice":…}}. A parity choice is normalized (case and
// spaces); a generic move only loses surrounding spaces, since a game's
// moves may be case-sensitive (page titles).
func decodeChoice(data []byte, resp *MoveAnswer) error {
	normalized, err := canonical(data, envelopeAliases, choiceAliases)
	if err != nil {
		return err
	}
	type plain MoveAnswer
	if err := Unmarshal(normalized, (*plain)(resp)); err != nil {
		return err
	}
	if resp.Choice != "" {
		resp.Choice = strings.ToLower(strings.TrimSpace(resp.Choice))
		return nil
	}
	var generic struct {
		MoveData *MoveData `json:"move_data"`
	}
	if Unmarshal(data, &generic) == nil && generic.MoveData != nil {
		resp.HasMoveData, resp.MoveType = true, generic.MoveData.MoveType
		resp.Choice = strings.TrimSpace(generic.MoveData.Choice)
	}
	return nil
}

// UnmarshalJSON accepts supported_games for game_types and the other
// spellings of agentMetaAliases.
func (m *AgentMeta) UnmarshalJSON(data []byte) error {
	normalized, err := canonical(data, agentMetaAliases)
	if err != nil {
		return err
	}
	type plain AgentMeta
	return Unmarshal(normalized, (*plain)(m))
}

// UnmarshalJSON accepts the player_a_id family of spellings.
func (m *AnnouncedMatch) UnmarshalJSON(data []byte) error {
	normalized, err := canonical(data, announcedMatchAliases)
	if err != nil {
		return err
	}
	type plain AnnouncedMatch
	return Unmarshal(normalized, (*plain)(m))
}

// UnmarshalJSON treats a missing accept as true, as the volo10 referee does:
// a player that answered at all has joined.
func (a *GameJoinAck) UnmarshalJSON(data []byte) error {
	normalized, err := canonical(data, envelopeAliases, joinAckAliases)
	if err != nil {
		return err
	}
	type plain GameJoinAck
	p := plain{Accept: true}
	if err := Unmarshal(normalized, &p); err != nil {
		return err
	}
	*a = GameJoinAck(p)
	return nil
}

var gameResultKeys = []string{"status", "winner_player_id", "choices", "reason"}

// MarshalJSON writes the game's details flat beside the common fields:
// by hand where it can (appendGameResult), else through wirejson.Flatten.
func (r GameResult) MarshalJSON() ([]byte, error) {
	if out, ok := appendGameResult(nil, &r); ok {
		return out, nil
	}
	return r.flatten()
}

// flatten is MarshalJSON through wirejson.Flatten, as it always was: the
// bytes appendGameResult must give.
func (r GameResult) flatten() ([]byte, error) {
	type plain GameResult
	return wirejson.Flatten(plain(r), r.Details)
}

// UnmarshalJSON keeps every field it does not know as a game detail.
func (r *GameResult) UnmarshalJSON(data []byte) error {
	if wirejson.ReadObject(data, r, &gameResultShape) {
		r.WinnerPlayerID = winnerOrNil(r.WinnerPlayerID)
		return nil
	}
	return r.decodeThroughMap(data)
}

// decodeThroughMap is UnmarshalJSON for what wirejson.ReadObject leaves.
func (r *GameResult) decodeThroughMap(data []byte) error {
	normalized, fields, err := withAliases(data, gameResultAliases)
	if err != nil {
		return err
	}
	type plain GameResult
	if err := Unmarshal(normalized, (*plain)(r)); err != nil {
		return err
	}
	r.Details = extras(fields, append(gameResultKeys, "winner", "winner_id"))
	r.WinnerPlayerID = winnerOrNil(r.WinnerPlayerID)
	return nil
}

var reportDetailKeys = []string{"choices", "technical_loss", "reason", "offending_player", "offending_players"}

// MarshalJSON writes the game's facts flat beside the common details: by
// hand where it can (appendReportDetails), else through wirejson.Flatten.
func (d ReportDetails) MarshalJSON() ([]byte, error) {
	if out, ok := appendReportDetails(nil, &d); ok {
		return out, nil
	}
	return d.flatten()
}

// flatten is MarshalJSON through wirejson.Flatten, as it always was: the
// bytes appendReportDetails must give.
func (d ReportDetails) flatten() ([]byte, error) {
	type plain ReportDetails
	return wirejson.Flatten(plain(d), d.Game)
}

// UnmarshalJSON keeps every field it does not know as a game fact.
func (d *ReportDetails) UnmarshalJSON(data []byte) error {
	if wirejson.ReadObject(data, d, &reportDetailShape) {
		return nil
	}
	return d.decodeThroughMap(data)
}

// decodeThroughMap is UnmarshalJSON for what wirejson.ReadObject leaves.
func (d *ReportDetails) decodeThroughMap(data []byte) error {
	var fields map[string]json.RawMessage
	if err := Unmarshal(data, &fields); err != nil {
		return err
	}
	type plain ReportDetails
	if err := Unmarshal(data, (*plain)(d)); err != nil {
		return err
	}
	d.Game = extras(fields, reportDetailKeys)
	return nil
}

// UnmarshalJSON accepts winner_id for winner and the string "DRAW" as no winner.
func (r *ReportResult) UnmarshalJSON(data []byte) error {
	if wirejson.ReadObject(data, r, &reportResultShape) {
		r.Winner = winnerOrNil(r.Winner)
		return nil
	}
	return r.decodeThroughMap(data)
}

// decodeThroughMap is UnmarshalJSON for what wirejson.ReadObject leaves.
func (r *ReportResult) decodeThroughMap(data []byte) error {
	normalized, err := canonical(data, reportResultAlias)
	if err != nil {
		return err
	}
	type plain ReportResult
	if err := Unmarshal(normalized, (*plain)(r)); err != nil {
		return err
	}
	r.Winner = winnerOrNil(r.Winner)
	return nil
}

// winnerOrNil reads "DRAW" and "" as no winner: the SPEC's PlayerState
// sample spells a draw that way.
func winnerOrNil(winner *string) *string {
	if winner != nil && (strings.EqualFold(*winner, "DRAW") || *winner == "") {
		return nil
	}
	return winner
}

// extras decodes the fields not named in known.
func extras(fields map[string]json.RawMessage, known []string) map[string]any {
	out := map[string]any{}
	for k, raw := range fields {
		if contains(known, k) {
			continue
		}
		var v any
		if Unmarshal(raw, &v) == nil {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A result in one pass. GAME_OVER's GameResult and MATCH_RESULT_REPORT's
// ReportResult and ReportDetails were each decoded twice: into a map of
// raw fields, for the aliases and for the game's facts that lie flat beside
// the fields, then into the struct (through encoding/json, for their maps
// of strings). wirejson.ReadObject reads one in a single walk of its
// object, in the shape each is given here, and leaves to decodeThroughMap
// what it could read otherwise than the map (FuzzResultOnePass holds the
// two to the same values).
var (
	gameResultShape = wirejson.Shape[GameResult]{
		Fields: []wirejson.Field[GameResult]{
			{Name: "status", Read: func(r *GameResult, raw []byte) bool { return readKnownString(raw, &r.Status) }},
			{Name: "winner_player_id", Read: func(r *GameResult, raw []byte) bool { return wirejson.ReadOptional(raw, &r.WinnerPlayerID) }},
			{Name: "choices", Read: func(r *GameResult, raw []byte) bool { return wirejson.ReadMap(raw, &r.Choices, readKnownString) }},
			{Name: "reason", Read: func(r *GameResult, raw []byte) bool { return wirejson.ReadString(raw, &r.Reason) }},
		},
		Aliases: gameResultAliases.spellings,
		Facts:   func(r *GameResult) *map[string]any { return &r.Details },
	}
	reportDetailShape = wirejson.Shape[ReportDetails]{
		Fields: []wirejson.Field[ReportDetails]{
			{Name: "choices", Read: func(d *ReportDetails, raw []byte) bool { return wirejson.ReadMap(raw, &d.Choices, readKnownString) }},
			{Name: "technical_loss", Read: func(d *ReportDetails, raw []byte) bool { return wirejson.ReadBool(raw, &d.TechnicalLoss) }},
			{Name: "reason", Read: func(d *ReportDetails, raw []byte) bool { return wirejson.ReadString(raw, &d.Reason) }},
			{Name: "offending_player", Read: func(d *ReportDetails, raw []byte) bool { return wirejson.ReadString(raw, &d.OffendingPlayer) }},
			{Name: "offending_players", Read: func(d *ReportDetails, raw []byte) bool { return Unmarshal(raw, &d.Offenders) == nil }},
		},
		Facts: func(d *ReportDetails) *map[string]any { return &d.Game },
	}
	reportResultShape = wirejson.Shape[ReportResult]{
		Fields: []wirejson.Field[ReportResult]{
			{Name: "winner", Read: func(r *ReportResult, raw []byte) bool { return wirejson.ReadOptional(raw, &r.Winner) }},
			{Name: "score", Read: func(r *ReportResult, raw []byte) bool { return wirejson.ReadMap(raw, &r.Score, wirejson.ReadInt) }},
			{Name: "details", Read: func(r *ReportResult, raw []byte) bool {
				return wirejson.ReadObject(raw, &r.Details, &reportDetailShape)
			}},
			{Name: "status", Read: func(r *ReportResult, raw []byte) bool { return readKnownString(raw, &r.Status) }},
		},
		Aliases: reportResultAlias.spellings,
	}
)
