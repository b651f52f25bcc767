package protocol

import (
	"encoding/json"
	"strings"
	"testing"
)

// headSamples are bodies whose head scanHead must read exactly as
// encoding/json does, or leave to it.
var headSamples = []string{
	`{}`, ` { } `, `[]`, `"x"`, `null`, `7`, ``, `{`, `{"message_type":"GAME_INVITATION"}`,
	`{"message_type":"GAME_INVITATION","conversation_id":"c1","protocol":"league.v2","type":"x"}`,
	`{"MESSAGE_TYPE":"game_over","Conversation_ID":"c2"}`,
	`{"message_type":"A","MESSAGE_TYPE":"B"}`,
	`{"message_type":"A","message_type":null}`,
	`{"message_type":5,"conversation_id":"c"}`,
	`{"protocol":{"v":2},"message_type":"A"}`,
	`{"standings":[{"rank":1,"player_id":"P01","points":3.5e2},{"rank":2,"x":[true,false,null,-0.5,"\u00e9\n"]}],"message_type":"LEAGUE_STANDINGS_UPDATE"}`,
	`{"message\u005ftype":"GAME_OVER"}`,
	`{"méssage_type":"GAME_OVER","message_type":"A"}`,
	`{"message_type":"GAME\u005fOVER"}`,
	`{"message_type":"A",}`, `{"message_type":"A"} x`, `{"message_type":"A" "b":1}`,
	`{"a":01,"message_type":"A"}`, `{"a":1.,"message_type":"A"}`, `{"a":tru,"message_type":"A"}`,
	`{"a":"\q","message_type":"A"}`, `{"a":"\u12G4","message_type":"A"}`, "{\"a\":\"\x01\",\"message_type\":\"A\"}",
	"{\"a\":\"\xff\xfe\",\"message_type\":\"A\"}", `{"message_type":"A\"B"}`,
	"{\"message_type\":\"caf\xc3\xa9\",\"conversation_id\":\"\xff\"}", "{\"message_type\":\"A\x7f~ \",\"protocol\":\"\"}",
	`{"a":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `,"message_type":"A"}`,
	`{"a":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `,"message_type":"A"}`,
}

func TestScanHeadReadsAsEncodingJSON(t *testing.T) {
	for _, body := range headSamples {
		if got, want := readHead(json.RawMessage(body)), decodeHead(json.RawMessage(body)); got != want {
			t.Errorf("%.80q: read %+v, encoding/json reads %+v", body, got, want)
		}
	}
	if _, ok := scanHead([]byte(`{"message_type":"A","b":{"c":[1,2,{"d":"e"}]}}`)); !ok {
		t.Error("a plain message should not need encoding/json")
	}
}

// FuzzScanHead: readHead reads what encoding/json reads.
func FuzzScanHead(f *testing.F) {
	for _, body := range headSamples {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if got, want := readHead(body), decodeHead(body); got != want {
			t.Errorf("%q: read %+v, encoding/json reads %+v", body, got, want)
		}
	})
}

// BenchmarkReadHead reads the head of a 64-player standings update, the
// largest message a player acknowledges unread.
func BenchmarkReadHead(b *testing.B) {
	rows := make([]StandingRow, 64)
	for i := range rows {
		rows[i] = StandingRow{Rank: i + 1, PlayerID: "P" + strings.Repeat("0", 3), DisplayName: "player", Points: 3 * i}
	}
	body, _ := json.Marshal(StandingsUpdate{Envelope: NewEnvelope(TypeStandingsUpdate, SenderManager, "conv-1"), Standings: rows})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			readHead(body)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			decodeHead(body)
		}
	})
}

var requestSamples = []string{
	`{"jsonrpc":"2.0","method":"notify_round","params":{"a":[1,2]},"id":1}`,
	`{"JSONRPC":"2.0","Method":"x","ID":"s","Params":null}`,
	`{"jsonrpc":"2.0","method":"x","id":null}`, `{"jsonrpc":2,"method":"x"}`, `{"method":["x"]}`,
	`{"method":"a","method":"b","id":1,"id":2}`, `{"method":"x","params":"p"}`, `{"method":"x\u00e9"}`,
	`{"method":"x","params":{"message_type":"GAME_OVER"},"extra":{"deep":[[[]]]}}`, `{"method":"x",}`,
}

// requestSeeds are requestSamples, then each head sample as the params of
// a plain method and of the wrappers, then a round's broadcasts.
func requestSeeds(tb testing.TB) []string {
	seeds := append([]string(nil), requestSamples...)
	for _, body := range headSamples {
		for _, method := range []string{"notify_round", "GAME_OVER", MethodToolsCall, methodMCPMsg, methodLeague} {
			seeds = append(seeds, `{"jsonrpc":"2.0","method":"`+method+`","params":`+body+`,"id":1}`)
		}
	}
	seeds = append(seeds, `{"method":"GAME_OVER","params":{"message_type":"GAME_OVER"},"Params":{"type":"ROUND_ANNOUNCEMENT"}}`,
		`{"method":"x","params":{"message_type":"GAME_OVER"},"params":null}`, `{"method":"x","params":{"a":1},"params":[]}`,
		`{"method":"x","params":{"message_type":"GAME_OVER","\u0074ype":"x"}}`, `{"params":{"protocol":"v1","type":"GAME_OVER"},"method":"x"}`)
	for _, body := range broadcastBodies(tb) {
		seeds = append(seeds, string(body))
	}
	return append(seeds, headSamples...)
}

