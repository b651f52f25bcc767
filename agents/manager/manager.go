// Package manager is the league manager: it registers agents and issues
// their tokens, builds the schedule, hands matches to referees, collects
// results, keeps the standings, and serves the league to the console.
//
// Every change of league state is an engine.Event: applied to the
// engine.League (which validates it), appended to the journal (the source of
// truth a restarted manager resumes from), and served on the live feed.
package manager

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/leaguetui/leaguetui/agents/node"
	"github.com/leaguetui/leaguetui/agents/protocol"
	"github.com/leaguetui/leaguetui/agents/relay"
	"github.com/leaguetui/leaguetui/agents/rpc"
	"github.com/leaguetui/leaguetui/agents/store"
	"github.com/leaguetui/leaguetui/agents/throttle"
	"github.com/leaguetui/leaguetui/agents/tlsconf"
	"github.com/leaguetui/leaguetui/config"
	"github.com/leaguetui/leaguetui/engine"
)

// Options are what a manager process is started with.
type Options struct {
	Config     config.Config
	DataDir    string
	Port       int
	Seed       int64 // used when the league starts; 0 with SeedSet false picks one
	SeedSet    bool
	AdminToken string // required for start/pause/resume/stop
	// Hold keeps a league resumed from the journal paused until the admin
	// resumes it, so that restarted agents can register again first.
	Hold bool
	// SeasonPrior reads the games a season folder holds between the given
	// players (id -> display name), for a --place league; nil: none.
	SeasonPrior func(season string, names map[string]string) ([]engine.PriorGames, error)
	// RefereeKey admits referees: a newcomer must present it. Empty with
	// OpenReferees false admits none.
	RefereeKey string
	// OpenReferees admits referees without the key (other
	// implementations'); /health then says so.
	OpenReferees bool
	// Reserved are the display names of the players the league was
	// started for, in order: the i-th gets the id P(i+1) (config.PlayerIDAt)
	// whenever it registers, and nobody else takes those ids, so that an
	// outside player registering first cannot take an id one of them needs.
	Reserved []string
	// LimitSeats: the league takes at most OpenSeats players beside its
	// own (Reserved), and none of them under a name of an id's form (see
	// seats.go). Without it, a manager given no Reserved takes anyone
	// until the start.
	LimitSeats bool
	OpenSeats  int
	// JoinCodes are the codes of the roster's external players, by name:
	// a newcomer takes such a name only with its code.
	JoinCodes store.JoinCodes

	feedWindow int // events the feed keeps in memory; 0 is defaultFeedWindow
}

// Manager is the league manager process.
type Manager struct {
	*node.Node
	opts    Options
	game    engine.Game
	journal *store.Journal
	lock    *store.DataLock // one manager per data folder: the journal has one writer
	post    *rpc.Mailer
	relay   *relay.Relay      // the pull seats' (pull.go)
	guesses *throttle.Guesses // wrong join codes by source (register.go)

	standingsFile, roundsFile *store.Coalescer // see openFiles
	ratings                   ratingsCache     // see ratingsNow
	doneRounds                doneRounds       // see roundJSON
	progress                  matchProgress    // the steps of matches under way (progress.go)

	mu      sync.Mutex
	league  *engine.League
	feed    feedWindow           // the latest events; older ones are read from the journal
	history *store.JournalReader // reads those
	// changed is closed and replaced whenever the journal commits (the
	// feed grows). Under its own lock: the journal's writer closes it, and
	// it must never wait for m.mu, whose holders queue events for it.
	changedMu sync.Mutex
	changed   chan struct{}
	reported  map[string]chan struct{} // match id -> closed when its result is in
	benched   map[string]chan struct{} // referee id -> closed when it is suspended (suspension)
	announced announcedBy              // referees of announced matches, and those that play from announcements
	running   bool
	cancelRun context.CancelFunc
	runDone   chan struct{}
	resumed   chan struct{} // closed and replaced when the league resumes
	// storageErr is the first journal failure. From then on the league
	// changes no more: nothing could be saved. storageDetail says so to
	// the feed's readers.
	storageErr    error
	storageDetail string
	secret        string   // the manager's own key, see managerSecret
	ticketKeys    sync.Map // player id -> playerKey, made once: it never changes
	managerKeys   sync.Map // keyHolder -> managerKey, made once for each token
	stalled       bool     // no referee could take a match, and none has been played since
	// nameKeys memoizes the look-alike keys of the names agents
	// registered under (nameKeyOf); reportRefusals limits what refused
	// reports tell the feed (noteRefusedReport).
	nameKeys       map[string]nameKey
	keptKeys       map[string]nameKey // the kept names' (keptLookAlike)
	reportRefusals refusalNotices
	// tokenUsed: the agent has sent a message with the token its last
	// registration issued, so it holds it, and its prior token opens
	// nothing any more (see returningAgent). Kept in memory only: after a
	// restart the prior token is valid again until the agent uses the new
	// one, which every agent of a resumed league does as it registers.
	tokenUsed map[string]bool

	// transcripts fetches match files from referees whose data folders are
	// apart from the manager's (transcripts.go), at most transcriptFetches
	// at a time.
	transcripts     *http.Client
	transcriptSlots chan struct{}
	fetching        sync.WaitGroup // fetches in flight, which shutdown waits for

	metrics *leagueMetrics
}

