package bench

import (
	"regexp"
	"strings"
	"sync"
)

// WorkKinds are the kinds of work the CPU breakdown counts, in the order a
// sample is tried against them: each sample is counted once, under the
// first kind whose pattern matches one of the functions on its stack (its
// own code or any caller), and under "other" when none does. Patterns are
// matched against the function's full name (package path, receiver,
// name), `github.com/leaguetui/leaguetui/` written `leaguetui/`.
//
// Why this order: purpose before means. A sample is charged to what the
// work is for before how it is done, since a kind early in the list claims
// its whole subtree: the journal's and the log's JSON and write calls are
// the journal's and the log's, and the match file's encoding and fsyncs
// are the data files'. The journal and the log come before the data files
// because they write files too and the data files' patterns include the
// generic file operations. JSON comes next, before routing, validation and
// HTTP, so that every other encoding and decoding (a handler's, the
// client's framing, the routing's reading of a message's head) counts as
// JSON wherever it is called from. Then the league's own decisions
// (routing, validation, the engine), then the means every kind uses:
// timers, HTTP and its syscalls (net/http sits at the root of every
// request's goroutine, so HTTP comes after everything a handler does and
// its dispatching frames count only as the code a sample is in, see
// dispatchOnly), and last the runtime's own work: garbage collection
// (assists included, before the allocation that triggers them),
// allocation, and scheduling, channels and locks, which show up under
// everything.
//
// It is a function, compiled once when first needed, because every agent
// runs this binary and only the bench needs the patterns: compiling them
// at start would cost each agent's start-up about 2 ms.
var WorkKinds = sync.OnceValue(func() []WorkKind {
	return []WorkKind{
		{"the CPU profiler itself", pattern(`^runtime/pprof\.`, `^runtime\.(sigprof|\(\*cpuProfile\))`)},
		{"journal: appends and fsyncs", pattern(`leaguetui/agents/store\.(\(\*Journal\)|OpenJournal)`)},
		{"logging", pattern(`^log/slog\.`, `^log\.`,
			`leaguetui/agents/store\.(\(\*logHandler\)|\(\*logSink\)|\(\*lineEncoder\)|redactSecrets|NewLogger)`)},
		{"data files: match files, history.json (create, write, fsync)", pattern(
			`leaguetui/agents/store\.(WriteAtomic|WriteFileAtomic|writeAtomic|WriteJSON|syncDir|\(\*Coalescer\))`,
			`leaguetui/agents/referee\.\(\*matchRun\)\.saveDurably`, `leaguetui/agents/player\.\(\*historyJSON\)`,
			`^os\.(CreateTemp|Create|OpenFile|Open|Rename|Remove|Mkdir|MkdirAll|ReadFile|WriteFile|Stat|Lstat)$`,
			`^os\.\(\*File\)\.`, `^syscall\.(Fsync|Fdatasync|Open|openat|Renameat|Unlinkat)`)},
		{"JSON: encoding and decoding", pattern(`^encoding/json`,
			`^github\.com/(goccy/go-json|bytedance/sonic|json-iterator/|segmentio/encoding|mailru/easyjson|go-json-experiment/|buger/jsonparser|tidwall/gjson|valyala/fastjson)`,
			`\.(MarshalJSON|UnmarshalJSON)$`,
			`leaguetui/agents/protocol\.(Encode|encode|Decode|decode|Parse(Request|Reply)|scan|read(Head|String)|Marshal|MarshalIndent|Unmarshal|RedactMessage|DeleteKeys|extras|canonical$|withAliases|mayHoldAlias|isObject|NullFieldSlot|unwrap|mergeEnvelopePayload|FormatTime|\(\*headReader\)|\(\*Encoded\))`,
			`leaguetui/agents/protocol/internal/wirejson\.`,
			`leaguetui/agents/rpc\.(DecodeParams|\(\*Server\)\.encodeFailure)$`,
			`leaguetui/agents/[a-z]+\.(\(\*?\w+\)\.)?(encode|decode)\w*$`)},
		{"routing: method to handler, dialects, MCP", pattern(
			`leaguetui/agents/protocol\.(Route|TypeForMethod|canonicalType|head\.messageType|DialectOf|DialectIn|isWrapper|Dialect\.|Form\.|Forms|Spec|ServedBy|WithMCPTool|ToolResult|TryAnotherForm)`,
			`leaguetui/agents/rpc\.(\(\*Server\)\.(handler|routesToMCP|serves|mcpHandler)|speaksMCP|isMCPMethod|serveBodyTo|\(\*Client\)\.(formsFor|remember|Learn|DialectOf))`,
			`leaguetui/agents/mcpserve\.`, `^github\.com/modelcontextprotocol/`)},
		{"validation: tickets, tokens, endpoints, strings, times", pattern(
			`leaguetui/agents/ticket\.`, `^crypto/(hmac|sha256|subtle|internal/fips140/(hmac|sha256|subtle))`,
			`leaguetui/agents/protocol\.(NormalizeEndpoint|endpointHost|Printable|isPrintable|printableUTF8|printableRune|MakePrintable|walkPrintable|ParseTime|HasNonUTCOffset|validID|withValidID|IsBatch)`,
			`leaguetui/agents/player\.\(\*doorman\)`, `^github\.com/google/jsonschema-go/`)},
		{"league and game logic (engine)", pattern(`^leaguetui/engine\.`)},
		// Execute runs the request itself: only the breaker's own steps count.
		{"circuit breakers", pattern(`^github\.com/sony/gobreaker/v2\.\(\*CircuitBreaker\[.*\]\)\.(beforeRequest|afterRequest|currentState|setState|onSuccess|onFailure|toNewGeneration)`)},
		{"timers and contexts", pattern(`^context\.`,
			`^time\.(\(\*Timer\)|\(\*Ticker\)|NewTimer|NewTicker|AfterFunc|After|Sleep|newTimer|stopTimer|resetTimer|sendTime)`,
			`^runtime\.(\(\*(timer|timers|timeTimer)\)|checkTimers|timeSleep|newTimer|stopTimer|resetTimer|timerchandrain|blockTimerChan|unblockTimerChan)`)},
		{"HTTP: net/http server and client, sockets, syscalls", pattern(`^net/http\.`, `^net\.`, `^net/textproto\.`,
			`^net/url\.`, `^mime`, `^vendor/golang\.org/x/net/`, `^golang\.org/x/net/http`, `^internal/poll\.`, `^syscall\.`, `^bufio\.`,
			`leaguetui/agents/rpc\.(readBody|WriteEncoded|\(\*Poster\)\.Post)$`)},
		{"garbage collection", pattern(
			`^runtime\.(gc|GC|markroot|scan|greyobject|shade|findObject|wbBuf|bulkBarrier|bgsweep|bgscavenge|sweepone|deductSweepCredit|forcegchelper|typePointers|stopTheWorld|startTheWorld)`,
			`^runtime\.\(\*(gcWork|gcControllerState|gcCPULimiterState|sweepLocked|scavengerState|gcBits|wbBuf|mspan\)\.sweep|mheap\)\.(reclaim|scavenge)|pageAlloc\)\.scavenge)`)},
		{"allocation", pattern(
			`^runtime\.(mallocgc|newobject|newarray|makeslice|growslice|makemap|rawstring|rawbyteslice|rawruneslice|nextFreeFast|memclrNoHeapPointers|persistentalloc)`,
			`^runtime\.\(\*(mcache|mcentral|mheap|mspan|fixalloc|pageAlloc)\)`)},
		{"goroutines and scheduling: switches, channels, locks", pattern(`^sync\.`, `^internal/sync\.`,
			`^runtime\.(schedule|findRunnable|park_m|gopark|goready|ready|newproc|newproc1|goexit0|goexit1|gogo|mcall|futex|futexsleep|futexwakeup|notesleep|notewakeup|notetsleep|notetsleepg|semasleep|semawakeup|stopm|startm|wakep|handoffp|runqgrab|runqsteal|runqput|runqget|globrunqget|stealWork|netpoll|injectglist|sysmon|retake|preemptone|usleep|osyield|mPark|goschedImpl|gosched_m|Gosched|lock2|unlock2|lockWithRank|unlockWithRank|semacquire1|semrelease1|sync_runtime_Semacquire|sync_runtime_Semrelease|selectgo|chansend|chansend1|chanrecv|chanrecv1|chanrecv2|closechan|casgstatus|resetspinning|checkdead|entersyscall|exitsyscall|reentersyscall|entersyscallblock|exitsyscallfast|acquirep|releasep|execute|wirep|newm|newosproc|malg|gfget|gfput)$`,
			`^runtime\.\(\*(waitq|hchan|sudog)\)`)},
		{OtherWork, nil},
	}
})

