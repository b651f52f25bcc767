// Package security_test runs real leagues, every agent its own process,
// and checks what the issue on faults, bad input and security asks of
// tokens and addresses: no issued token, whole or in part, reaches any log
// line, data file (credentials aside), error message or other agent; a
// process posing as a referee or as the manager learns none; every agent
// listens on 127.0.0.1 unless told otherwise.
package security_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
)

func TestMain(m *testing.M) { leaguetest.Main(m) }

const leagueID = "league_2025_even_odd"

// fragment is the length of the smallest piece of a token the greps look
// for: 12 hex characters are 48 bits, so a match is no accident.
const fragment = 12

// secret is a token and whose it is, for failure messages that name the
// owner and never print the token.
type secret struct {
	owner, value string
}

// randomToken makes a token shaped like the manager's: prefix, dash, 64
// hex characters.
func randomToken(t *testing.T, prefix string) string {
	t.Helper()
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		t.Fatal(err)
	}
	return prefix + "-" + hex.EncodeToString(buf)
}

// fragments maps every fragment-long piece of each secret's random part
// (what follows "tok-" or "adm-") to the secret's owner.
func fragments(secrets []secret) map[string]string {
	out := map[string]string{}
	for _, s := range secrets {
		_, random, found := strings.Cut(s.value, "-")
		if !found || len(random) < fragment {
			random = s.value
		}
		for i := 0; i+fragment <= len(random); i++ {
			out[random[i:i+fragment]] = s.owner
		}
	}
	return out
}

// leaksIn names the secrets of which text holds a fragment, with where.
func leaksIn(text string, pieces map[string]string) []string {
	var found []string
	seen := map[string]bool{}
	for i := 0; i+fragment <= len(text); i++ {
		owner, ok := pieces[text[i:i+fragment]]
		if ok && !seen[owner] {
			seen[owner] = true
			found = append(found, fmt.Sprintf("%s's token at byte %d", owner, i))
		}
	}
	return found
}

// grepTree reads every file under root but those under the skipped
// folders and returns, per file holding one, the secrets it leaks. It also
// returns the files it read, relative to root.
func grepTree(t *testing.T, root string, secrets []secret, skip ...string) (map[string][]string, []string) {
	t.Helper()
	pieces := fragments(secrets)
	leaks := map[string][]string{}
	var files []string
	err := filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, file)
		for _, s := range skip {
			if rel == s {
				return filepath.SkipDir
			}
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		if found := leaksIn(string(data), pieces); len(found) > 0 {
			leaks[rel] = found
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return leaks, files
}

// dataKinds are the files a finished league leaves, as path patterns: the
// grep must have read at least one of each.
var dataKinds = []string{"leagues/*/journal.jsonl", "leagues/*/standings.json", "leagues/*/rounds.json",
	"leagues/*/league.json", "matches/*/*.json", "players/*/history.json", "logs/league/*/*.log.jsonl",
	"logs/agents/*.log.jsonl"}

// checkKinds requires a file of every kind of dataKinds, and of the extra
// patterns, among files.
func checkKinds(t *testing.T, files []string, extra ...string) {
	t.Helper()
	for _, pattern := range append(slices.Clone(dataKinds), extra...) {
		if !slices.ContainsFunc(files, func(f string) bool { ok, _ := path.Match(pattern, f); return ok }) {
			t.Errorf("no %s among the %d files read", pattern, len(files))
		}
	}
}

// credentials reads every credentials file of the data folder, checking
// that each is private to its owner, and returns the tokens by agent id.
func credentials(t *testing.T, dataDir string) map[string]store.Credentials {
	t.Helper()
	dir := filepath.Join(dataDir, "credentials", leagueID)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("credentials folder: %v", err)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("credentials folder %s: mode %v (%v), want 0700", dir, info.Mode().Perm(), err)
	}
	out := map[string]store.Credentials{}
	for _, e := range entries {
		file := filepath.Join(dir, e.Name())
		if info, err := os.Stat(file); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v (%v), want 0600", file, info.Mode().Perm(), err)
		}
		c, ok, err := store.LoadCredentials(file)
		if err != nil || !ok {
			t.Fatalf("%s: %v (ok %v)", file, err, ok)
		}
		out[c.AgentID] = c
	}
	return out
}