var _ node.Agent = (*Manager)(nil) // its lifecycle is every agent's

// New opens (or resumes from) the league's journal in the data folder.
func New(opts Options) (*Manager, error) {
	cfg := opts.Config
	game, ok := engine.LookupGame(cfg.GameType)
	if !ok {
		return nil, fmt.Errorf("unknown game type %q (known: %v)", cfg.GameType, engine.GameTypes())
	}
	if _, err := formatSpec(cfg.Format); err != nil {
		return nil, err
	}
	if opts.AdminToken == "" {
		return nil, fmt.Errorf("an admin token is required (set LEAGUETUI_ADMIN_TOKEN)")
	}
	if err := store.CheckWritable(opts.DataDir); err != nil {
		return nil, err
	}
	lock, err := store.LockDataFolder(opts.DataDir)
	if err != nil {
		return nil, err
	}
	// The specification's place for the manager's log is the league's log.
	n, err := node.New(cfg, protocol.ManagerRole, protocol.SenderManager, opts.DataDir,
		node.LogAt(store.Layout.LeagueLog), node.SendsLarge(broadcastWriteBuffer))
	if err != nil {
		lock.Release()
		return nil, err
	}
	n.SetIdentity(protocol.SenderManager, "") // it issues ids and tokens: its own is fixed
	store.Redact(opts.AdminToken)
	store.Redact(opts.RefereeKey)
	secret, err := managerSecret(n.Layout())
	if err != nil {
		return nil, err
	}
	n.OpenReferees = opts.OpenReferees
	m := &Manager{
		Node: n, opts: opts, game: game, lock: lock,
		league:    engine.NewLeague(cfg.LeagueID, engine.Scoring(cfg.Scoring)),
		feed:      feedWindow{limit: cmp.Or(opts.feedWindow, defaultFeedWindow)},
		changed:   make(chan struct{}),
		reported:  map[string]chan struct{}{},
		tokenUsed: map[string]bool{},
		benched:   map[string]chan struct{}{},
		runDone:   make(chan struct{}),
		resumed:   make(chan struct{}),
		cancelRun: func() {},
		secret:    secret,

		transcripts:     &http.Client{Transport: &http.Transport{TLSClientConfig: tlsconf.Client(), Proxy: http.ProxyFromEnvironment}},
		transcriptSlots: make(chan struct{}, transcriptFetches),
	}
	m.post = rpc.NewMailer(n.Client, n.Log)
	m.newMetrics()
	if err := m.replayJournal(); err != nil {
		lock.Release()
		return nil, err
	}
	m.openFiles()
	if m.league.State != engine.LeagueWaiting {
		// Derived from the journal: rewritten from it, whatever a crash or
		// a full disk left of them.
		m.standingsFile.Request()
		m.roundsFile.Request()
	}
	if m.league.State == engine.LeagueStopped {
		m.abandonLeftFiles()
	}
	m.routes()
	return m, nil
}

