package protocol

import (
	"bytes"

	"github.com/leaguetui/leaguetui/agents/protocol/internal/wirejson"
)

// A match's result reaches the manager as a MATCH_RESULT_REPORT, which
// Decode once read by filling in the envelope's aliases and then through
// encoding/json's reflection: the manager's largest decode, once a match.
// reportShape reads it in one walk, as onepass.go reads a player's
// messages, and leaves to the general path anything it could read
// otherwise (FuzzReportOnePass holds the two to the same values).
var (
	reportShape = wirejson.Shape[MatchResultReport]{
		Fields: append(envelopeFields(func(m *MatchResultReport) *Envelope { return &m.Envelope }),
			stringField("game_type", func(m *MatchResultReport) *string { return &m.GameType }),
			// encoding/json hands the value, null included, to ReportResult's own UnmarshalJSON.
			wirejson.Field[MatchResultReport]{Name: "result", Read: func(m *MatchResultReport, raw []byte) bool {
				return m.Result.UnmarshalJSON(raw) == nil
			}},
			wirejson.Field[MatchResultReport]{Name: "match_steps", Read: func(m *MatchResultReport, raw []byte) bool {
				return readSteps(raw, &m.Steps, m.MatchID)
			}}),
		Aliases: envelopeAliases.spellings,
	}
	stepShape = wirejson.Shape[stepRead]{
		Fields: []wirejson.Field[stepRead]{
			{Name: "round_id", Read: func(s *stepRead, raw []byte) bool { return s.RoundID.UnmarshalJSON(raw) == nil }},
			{Name: "match_id", Read: func(s *stepRead, raw []byte) bool { s.matchID = raw; return true }},
			stringField("step", func(s *stepRead) *string { return &s.Step }),
			stringField("detail", func(s *stepRead) *string { return &s.Detail }),
		},
	}
)

// stepRead is a step being read, and its match_id as sent: it is read
// once the step is (see readSteps), as the report's own match id when it
// is the same, which it is in every step leaguetui's referees send.
type stepRead struct {
	StepEntry
	matchID []byte
}

// readAsSame reads a string as wirejson.ReadString does, giving same
// itself rather than a copy when raw is same, plainly written.
func readAsSame(raw []byte, same string, dst *string) bool {
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' {
		if inner := raw[1 : n-1]; string(inner) == same && wirejson.PlainASCII(inner) {
			*dst = same
			return true
		}
	}
	return readKnownString(raw, dst)
}

// readSteps reads match_steps as encoding/json reads it into a nil slice:
// null leaves it nil, an array of objects fills a new slice (empty for
// []). Any other element is left to encoding/json. A step's match id
// that is matchID (the report's, when read before its steps) is that
// string, not a copy.
func readSteps(raw []byte, steps *[]StepEntry, matchID string) bool {
	if string(raw) == "null" {
		return true
	}
	elements, ok := arrayElements(raw)
	if !ok {
		return false
	}
	out := make([]StepEntry, len(elements))
	for i, element := range elements {
		var step stepRead
		if element[0] != '{' || !wirejson.ReadObject(element, &step, &stepShape) {
			return false
		}
		if step.matchID != nil && !readAsSame(step.matchID, matchID, &step.MatchID) {
			return false
		}
		out[i] = step.StepEntry
	}
	*steps = out
	return true
}

// arrayElements splits raw, a JSON value ScanObject has already walked,
// into its elements when it is an array, and is false otherwise.
func arrayElements(raw []byte) (elements [][]byte, ok bool) {
	if len(raw) == 0 || raw[0] != '[' {
		return nil, false
	}
	rest := trimSpace(raw[1:])
	if len(rest) > 0 && rest[0] == ']' {
		return nil, len(trimSpace(rest[1:])) == 0
	}
	for {
		s := wirejson.NewScanner(rest)
		element, ok := s.RawValue()
		if !ok || len(element) == 0 {
			return nil, false
		}
		elements = append(elements, element)
		// element is rest's, past any white space before it: cap tells where it starts.
		rest = trimSpace(rest[cap(rest)-cap(element)+len(element):])
		switch {
		case len(rest) > 0 && rest[0] == ',':
			rest = rest[1:]
		case len(rest) > 0 && rest[0] == ']':
			return elements, len(trimSpace(rest[1:])) == 0
		default:
			return nil, false
		}
	}
}

func trimSpace(b []byte) []byte { return bytes.TrimLeft(b, " \t\r\n") }