// FuzzScanRequest: where scanRequest reads a request, it reads what
// encoding/json reads, and the head of its params it read on the way is
// what encoding/json reads of them; a request routes (Request.Route) as
// routing its params afresh does.
func FuzzScanRequest(f *testing.F) {
	for _, body := range requestSeeds(f) {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkRoutesAsTwoPasses(t, body)
		got, ok := scanRequest(body)
		if !ok {
			return // encoding/json reads it
		}
		var want Request
		if err := json.Unmarshal(body, &want); err != nil {
			t.Fatalf("%q: scanned as %+v, but encoding/json fails: %v", body, got, err)
		}
		if got.JSONRPC != want.JSONRPC || got.Method != want.Method || string(got.Params) != string(want.Params) || string(got.ID) != string(want.ID) {
			t.Errorf("%q: scanned %+v, encoding/json reads %+v", body, got, want)
		}
		if wantHead := decodeHead(want.Params); got.headRead && got.paramsHead != wantHead {
			t.Errorf("%q: read the head of params as %+v, encoding/json reads %+v", body, got.paramsHead, wantHead)
		}
	})
}

// checkRoutesAsTwoPasses: a parsed request routes on the head its parse
// read as it routes when its params are read again.
func checkRoutesAsTwoPasses(t *testing.T, body []byte) {
	req, rpcErr := ParseRequest(body)
	if rpcErr != nil {
		return
	}
	got, gotOK := req.Route()
	want, wantOK := Route(req.Method, req.Params)
	if gotOK != wantOK || got.Method != want.Method || got.MessageType != want.MessageType || string(got.Body) != string(want.Body) ||
		got.ViaTool != want.ViaTool || got.Protocol != want.Protocol || got.ConversationID != want.ConversationID {
		t.Errorf("%q: routed as %+v, %v; read again, as %+v, %v", body, got, gotOK, want, wantOK)
	}
}

// TestRequestHeadReadOnce: the requests a player gets, and their edge
// cases, route on one pass and as a second pass over their params would.
func TestRequestHeadReadOnce(t *testing.T) {
	for name, body := range broadcastBodies(t) {
		if req, ok := scanRequest(body); !ok || !req.headRead || req.paramsHead.MessageType == "" {
			t.Errorf("%s: its head should be read with the request (%v, %+v)", name, ok, req.paramsHead)
		}
	}
	for _, body := range requestSeeds(t) {
		checkRoutesAsTwoPasses(t, []byte(body))
	}
	req, _ := ParseRequest([]byte(`{"method":"x","params":{"message_type":"GAME_OVER"},"PARAMS":{"type":"round_announcement","protocol":"v9"}}`))
	if in, ok := req.Route(); !ok || in.MessageType != TypeRoundAnnouncement || in.Protocol != "v9" {
		t.Errorf("the last params should be the message: %+v", in)
	}
	req, _ = ParseRequest([]byte(`{"method":"x","params":{"message_type":"GAME_OVER","conversation_id":7}}`))
	if in, ok := req.Route(); ok || in.MessageType != "" {
		t.Errorf("a head field that is no string leaves no head: %+v", in)
	}
}

var replySamples = []string{
	`{"jsonrpc":"2.0","result":{"message_type":"GAME_JOIN_ACK","accept":true},"id":1}`,
	`{"jsonrpc":"2.0","result":{"message_type":"LEAGUE_ERROR","error_code":"E004"},"id":1}`,
	`{"jsonrpc":"2.0","error":{"code":-32601,"message":"no"},"id":1}`, `{"error":null,"result":null,"status":"ok"}`,
	`{"status":"ok"}`, `{"message_type":"GAME_OVER_ACK","status":"ok"}`, `{"jsonrpc":"2.0","result":"ok","id":1}`,
	`{"JSONRPC":"2.0","Result":{"MESSAGE_TYPE":"X"},"result":{"message_type":"Y"}}`, `{"jsonrpc":2,"result":{}}`,
	`{"result":{"content":[{"type":"text","text":"{\"message_type\":\"A\"}"}],"isError":false}}`,
	`{"result":{"structuredContent":{"message_type":"A"}}}`, `{"result":{"message":{"message_type":"A"}}}`,
	`{"result":{"message_type":"A","content":"not a list"}}`, `{"error":{"code":1},"error":null,"result":{"message_type":"A"}}`,
	`{"error":null,"error":{"code":1}}`, `{"message_type":5}`, `[{"jsonrpc":"2.0"}]`,
}

// FuzzScanReply: where scanReply reads a reply, it reads what
// encoding/json reads; where unwrapResult skips encoding/json, unwrapProbe
// would have given the result back as it is.
func FuzzScanReply(f *testing.F) {
	for _, body := range append(replySamples, headSamples...) {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if got, ok := scanReply(body); ok {
			want, err := decodeReply(body)
			if err != nil {
				t.Fatalf("%q: scanned as %+v, but encoding/json fails: %v", body, got, err)
			}
			if got.JSONRPC != want.JSONRPC || got.MessageType != want.MessageType || want.Error != nil ||
				string(got.Result) != string(want.Result) || string(got.Status) != string(want.Status) {
				t.Errorf("%q: scanned %+v, encoding/json reads %+v", body, got, want)
			}
		}
		if h, ok := scanHead(body); ok && h.MessageType != "" && h.MessageType != TypeLeagueError {
			if raw, err := unwrapProbe(body); err != nil || string(raw) != string(body) {
				t.Errorf("%q: unwrapProbe gives %q, %v; unwrapResult gives it back as it is", body, raw, err)
			}
		}
	})
}