// OtherWork is the kind of every sample no other kind claims.
const OtherWork = "other"

// WorkKind is a kind of work and the functions that show it.
type WorkKind struct {
	Name string
	// Frames matches the full name of a function doing this work, or of
	// one calling it; nil for OtherWork.
	Frames *regexp.Regexp
}

// dispatchOnly are frames that only hand a request to its handler: they
// sit under everything a handler does, so they count as HTTP only when a
// sample is in their own code, not in a handler they called.
var dispatchOnly = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^net/http\.(\(\*conn\)\.serve|serverHandler\.ServeHTTP|\(\*ServeMux\)\.ServeHTTP|HandlerFunc\.ServeHTTP)$`)
})

func pattern(alternatives ...string) *regexp.Regexp {
	return regexp.MustCompile(strings.Join(alternatives, "|"))
}

// moduleName is how function names of this module start; the patterns
// write it "leaguetui/".
const moduleName = "github.com/leaguetui/leaguetui/"

// kindOf is the index in WorkKinds of the first kind that one of a stack's
// functions shows, leaf first; the last index (OtherWork) when none does.
func kindOf(stack []string) int {
	best := len(WorkKinds()) - 1
	for i, fn := range stack {
		if k := frameKind(fn, i == 0); k < best {
			best = k
		}
	}
	return best
}

// frameKind is the first kind whose pattern matches fn, for a function a
// sample is in (leaf) or one it was called from.
func frameKind(fn string, leaf bool) int {
	other := len(WorkKinds()) - 1
	if !leaf && dispatchOnly().MatchString(fn) {
		return other
	}
	if rest, ok := strings.CutPrefix(fn, moduleName); ok {
		fn = "leaguetui/" + rest
	}
	for k, kind := range WorkKinds()[:other] {
		if kind.Frames.MatchString(fn) {
			return k
		}
	}
	return other
}
