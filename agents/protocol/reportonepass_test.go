package protocol

import (
	"encoding/json"
	"slices"
	"testing"
)

// reportSamples are MATCH_RESULT_REPORTs in other spellings and forms, and
// bodies that must leave the one pass, for FuzzReportOnePass's seeds.
var reportSamples = []string{
	`{"match_id":"R1M1","result":{"winner":"P01","status":"WIN"},"match_steps":[{"round_id":1,"match_id":"R1M1","step":"s"}]}`,
	`{"game_id":"R1M1","round":"2","token":"t","result":null,"match_steps":null}`,
	`{"match_steps":[]}`, `{"match_steps":[ ]}`, `{"match_steps":[ {"step":"a"} , {"step":"b","detail":"d"} ]}`,
	`{"match_steps":[null]}`, `{"match_steps":[1]}`, `{"match_steps":{}}`, `{"match_steps":"x"}`,
	`{"match_steps":[{"round_id":"3","STEP":"a"}]}`, `{"match_steps":[{"round_id":null,"extra":[1,{"a":2}]}]}`,
	`{"match_steps":[{"step":"a","step":"b"}]}`, `{"match_steps":[{"step":7}]}`, `{"match_steps":[{"round_id":7.5}]}`,
	`{"match_steps":[{"step":"a"}],"match_steps":[{"step":"b"}]}`, `{"Match_Steps":[{"step":"a"}]}`,
	`{"result":{"winner_id":"P02","score":{"P01":1}},"result":{"status":"DRAW"}}`, `{"Result":{"status":"WIN"}}`,
	`{"result":{"details":{"choices":{"P01":"even"},"drawn_number":8,"technical_loss":true}}}`, `{"result":[]}`,
	`{"game_type":"even_odd","game_type":"x"}`, `{"game_type":null,"sender":"referee:REF01"}`,
}

// FuzzReportOnePass: Decode reads a MATCH_RESULT_REPORT from any body to
// the same value and error as its general path (decodeGeneral: aliases
// filled in, then encoding/json), which is how it read it before it read
// it in one pass.
func FuzzReportOnePass(f *testing.F) {
	wire, _ := json.Marshal(matchMessages()["report"])
	f.Add(wire)
	for _, body := range slices.Concat(reportSamples, resultSamples, hostileSamples, onePassSamples) {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkDecodedAlike(t, "Decode", body, &MatchResultReport{}, Decode, decodeGeneral)
	})
}

// TestReportOnePassTaken: leaguetui's own report, with its steps and
// without, is read in one pass, not left to the general path.
func TestReportOnePassTaken(t *testing.T) {
	report := *matchMessages()["report"].(*MatchResultReport)
	noSteps := report
	noSteps.Steps = nil
	for _, msg := range []*MatchResultReport{&report, &noSteps} {
		wire, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		if !decodeOnePass(wire, &MatchResultReport{}) {
			t.Errorf("the report is left to the general path: %s", wire)
		}
		checkDecodedAlike(t, "Decode", wire, &MatchResultReport{}, Decode, decodeGeneral)
	}
}
