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
				return readSteps(raw, &m.Steps)
			}}),
		Aliases: envelopeAliases.spellings,
	}
	stepShape = wirejson.Shape[StepEntry]{
		Fields: []wirejson.Field[StepEntry]{
			{Name: "round_id", Read: func(s *StepEntry, raw []byte) bool { return s.RoundID.UnmarshalJSON(raw) == nil }},
			stringField("match_id", func(s *StepEntry) *string { return &s.MatchID }),
			stringField("step", func(s *StepEntry) *string { return &s.Step }),
			stringField("detail", func(s *StepEntry) *string { return &s.Detail }),
		},
	}
)

// readSteps reads match_steps as encoding/json reads it into a nil slice:
// null leaves it nil, an array of objects fills a new slice (empty for
// []). Any other element is left to encoding/json.
func readSteps(raw []byte, steps *[]StepEntry) bool {
	if string(raw) == "null" {
		return true
	}
	elements, ok := arrayElements(raw)
	if !ok {
		return false
	}
	out := make([]StepEntry, len(elements))
	for i, element := range elements {
		if element[0] != '{' || !wirejson.ReadObject(element, &out[i], &stepShape) {
			return false
		}
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
