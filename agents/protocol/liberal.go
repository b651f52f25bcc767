package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
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
	out, err := Marshal(fields)
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
	tables := []*aliasTable{envelopeAliases}
	switch msg := msg.(type) {
	case *GameJoinAck:
		return msg.UnmarshalJSON(data) // it fills in the envelope's aliases and its own, once
	case *RegisterResponse:
		tables = append(tables, registerRespAlias)
	case *GameInvitation:
		tables = append(tables, invitationAliases)
	case *LeagueQuery:
		tables = append(tables, leagueQueryAliases)
	case *StartMatch:
		tables = append(tables, announcedMatchAliases)
	case *MoveAnswer:
		return decodeChoice(data, msg)
	}
	normalized, err := canonical(data, tables...)
	if err != nil {
		return err
	}
	return Unmarshal(normalized, msg)
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

// MarshalJSON writes the game's details flat beside the common fields.
func (r GameResult) MarshalJSON() ([]byte, error) {
	type plain GameResult
	return flatten(plain(r), r.Details)
}

// UnmarshalJSON keeps every field it does not know as a game detail.
func (r *GameResult) UnmarshalJSON(data []byte) error {
	if readResult(data, r, &gameResultShape) {
		r.WinnerPlayerID = winnerOrNil(r.WinnerPlayerID)
		return nil
	}
	return r.decodeThroughMap(data)
}

// decodeThroughMap is UnmarshalJSON for what readResult leaves.
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

// MarshalJSON writes the game's facts flat beside the common details.
func (d ReportDetails) MarshalJSON() ([]byte, error) {
	type plain ReportDetails
	return flatten(plain(d), d.Game)
}

// UnmarshalJSON keeps every field it does not know as a game fact.
func (d *ReportDetails) UnmarshalJSON(data []byte) error {
	if readResult(data, d, &reportDetailShape) {
		return nil
	}
	return d.decodeThroughMap(data)
}

// decodeThroughMap is UnmarshalJSON for what readResult leaves.
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
	if readResult(data, r, &reportResultShape) {
		r.Winner = winnerOrNil(r.Winner)
		return nil
	}
	return r.decodeThroughMap(data)
}

// decodeThroughMap is UnmarshalJSON for what readResult leaves.
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

// flatten marshals v and merges extra's keys into the object, without
// overwriting v's own fields: the bytes json.Marshal makes of the merged
// fields as a map[string]any (flattenThroughMap), spliced from v's members
// and each extra value's encoding where they are the same bytes.
func flatten(v any, extra map[string]any) ([]byte, error) {
	base, err := Marshal(v)
	if err != nil || len(extra) == 0 {
		return base, err
	}
	if !reencodesAsIs(base) {
		return flattenThroughMap(base, extra)
	}
	// Each member as its name, its key as encoded and its value as encoded.
	// A key scanObject takes is plain ASCII without escapes, so its name
	// in quotes is what encoding/json writes of it.
	type member struct {
		name     string
		key, raw []byte
	}
	var members []member
	if !scanObject(base, func(key, raw []byte) bool {
		members = append(members, member{name: string(key), raw: raw})
		return true
	}) {
		return flattenThroughMap(base, extra)
	}
	for i := range members {
		members[i].key = []byte(`"` + members[i].name + `"`)
	}
	for name, val := range extra {
		if slices.ContainsFunc(members, func(m member) bool { return m.name == name }) {
			continue
		}
		key, err := Marshal(name)
		if err != nil {
			return nil, err
		}
		raw, err := Marshal(val)
		if err != nil {
			return nil, err
		}
		members = append(members, member{name, key, raw})
	}
	slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.name, b.name) })
	out := append(make([]byte, 0, 2*len(base)), '{')
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(append(append(out, m.key...), ':'), m.raw...)
	}
	return append(out, '}'), nil
}

// reencodesAsIs reports an encoded object whose values decode into a
// map[string]any and encode again as the same bytes: no number (it would
// come back as a float64) and no invalid UTF-8 (encoded as \ufffd, it
// would come back as the character itself).
func reencodesAsIs(encoded []byte) bool {
	if bytes.Contains(encoded, []byte(`\ufffd`)) {
		return false
	}
	inString := false
	for i := 0; i < len(encoded); i++ {
		switch c := encoded[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && (c == '-' || '0' <= c && c <= '9'):
			return false
		}
	}
	return true
}