// replayJournal rebuilds the league from the events already journaled,
// keeping the latest in memory for the feed.
func (m *Manager) replayJournal() error {
	journal, records, err := store.OpenJournal(m.Layout().Journal())
	if err != nil {
		return fmt.Errorf("cannot open the league journal: %w", err)
	}
	m.journal = journal
	m.journal.OnCommit(m.feedGrew)
	m.history = store.NewJournalReader(m.Layout().Journal())
	for i, raw := range records {
		var ev engine.Event
		if err := json.Unmarshal(raw, &ev); err != nil {
			return fmt.Errorf("journal record %d: %w", i+1, err)
		}
		if err := m.league.Apply(ev); errors.Is(err, engine.ErrLeagueStopped) {
			// Journals written before a stop refused late results may
			// hold some: the league (and every reader of the feed)
			// leaves them out.
			m.league.Skip(ev.Seq)
			m.Log.Warn("journal record after the stop left out", "event_type", "JOURNAL_AFTER_STOP", "seq", ev.Seq, "kind", string(ev.Kind))
		} else if err != nil {
			return fmt.Errorf("journal record %d does not apply: %w", i+1, err)
		}
		m.feed.push(ev, int64(len(records)))
	}
	if len(records) > 0 {
		done, total := m.league.Progress()
		m.Log.Info("resumed from journal", "event_type", "LEAGUE_RESUMED", "events", len(records),
			"state", string(m.league.State), "matches_done", done, "matches_total", total)
	}
	return nil
}

// Start listens and, if the journal shows a league in progress, carries it on.
//
// A league held (--hold) is paused, durably, before the manager listens:
// whoever reads its state once it says it is listening sees it paused,
// never running, and knows to resume it.
func (m *Manager) Start(ctx context.Context) error {
	m.mu.Lock()
	resume := m.league.State == engine.LeagueRunning || m.league.State == engine.LeaguePaused
	done, total := m.league.Progress()
	m.mu.Unlock()
	if resume {
		if err := m.endInterruptedMatches(); err != nil {
			return err
		}
		if m.opts.Hold {
			if err := m.holdResumedLeague(done, total); err != nil {
				return err
			}
		}
	}
	m.SetState(protocol.StateActive) // the manager needs no registration: it serves at once
	if err := m.Listen(m.opts.Port); err != nil {
		return err
	}
	m.servePprof()
	if !resume {
		return nil
	}
	fmt.Fprintf(m.Stdout, "leaguetui: resumed league %s from its journal: %d of %d matches done\n", m.league.ID, done, total)
	m.startRunning(m.Lifetime())
	return nil
}

// endInterruptedMatches journals the restart when matches were running as
// the manager went down: they run no more and are played again, and the
// feed must not show them running meanwhile.
func (m *Manager) endInterruptedMatches() error {
	return m.journaled(func(b *batch) error {
		if m.league.RunningCount() == 0 {
			return nil
		}
		_, err := b.stage(engine.Event{Kind: engine.EventRestarted,
			Detail: fmt.Sprintf("manager restarted: %d running matches are played again", m.league.RunningCount())})
		return err
	})
}

// holdResumedLeague pauses a league the journal shows running, saying why:
// its agents are being restarted and must register again before it plays on.
func (m *Manager) holdResumedLeague(done, total int) error {
	return m.journaled(func(b *batch) error {
		if m.league.State != engine.LeagueRunning {
			return nil
		}
		_, err := b.stage(engine.Event{Kind: engine.EventPaused,
			Detail: fmt.Sprintf("after a restart, resuming from the journal at %d of %d matches", done, total)})
		return err
	})
}

// Shutdown ends the manager (node.Agent). Its lifetime's end cancels the
// league run, which it waits for, so that a league that has just completed
// finishes writing its files and posting LEAGUE_COMPLETED (one still
// playing resumes from the journal); then it delivers what is still queued
// for the agents, stops serving, and closes its files, the journal and the
// data folder's lock.
func (m *Manager) Shutdown(ctx context.Context) error {
	return m.Stop(ctx, node.Stopping{Finish: m.awaitRun, Deliver: m.deliver, Close: m.closeAll})
}

// deliver sends the notifications still queued, the pull seats' within
// the relay's grace (relay.Drain): a pull player that stopped polling
// must not hold the manager's stop until its calls' MaxHold.
func (m *Manager) deliver(ctx context.Context) {
	m.relay.Drain()
	m.post.Drain(ctx)
}

// awaitRun waits for the league run, if one was started, to end, and for
// the transcript fetches in flight (cancelled with the lifetime), so that
// none writes a file after the data folder is given up.
func (m *Manager) awaitRun(ctx context.Context) {
	m.mu.Lock()
	running := m.running
	m.mu.Unlock()
	if running {
		node.AwaitDone(ctx, m.runDone)
	}
	fetched := make(chan struct{})
	go func() { m.fetching.Wait(); close(fetched) }()
	node.AwaitDone(ctx, fetched)
}

