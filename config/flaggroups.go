package config

import (
	"flag"
	"slices"
	"strings"
)

// A FlagGroup is a set of the shared flags (AddFlags) that go together:
// a command takes the groups whose settings it reads, and its --help
// lists those alone.
type FlagGroup string

// The groups, each with the settings it holds.
const (
	FolderFlags    FlagGroup = "folder"     // the config folder read
	ListenFlags    FlagGroup = "listen"     // where a server listens and how long it waits for a request
	AgentFlags     FlagGroup = "agent"      // how a league agent is reached and calls others
	TrustFlags     FlagGroup = "trust"      // which certificates an https client trusts
	GameFlags      FlagGroup = "game"       // the league (and its file in the config folder) and the game it plays
	MatchFlags     FlagGroup = "match"      // a match's deadlines and draws
	RaceFlags      FlagGroup = "race"       // a link race's rules
	PageFlags      FlagGroup = "pages"      // how a referee reads pages
	PageGraphFlags FlagGroup = "page-graph" // the pages a page server serves
	RuleFlags      FlagGroup = "rules"      // how the manager runs the league: format, suspensions, ratings, season
	ManagerFlags   FlagGroup = "manager"    // whom the manager admits and its admin token
	RosterFlags    FlagGroup = "roster"     // who a league leaguetui starts waits for
	StrategyFlags  FlagGroup = "strategies" // the strategies of the players a league starts
	ModelFlags     FlagGroup = "models"     // model players: provider, key, budgets, records
)

// flagGroups lists the flags of each group; every shared flag is in one.
var flagGroups = map[FlagGroup][]string{
	FolderFlags:    {flagConfig},
	ListenFlags:    {"host", "generic-timeout"},
	AgentFlags:     {"advertise", "tls-cert", "tls-key", "message-bytes", "retry-delay", "attempts"},
	TrustFlags:     {"tls-ca"},
	GameFlags:      {flagLeague, "game"},
	MatchFlags:     {"join-timeout", "move-timeout", "report-timeout", "race-draw-loads"},
	RaceFlags:      {"race-steps", "race-distance"},
	PageFlags:      {"pages-url", "page-reply-bytes", "page-links", "page-cache-bytes"},
	PageGraphFlags: {"pages"},
	RuleFlags: {"suspend-after", "suspend-referee-after", "ratings-exclude-technical", "format", "rounds", "challengers",
		"games-per-pair", "sprt", "max-games", "until-separated", "until-decided", "equivalence-margin", "place", "season"},
	ManagerFlags:  {"require-tls", "open-seats", "admin-token-file"},
	RosterFlags:   {"roster", "join-window", "mcp-seats"},
	StrategyFlags: {"strategies"},
	ModelFlags: {"llm-provider", "llm-model", "llm-base-url", "llm-api-key-env", "llm-api-key-file", "llm-fallback",
		"llm-max-tokens-per-match", "llm-price", "record-models", "replay-models", "llm-budget-usd", "llm-budget-tokens",
		"league-budget-usd", "league-budget-tokens", "llm-tool-calls", "league-budget-end", "llm-reply-bytes", "llm-rpm", "llm-tpm"},
}

// League is the name CommandFlags gives the league leaguetui starts
// (leaguetui with no command): the console and --no-ui.
const League = ""

// CommandFlags are the groups each command of leaguetui that reads the
// config takes, by the command's name: what it reads, and so what its
// --help lists. A league leaguetui starts passes its children only the
// flags of their command (ArgsFor).
var CommandFlags = map[string][]FlagGroup{
	League: {FolderFlags, ListenFlags, AgentFlags, TrustFlags, GameFlags, MatchFlags, RaceFlags, PageFlags,
		PageGraphFlags, RuleFlags, ManagerFlags, RosterFlags, StrategyFlags, ModelFlags},
	"manager": {FolderFlags, ListenFlags, AgentFlags, TrustFlags, GameFlags, MatchFlags, RuleFlags, ManagerFlags},
	"referee": {FolderFlags, ListenFlags, AgentFlags, TrustFlags, GameFlags, MatchFlags, RaceFlags, PageFlags},
	"player":  {FolderFlags, ListenFlags, AgentFlags, TrustFlags, GameFlags, ModelFlags},
	"seats":   {FolderFlags, ListenFlags, AgentFlags, TrustFlags, GameFlags, MatchFlags},
	"pages":   {FolderFlags, ListenFlags, PageGraphFlags},
	"bench": {FolderFlags, ListenFlags, AgentFlags, TrustFlags, GameFlags, MatchFlags, RaceFlags, PageFlags,
		PageGraphFlags, RuleFlags, StrategyFlags, ModelFlags},
	"probe": {FolderFlags, TrustFlags},
	"web":   {FolderFlags, TrustFlags},
}

// GroupFlags lists the flags of groups.
func GroupFlags(groups ...FlagGroup) []string {
	var names []string
	for _, g := range groups {
		names = append(names, flagGroups[g]...)
	}
	return names
}

// AddCommandFlags is AddFlags for the command of CommandFlags called
// command: the shared flags it reads, no others.
func AddCommandFlags(fs *flag.FlagSet, command string) *Flags {
	return AddFlags(fs, CommandFlags[command]...)
}

// ArgsFor is args without the shared flags command does not take (and
// their values), for a child started as that command with the flags
// Args made for the whole league; other arguments are kept as they are.
func ArgsFor(command string, args []string) []string {
	takes := GroupFlags(CommandFlags[command]...)
	var kept []string
	for i := 0; i < len(args); i++ {
		name, _, inline := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		o, shared := overrideNamed(name)
		if !strings.HasPrefix(args[i], "-") || !shared || slices.Contains(takes, name) {
			kept = append(kept, args[i])
			continue
		}
		if !inline && !o.boolean {
			i++ // --name value: the value goes too
		}
	}
	return kept
}

// overrideNamed is the shared flag called name.
func overrideNamed(name string) (override, bool) {
	for _, o := range overrides {
		if o.flag == name {
			return o, true
		}
	}
	return override{}, false
}