// flattenThroughMap merges extra's keys into base, an encoded object,
// through a map[string]any, without overwriting base's own fields.
func flattenThroughMap(base []byte, extra map[string]any) ([]byte, error) {
	var fields map[string]any
	if err := Unmarshal(base, &fields); err != nil {
		return nil, err
	}
	for k, val := range extra {
		if _, taken := fields[k]; !taken {
			fields[k] = val
		}
	}
	return Marshal(fields)
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
// of strings). readResult reads one in a single walk of its object
// (scanObject, which checks that it is valid JSON): each member goes into
// its field, an alias's value into its field when the field is absent,
// and any other member, decoded as encoding/json decodes it into an any,
// among the facts. Where its reading could differ from the map's, it
// leaves the object to decodeThroughMap (FuzzResultOnePass holds the two
// to the same values):
//   - a key that names a field in another case (encoding/json folds case,
//     and the map kept it as a fact too);
//   - a field given twice (encoding/json merges a map given twice; the
//     map, when an alias is filled in, keeps the last);
//   - a value its field does not take as encoding/json would (a number for
//     a string, a float for an int, a string with an escaped key...);
//   - a receiver that already holds something (encoding/json decodes into
//     what is there);
//   - anything scanObject does not walk.

// resultShape is how readResult reads one kind of result.
type resultShape[T any] struct {
	fields  []resultField[T]
	aliases *aliasTable              // other spellings of fields; nil for none
	facts   func(*T) *map[string]any // where the other members go; nil: they are dropped
}

// resultField reads the value of one field's key into a T, as
// encoding/json would, or says it cannot.
type resultField[T any] struct {
	name string // as the field's json tag spells it
	read func(into *T, raw []byte) bool
}

var (
	gameResultShape = resultShape[GameResult]{
		fields: []resultField[GameResult]{
			{"status", func(r *GameResult, raw []byte) bool { return readString(raw, &r.Status) }},
			{"winner_player_id", func(r *GameResult, raw []byte) bool { return readOptional(raw, &r.WinnerPlayerID) }},
			{"choices", func(r *GameResult, raw []byte) bool { return readMap(raw, &r.Choices, readString) }},
			{"reason", func(r *GameResult, raw []byte) bool { return readString(raw, &r.Reason) }},
		},
		aliases: gameResultAliases,
		facts:   func(r *GameResult) *map[string]any { return &r.Details },
	}
	reportDetailShape = resultShape[ReportDetails]{
		fields: []resultField[ReportDetails]{
			{"choices", func(d *ReportDetails, raw []byte) bool { return readMap(raw, &d.Choices, readString) }},
			{"technical_loss", func(d *ReportDetails, raw []byte) bool { return readBool(raw, &d.TechnicalLoss) }},
			{"reason", func(d *ReportDetails, raw []byte) bool { return readString(raw, &d.Reason) }},
			{"offending_player", func(d *ReportDetails, raw []byte) bool { return readString(raw, &d.OffendingPlayer) }},
			{"offending_players", func(d *ReportDetails, raw []byte) bool { return json.Unmarshal(raw, &d.Offenders) == nil }},
		},
		facts: func(d *ReportDetails) *map[string]any { return &d.Game },
	}
	reportResultShape = resultShape[ReportResult]{
		fields: []resultField[ReportResult]{
			{"winner", func(r *ReportResult, raw []byte) bool { return readOptional(raw, &r.Winner) }},
			{"score", func(r *ReportResult, raw []byte) bool { return readMap(raw, &r.Score, readInt) }},
			{"details", func(r *ReportResult, raw []byte) bool { return readResult(raw, &r.Details, &reportDetailShape) }},
			{"status", func(r *ReportResult, raw []byte) bool { return readString(raw, &r.Status) }},
		},
		aliases: reportResultAlias,
	}
)

// readResult decodes data into *into in one pass, as its decodeThroughMap
// would, and is true; or it is false and leaves *into as it was.
func readResult[T any](data []byte, into *T, shape *resultShape[T]) bool {
	if !reflect.ValueOf(into).Elem().IsZero() {
		return false
	}
	var got T
	var present uint64 // bit i: fields[i] is in data
	var spelled []aliasValue
	ok := scanObject(data, func(key, raw []byte) bool {
		for i, f := range shape.fields {
			switch {
			case string(key) == f.name:
				if present&(1<<i) != 0 {
					return false
				}
				present |= 1 << i
				return f.read(&got, raw)
			case bytes.EqualFold(key, []byte(f.name)):
				return false
			}
		}
		if shape.aliases != nil && shape.aliases.spells(key) {
			spelled = append(spelled, aliasValue{string(key), raw}) // the last of a repeated one wins, as in the map
			return true
		}
		if shape.facts == nil {
			return true
		}
		return readFact(shape.facts(&got), key, raw)
	})
	if !ok {
		return false
	}
	for i, f := range shape.fields {
		if present&(1<<i) != 0 || shape.aliases == nil {
			continue
		}
		if raw := firstSpelled(shape.aliases.spellings[f.name], spelled); raw != nil && !f.read(&got, raw) {
			return false
		}
	}
	*into = got
	return true
}

// aliasValue is the value under another spelling of a field.
type aliasValue struct {
	key string
	raw []byte
}

// spells reports key as one of the table's other spellings.
func (t *aliasTable) spells(key []byte) bool {
	for _, list := range t.spellings {
		if slices.Contains(list, string(key)) {
			return true
		}
	}
	return false
}

// firstSpelled is the value of the first of spellings that was present,
// the last one given of it; nil if none was.
func firstSpelled(spellings []string, spelled []aliasValue) []byte {
	for _, s := range spellings {
		var raw []byte
		for _, v := range spelled {
			if v.key == s {
				raw = v.raw
			}
		}
		if raw != nil {
			return raw
		}
	}
	return nil
}

// readFact puts a member that is no field among the facts, decoded as
// encoding/json decodes it into an any; the last of a repeated key wins.
func readFact(facts *map[string]any, key, raw []byte) bool {
	var v any
	switch raw[0] {
	case '"':
		var s string
		if !readString(raw, &s) {
			return false
		}
		v = s
	case 't', 'f':
		v = raw[0] == 't'
	case 'n':
		v = nil
	case '{', '[':
		if json.Unmarshal(raw, &v) != nil { // the map's decoding of a fact went to encoding/json too
			return false
		}
	default:
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return false // out of range: the map dropped it, silently
		}
		v = f
	}
	if *facts == nil {
		*facts = make(map[string]any, 2)
	}
	(*facts)[string(key)] = v
	return true
}