// closeAll closes what the manager writes, once it serves no more.
func (m *Manager) closeAll() error {
	m.closeFiles()
	err := m.journal.Close()
	m.lock.Release()
	return err
}

// apply numbers and applies an event and keeps it for the live feed,
// which serves it once the journal has committed it. Call with m.mu held.
func (m *Manager) apply(ev *engine.Event) error {
	ev.Seq = m.league.LastSeq() + 1
	ev.Time = time.Now().UTC()
	running := m.league.RunningCount()
	if err := m.league.Apply(*ev); err != nil {
		return err
	}
	m.metrics.observe(*ev, running)
	m.feed.push(*ev, m.journal.Committed())
	return nil
}

// feedGrew wakes the feed's waiting readers: the journal has committed more
// events, which the feed may now serve.
func (m *Manager) feedGrew() {
	m.changedMu.Lock()
	defer m.changedMu.Unlock()
	close(m.changed)
	m.changed = make(chan struct{})
}

// feedChanged is the channel that closes when the feed next grows.
func (m *Manager) feedChanged() <-chan struct{} {
	m.changedMu.Lock()
	defer m.changedMu.Unlock()
	return m.changed
}

// storageFailed pauses the league the first time the journal cannot be
// written, and says so on the feed and in the log. Every result
// acknowledged so far is in the journal; the one whose write failed was
// not acknowledged, so its referee's match is played again after a
// restart. Nothing more is taken until then.
func (m *Manager) storageFailed(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.storageErr != nil {
		return
	}
	m.storageErr = err
	m.storageDetail = fmt.Sprintf("cannot write the league journal in %s: %v; the league is paused and nothing acknowledged is lost "+
		"(every result acknowledged is in the journal; derived files are rebuilt from it on resume); "+
		"free the disk, then restart to resume", m.Layout().LeagueDir(), err)
	m.Log.Error("journal append failed; league paused", "event_type", "JOURNAL_ERROR", "err", err)
	// Unnumbered: the journal could not take it, so it must not take a
	// sequence number that a restarted manager would give another event.
	_ = m.league.Apply(engine.Event{Kind: engine.EventStorageFailed, Time: time.Now().UTC(), Detail: m.storageDetail})
	m.feedGrew()
}

// newToken issues a fresh random token and the hash the journal keeps.
func (m *Manager) newToken() (token, hash string, err error) {
	buf := make([]byte, m.opts.Config.Security.TokenBytes)
	if _, err := rand.Read(buf); err != nil {
		return "", "", err
	}
	token = "tok-" + hex.EncodeToString(buf)
	store.Redact(token)
	return token, hashToken(token), nil
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// tokenMatches compares in constant time so response times leak nothing.
func tokenMatches(token, hash string) bool {
	sum := sha256.Sum256([]byte(token))
	var hexSum [2 * sha256.Size]byte // hashToken's text, without making a string of it for every message
	hex.Encode(hexSum[:], sum[:])
	return subtle.ConstantTimeCompare(hexSum[:], []byte(hash)) == 1
}

// authenticate checks that a message comes from a registered agent of the
// given role holding that agent's own token.
func (m *Manager) authenticate(env protocol.Envelope, role engine.Role) (engine.AgentInfo, error) {
	notRegistered := protocol.CodePlayerNotRegistered
	if role == engine.RoleReferee {
		notRegistered = protocol.CodeRefereeNotRegistered
	}
	if env.AuthToken == "" {
		return engine.AgentInfo{}, protocol.Reject(protocol.CodeAuthTokenMissing, "auth_token is required after registration")
	}
	kind, id := protocol.SplitSender(env.Sender)
	m.mu.Lock()
	agent, ok := m.league.Agent(id)
	m.mu.Unlock()
	if !ok || kind != role || agent.Role != role {
		return engine.AgentInfo{}, protocol.Reject(notRegistered, "sender %q is not a registered %s", env.Sender, role)
	}
	if !tokenMatches(env.AuthToken, agent.TokenHash) {
		return engine.AgentInfo{}, protocol.Reject(protocol.CodeAuthTokenInvalid, "auth_token is not valid for %s", env.Sender)
	}
	m.mu.Lock()
	if current, _ := m.league.Agent(id); current.TokenHash == agent.TokenHash {
		m.tokenUsed[id] = true
	}
	m.mu.Unlock()
	return agent, nil
}

// isAdmin checks the admin token in constant time.
func (m *Manager) isAdmin(token string) bool {
	return token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(m.opts.AdminToken)) == 1
}
