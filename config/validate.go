package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Validate reports every problem at once (joined with errors.Join), so a
// user fixes a config in one pass instead of one error per run. Each
// problem names the setting the way the files group it, e.g.
// "timeouts.move must be > 0 (got 0s)".
//
// The player strategy is not checked: the set of strategies belongs to the
// player code.
func (c Config) Validate() error {
	var p problems
	p.check(c.LeagueID != "", "league_id must not be empty")
	p.check(c.GameType != "", "game_type must not be empty")
	c.Network.validate(&p)
	c.Timeouts.validate(&p)
	c.Retry.validate(&p)
	c.Breaker.validate(&p)
	c.Scoring.validate(&p)
	c.Security.validate(&p)
	p.check(c.Referee.MaxConcurrentMatches >= 1,
		"referee.max_concurrent_matches must be >= 1 (got %d)", c.Referee.MaxConcurrentMatches)
	c.Participants.validate(&p)
	p.nonNegative("suspension.after_technical_losses", c.Suspension.AfterTechnicalLosses)
	p.nonNegative("suspension.referee_after_consecutive_missed_reports", c.Suspension.AfterMissedReports)
	c.Format.validate(&p)
	return errors.Join(p...)
}

// validate checks the format's name and the parameters it needs; whether
// they fit the players registered is known only when the league starts.
func (f Format) validate(p *problems) {
	switch f.Name {
	case "", "round-robin", "double-round-robin":
	case "swiss":
		p.check(f.Rounds >= 1, "a swiss league needs --rounds N (N >= 1, got %d)", f.Rounds)
	case "gauntlet":
		p.check(f.Challengers != "", "a gauntlet needs --challengers (player ids, comma-separated)")
	default:
		p.check(false, "--format %q: want round-robin, double-round-robin, swiss or gauntlet", f.Name)
	}
	p.nonNegative("games-per-pair", f.GamesPerPair)
	p.check(f.SPRT == "" || f.Name == "gauntlet", "--sprt needs --format gauntlet with one challenger")
	p.nonNegative("until-separated", f.UntilSeparated)
	p.check(f.Place == "" || f.UntilSeparated > 0, "--place needs --until-separated N: the matches that place the player")
	p.check(f.Place == "" || f.Name == "" || f.Name == "round-robin", "--place plays only separating matches: it takes no --format")
	p.check(f.UntilSeparated == 0 || f.SPRT == "", "--until-separated does not go with --sprt, which decides between two players")
	p.nonNegative("until-decided", f.UntilDecided)
	p.check(f.UntilDecided == 0 || f.SPRT == "", "--until-decided does not go with --sprt, which decides between two players")
	p.check(f.UntilDecided == 0 || f.UntilSeparated == 0, "--until-decided and --until-separated are two stopping rules: give one")
	p.check(f.UntilDecided == 0 || f.Place == "", "--place places a player with --until-separated, not --until-decided")
}

// problems collects validation failures.
type problems []error

// check records a problem described by format and args unless ok.
func (p *problems) check(ok bool, format string, args ...any) {
	if !ok {
		*p = append(*p, fmt.Errorf(format, args...))
	}
}

func (p *problems) positive(name string, d time.Duration) {
	p.check(d > 0, "%s must be > 0 (got %v)", name, d)
}

func (p *problems) nonNegative(name string, n int) {
	p.check(n >= 0, "%s must be >= 0 (got %d)", name, n)
}

func (p *problems) port(name string, port int) {
	p.check(validPort(port), "%s must be in 1..65535 (got %d)", name, port)
}

// validAgentURL accepts an absolute http or https URL with a host.
func validAgentURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != ""
}

// checkURL refuses what is not an absolute http or https URL with a
// host, saying what is wanted.
func checkURL(raw, want string) error {
	if !validAgentURL(raw) {
		return fmt.Errorf("not a URL: want %s", want)
	}
	return nil
}

// CheckHost refuses a host no socket can listen on or connect to: it must
// be an IP address or a host name. A dotted number that is no IP address
// (999.1.1.1) is neither, and would otherwise be looked up as a name.
func CheckHost(host string) error {
	if net.ParseIP(host) != nil {
		return nil
	}
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	for _, label := range labels {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") ||
			strings.Trim(label, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" {
			return fmt.Errorf("want an IP address or a host name")
		}
	}
	if strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return fmt.Errorf("not an IP address (each of its four numbers is 0 to 255), nor a host name")
	}
	return nil
}

// CheckListenAddress refuses an address no socket can listen on: it must
// be HOST:PORT, the host empty (every interface), an IP address or a host
// name, the port 0 (a free one) to 65535.
func CheckListenAddress(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want HOST:PORT, e.g. 127.0.0.1:8080 (port 0 takes a free one)")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("port %q: want 0 (a free port) to 65535", port)
	}
	if host == "" {
		return nil
	}
	if err := CheckHost(host); err != nil {
		return fmt.Errorf("host %q: %v", host, err)
	}
	return nil
}

