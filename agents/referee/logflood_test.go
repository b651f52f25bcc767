package referee_test

import (
	"context"
	"io/fs"
	"maps"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestRefusalFloodLeavesTheLogsBounded: while each of the victim's calls
// is open, a stranger posts its answer ten times with a 900 KB sender and
// a wrong token, 36 MB in all. Each post is refused (E012), and the data
// folder's logs grow by a few kilobytes: every line keeps at most
// store.MaxLogString bytes of any string, and refusals of one kind are
// counted, not written one by one.
func TestRefusalFloodLeavesTheLogsBounded(t *testing.T) {
	const perCall, senderBytes = 10, 900 << 10
	dir := t.TempDir()
	timeouts := []string{"--join-timeout", "10s", "--move-timeout", "10s", "--retry-delay", "50ms", "--generic-timeout", "10s"}
	mgr := leaguetest.StartManager(t, dir, adminToken, append([]string{"--seed", "11"}, timeouts...)...)
	ref := leaguetest.StartReferee(t, dir, mgr.Endpoint, "REF01", timeouts...)
	victim, opponent := newVariantPlayer(t, styleAsync), newVariantPlayer(t, styleBare)
	victim.refereeURL = ref.Endpoint
	victim.register(t, mgr.Endpoint, 1)
	opponent.register(t, mgr.Endpoint, 2)
	leaguetest.StartPlayer(t, dir, mgr.Endpoint, "builtin", "--strategy", "counter", "--seed", "5")
	before := folderBytes(t, filepath.Join(dir, "logs"))

	sender := "player:" + strings.Repeat("S", senderBytes)
	var posted, refused atomic.Int64
	var othersMu sync.Mutex
	others := map[string]int{} // what came back instead of E012, for the failure's message
	victim.beforePost = func(method string, answer map[string]any) {
		forged := maps.Clone(answer)
		forged["sender"], forged["auth_token"] = sender, "not-the-ticket"
		for range perCall {
			posted.Add(1)
			if got := postForged(ref.Endpoint, method, forged); got == protocol.CodeAuthTokenInvalid {
				refused.Add(1)
			} else {
				othersMu.Lock()
				others[got]++
				othersMu.Unlock()
			}
		}
	}
	ctl := control.New(mgr.Endpoint, adminToken)
	if err := ctl.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	leaguetest.UntilCompleted(t, ctl, 0, 2*time.Minute)
	ref.Stop(10 * time.Second) // its log closed: every count written
	grown := folderBytes(t, filepath.Join(dir, "logs")) - before
	t.Logf("%d posts of %d KB refused (%d with E012); the logs grew by %d bytes", posted.Load(), senderBytes>>10, refused.Load(), grown)
	if posted.Load() == 0 || refused.Load() != posted.Load() {
		othersMu.Lock()
		defer othersMu.Unlock()
		t.Fatalf("%d of %d forged posts refused with %s; the others got %v", refused.Load(), posted.Load(), protocol.CodeAuthTokenInvalid, others)
	}
	if limit := int64(256 << 10); grown > limit {
		t.Errorf("the logs grew by %d bytes for %d refused posts: more than %d", grown, posted.Load(), limit)
	}
}

// folderBytes is the size of every file under dir.
func folderBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			total += info.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return total
}