// readOptional decodes a JSON string into a new *string, null into nil.
func readOptional(raw []byte, dst **string) bool {
	if string(raw) == "null" {
		*dst = nil
		return true
	}
	var s string
	if raw[0] != '"' || !readString(raw, &s) {
		return false
	}
	*dst = &s
	return true
}

func readBool(raw []byte, dst *bool) bool {
	switch string(raw) {
	case "true", "false":
		*dst = raw[0] == 't'
	case "null": // leaves it, as encoding/json does
	default:
		return false
	}
	return true
}

// readInt reads an integer as encoding/json reads it into an int (a
// float such as 3.0 is an error there); null leaves dst.
func readInt(raw []byte, dst *int) bool {
	if string(raw) == "null" {
		return true
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil {
		return false
	}
	*dst = n
	return true
}

// readMap decodes an object into a new map, each value with read, or null
// into nil. A null value is the zero value, as encoding/json makes it.
func readMap[V any](raw []byte, dst *map[string]V, read func([]byte, *V) bool) bool {
	if string(raw) == "null" {
		*dst = nil
		return true
	}
	if raw[0] != '{' {
		return false
	}
	m := make(map[string]V, 2)
	*dst = m
	return scanObject(raw, func(key, value []byte) bool {
		var v V
		if !read(value, &v) {
			return false
		}
		m[string(key)] = v
		return true
	})
}