// received is one request a fake agent got: its method, its params as
// JSON, and its headers.
type received struct {
	method  string
	params  string
	headers string
}

// fakePlayer is a correct player of the specification's style, served by a
// leaguetest.Peer: it joins every match and always chooses even, and, as
// the specification's samples do, puts its own token in its replies to
// the referee (under "auth_token" in join acknowledgements, under the
// "authToken" spelling other implementations use in moves, and under
// "token" in acknowledgements). It records every request it receives.
type fakePlayer struct {
	*leaguetest.Peer
	gameOver  chan string   // match id of each GAME_OVER
	completed chan struct{} // a value per LEAGUE_COMPLETED

	mu        sync.Mutex
	id, token string
	got       []received
}

func newFakePlayer(t *testing.T, id, token string) *fakePlayer {
	f := &fakePlayer{id: id, token: token, gameOver: make(chan string, 64), completed: make(chan struct{}, 4)}
	f.Peer = leaguetest.NewPeer(t, f.answer)
	return f
}

func (f *fakePlayer) setIdentity(id, token string) {
	f.mu.Lock()
	f.id, f.token = id, token
	f.mu.Unlock()
}

// requests is a copy of what the fake player received so far.
func (f *fakePlayer) requests() []received {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]received(nil), f.got...)
}

func (f *fakePlayer) answer(req leaguetest.PeerRequest) (int, []byte) {
	params, _ := json.Marshal(req.Params)
	headers, _ := json.Marshal(req.Header)
	f.mu.Lock()
	f.got = append(f.got, received{method: req.Method, params: string(params), headers: string(headers)})
	id, token := f.id, f.token
	f.mu.Unlock()

	messageType, _ := req.Params["message_type"].(string)
	if messageType == "" {
		messageType = protocol.TypeForMethod(req.Method)
	}
	reply := func(messageType, tokenKey string, fields map[string]any) []byte {
		msg := leaguetest.With(leaguetest.Envelope(messageType, "player:"+id), fields)
		msg[tokenKey] = token
		for _, key := range []string{"conversation_id", "league_id", "round_id", "match_id"} {
			if v, ok := req.Params[key]; ok {
				msg[key] = v
			}
		}
		return leaguetest.ResultReply(req.ID, msg)
	}
	switch {
	case strings.HasPrefix(req.Method, "tools/") || req.Method == "initialize":
		return http.StatusOK, leaguetest.ErrorReply(req.ID, -32601, "Method not found")
	case messageType == protocol.TypeGameInvitation:
		return http.StatusOK, reply(protocol.TypeGameJoinAck, "auth_token", map[string]any{"player_id": id,
			"arrival_timestamp": time.Now().UTC().Format(time.RFC3339), "accept": true})
	case messageType == protocol.TypeChooseParityCall:
		return http.StatusOK, reply(protocol.TypeChooseParityResponse, "authToken", map[string]any{"player_id": id,
			"parity_choice": "even"})
	case messageType == protocol.TypeGameOver:
		matchID, _ := req.Params["match_id"].(string)
		f.gameOver <- matchID
	case messageType == protocol.TypeLeagueCompleted:
		f.completed <- struct{}{}
	}
	return http.StatusOK, reply("ACK", "token", map[string]any{"status": "ok"})
}

// await waits for a value on ch for at most a minute.
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(time.Minute):
		t.Fatalf("no %s within a minute", what)
		panic("unreachable")
	}
}

// tokenFields are the spellings of a token field a message may carry.
var tokenFields = []string{"auth_token", "authToken", "token"}

// tokenField names the token field of a JSON object, or "".
func tokenField(raw string) string {
	var msg map[string]any
	if json.Unmarshal([]byte(raw), &msg) != nil {
		return ""
	}
	for _, k := range tokenFields {
		if v, ok := msg[k]; ok && v != "" && v != nil {
			return k
		}
	}
	return ""
}