func validPort(port int) bool { return port >= 1 && port <= 65535 }

// portRange is an inclusive range of TCP ports.
type portRange struct{ first, last int }

func (r portRange) String() string            { return fmt.Sprintf("[%d, %d]", r.first, r.last) }
func (r portRange) wellFormed() bool          { return r.first <= r.last }
func (r portRange) contains(port int) bool    { return r.first <= port && port <= r.last }
func (r portRange) overlaps(o portRange) bool { return r.first <= o.last && o.first <= r.last }

func (p *problems) portRange(name string, r portRange) {
	p.port(name+" first port", r.first)
	p.port(name+" last port", r.last)
	p.check(r.wellFormed(), "%s %v is reversed: first must be <= last", name, r)
}

// validate checks the ports one by one and then that no two kinds of agent
// can be handed the same port.
func (n Network) validate(p *problems) {
	referees := portRange{n.RefereePortFirst, n.RefereePortLast}
	players := portRange{n.PlayerPortFirst, n.PlayerPortLast}

	p.check(n.Host != "", "network.host must not be empty")
	if n.Host != "" {
		p.check(CheckHost(n.Host) == nil, "network.host %q: %v", n.Host, CheckHost(n.Host))
	}
	p.check((n.TLSCert == "") == (n.TLSKey == ""),
		"network.tls_cert_file and network.tls_key_file go together (--tls-cert and --tls-key): got only one")
	if n.Advertise != "" {
		p.check(validAgentURL(n.Advertise),
			"network.advertise_url %q must be an http:// or https:// URL with a host (--advertise), e.g. https://203.0.113.7:8101/mcp", n.Advertise)
	}
	p.port("network.manager_port", n.ManagerPort)
	p.portRange("network.referee_port_range", referees)
	p.portRange("network.player_port_range", players)

	p.check(!referees.contains(n.ManagerPort),
		"network.manager_port %d lies inside network.referee_port_range %v", n.ManagerPort, referees)
	p.check(!players.contains(n.ManagerPort),
		"network.manager_port %d lies inside network.player_port_range %v", n.ManagerPort, players)
	if referees.wellFormed() && players.wellFormed() {
		p.check(!referees.overlaps(players),
			"network.referee_port_range %v overlaps network.player_port_range %v", referees, players)
	}
}

func (t Timeouts) validate(p *problems) {
	p.positive("timeouts.register_referee", t.RegisterReferee)
	p.positive("timeouts.register_player", t.RegisterPlayer)
	p.positive("timeouts.join_ack", t.JoinAck)
	p.positive("timeouts.move", t.Move)
	p.positive("timeouts.game_over", t.GameOver)
	p.positive("timeouts.report", t.Report)
	p.positive("timeouts.query", t.Query)
	p.positive("timeouts.generic", t.Generic)
}

func (r Retry) validate(p *problems) {
	p.check(r.Attempts >= 1, "retry.attempts must be >= 1 (got %d)", r.Attempts)
	p.check(r.InitialDelay >= 0, "retry.initial_delay must be >= 0 (got %v)", r.InitialDelay)
	// >= 1 also rejects NaN; a multiplier below 1 would shrink the waits.
	p.check(r.Multiplier >= 1, "retry.multiplier must be >= 1 (got %v)", r.Multiplier)
}

func (b Breaker) validate(p *problems) {
	p.check(b.Failures >= 1, "breaker.failures must be >= 1 (got %d)", b.Failures)
	p.positive("breaker.reset", b.Reset)
}

func (s Scoring) validate(p *problems) {
	p.nonNegative("scoring.win", s.Win)
	p.nonNegative("scoring.draw", s.Draw)
	p.nonNegative("scoring.loss", s.Loss)
	p.nonNegative("scoring.technical_loss", s.TechnicalLoss)
}

// minTokenBytes is the shortest token worth having: 128 random bits.
const minTokenBytes = 16

func (s Security) validate(p *problems) {
	p.check(s.TokenBytes >= minTokenBytes,
		"security.token_bytes must be >= %d (got %d)", minTokenBytes, s.TokenBytes)
	if s.AuthTokens {
		p.positive("security.token_ttl", s.TokenTTL)
	}
}

func (pt Participants) validate(p *problems) {
	p.check(pt.MinPlayers >= 2, "participants.min_players must be >= 2 (got %d)", pt.MinPlayers)
	p.check(pt.MaxPlayers >= pt.MinPlayers,
		"participants.max_players must be >= participants.min_players (got %d < %d)", pt.MaxPlayers, pt.MinPlayers)
	p.check(pt.MinReferees >= 1, "participants.min_referees must be >= 1 (got %d)", pt.MinReferees)
}
