//go:build linux

package manager_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/internal/leaguetest"
	"github.com/leaguetui/leaguetui/league/control"
)

// TestRegistrationWhoseJournalWriteFails makes the manager's disk refuse
// the journal's next append (its process's file-size limit is lowered to
// the journal's size) and registers a player: the registration is refused
// with the journal's error, not accepted and not left hanging, since its
// journal write is waited for outside the manager's lock, which the
// failure takes to pause the league. The manager goes on answering, the
// feed says what failed, and the journal holds no trace of the player.
func TestRegistrationWhoseJournalWriteFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "3")
	url := mgr.Endpoint
	register(t, url, "referee", ackingPeer(t, nil, nil).Endpoint)
	register(t, url, "player", ackingPeer(t, nil, nil).Endpoint)

	journal := freezeJournal(t, dir, mgr.PID())

	endpoint := ackingPeer(t, nil, nil).Endpoint
	reply := leaguetest.Call(t, url, "register_player", registration("player", endpoint, nil))
	if reply.String("status") == "ACCEPTED" || reply.String("auth_token") != "" || !strings.Contains(string(reply.Body), "journal") {
		t.Errorf("registration while the journal cannot grow: %s; want it refused with the journal's error", reply.Body)
	}

	wantStorageFailure(t, url, journal)
	after, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(after), endpoint) {
		t.Errorf("the journal holds the refused player at %s", endpoint)
	}
}

// TestStartWhoseJournalWriteFails starts a league whose journal cannot
// grow: the start is refused with the journal's error, not accepted and not
// left hanging (its journal write, like every other, is waited for outside
// the manager's lock, which the failure takes), and the manager goes on
// answering with the failure on its feed.
func TestStartWhoseJournalWriteFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mgr := leaguetest.StartManager(t, dir, adminToken, "--seed", "3")
	url := mgr.Endpoint
	register(t, url, "referee", ackingPeer(t, nil, nil).Endpoint)
	register(t, url, "player", ackingPeer(t, nil, nil).Endpoint)
	register(t, url, "player", ackingPeer(t, nil, nil).Endpoint)
	journal := freezeJournal(t, dir, mgr.PID())

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := control.New(url, adminToken).Start(ctx)
	if err == nil || !strings.Contains(err.Error(), "journal") {
		t.Fatalf("start while the journal cannot grow: %v; want it refused with the journal's error", err)
	}
	wantStorageFailure(t, url, journal)
	if _, err := os.Stat(store.Layout{Root: dir, LeagueID: config.Default().LeagueID}.LeagueInfo()); err == nil {
		t.Errorf("league.json was written for a start the journal does not hold")
	}
}

// freezeJournal makes the manager's disk refuse the journal's next append:
// the process's file-size limit is lowered to the journal's size. It
// returns the journal's path.
func freezeJournal(t *testing.T, dir string, pid int) string {
	t.Helper()
	journal := store.Layout{Root: dir, LeagueID: config.Default().LeagueID}.Journal()
	before, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	limit := unix.Rlimit{Cur: uint64(len(before)), Max: unix.RLIM_INFINITY}
	if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, &limit, nil); err != nil {
		t.Fatalf("prlimit: %v", err)
	}
	return journal
}

// wantStorageFailure requires the manager to answer its feed, saying that
// the journal could not be written.
func wantStorageFailure(t *testing.T, url, journal string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	page, err := control.New(url, adminToken).Events(ctx, 0, time.Second)
	if err != nil {
		t.Fatalf("the manager no longer answers after the failed write: %v", err)
	}
	if !strings.Contains(page.StorageFailure, journal) {
		t.Errorf("the feed says %q; want the journal's failure", page.StorageFailure)
	}
}
