//go:build linux

package hosts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/tlsconf"
	"github.com/leaguetui/leaguetui/engine"
	"github.com/leaguetui/leaguetui/league/control"
)

// transcriptsEnv makes the test binary, run again inside a namespace, read
// match files through the manager (see runTranscripts).
const transcriptsEnv = "LEAGUETUI_TEST_TRANSCRIPTS"

// runTranscripts reads the file of each match named in
// LEAGUETUI_TEST_MATCHES from the manager at base, as the console does,
// and prints one line per match: "MATCH <json>" with what the file holds.
func runTranscripts(base string) int {
	if err := tlsconf.Setup(os.Getenv("LEAGUETUI_TLS_CA")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ctl := control.New(base, "")
	out := json.NewEncoder(os.Stdout)
	for _, id := range strings.Split(os.Getenv("LEAGUETUI_TEST_MATCHES"), ",") {
		seen := transcriptSeen{Asked: id}
		raw, err := ctl.MatchFile(ctx, id)
		var file protocol.MatchFile
		if err == nil {
			err = json.Unmarshal(raw, &file)
		}
		if err != nil {
			seen.Err = err.Error()
		}
		seen.MatchID, seen.Referee, seen.Exchanges, seen.Status = file.MatchID, file.RefereeID, len(file.Transcript), string(file.Result.Status)
		fmt.Print("MATCH ")
		_ = out.Encode(seen)
	}
	return 0
}

// transcriptSeen is what the manager served for one match.
type transcriptSeen struct {
	Asked, MatchID, Referee, Status, Err string
	Exchanges                            int
}

// checkTranscripts reads, from the console's machine and through the
// manager only, the file of every match the journal holds a result of:
// each must be there, whole, though every referee keeps its files in its
// own data folder on its own machine.
func (g *lanLeague) checkTranscripts(t *testing.T) {
	t.Helper()
	results := map[string]*engine.Result{}
	var ids []string
	for _, ev := range g.journal(t) {
		if ev.Kind == engine.EventMatchResult && ev.Result != nil {
			results[ev.MatchID] = ev.Result
			ids = append(ids, ev.MatchID)
		}
	}
	if len(ids) == 0 {
		t.Fatal("the journal holds no result")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("ip", "netns", "exec", g.lan.ns["console"], exe)
	cmd.Env = append(os.Environ(), transcriptsEnv+"="+g.base(), "LEAGUETUI_TEST_MATCHES="+strings.Join(ids, ","))
	if g.ca != nil {
		cmd.Env = append(cmd.Env, "LEAGUETUI_TLS_CA="+g.ca.CertFile)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reading the match files through the manager: %v", err)
	}
	served := 0
	for _, line := range strings.Split(string(out), "\n") {
		var seen transcriptSeen
		if raw, ok := strings.CutPrefix(line, "MATCH "); !ok || json.Unmarshal([]byte(raw), &seen) != nil {
			continue
		}
		served++
		want := results[seen.Asked]
		if seen.Err != "" || seen.MatchID != seen.Asked || seen.Exchanges == 0 || want == nil || seen.Status != string(want.Status) {
			t.Errorf("match %s through the manager: %+v; want its file with its transcript and status %v", seen.Asked, seen, want)
		}
	}
	if served != len(ids) {
		t.Errorf("%d match files read through the manager, want %d", served, len(ids))
	}
}
