package check

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
)

// Status is a check's verdict.
type Status string

// The verdicts.
const (
	Pass Status = "PASS"
	Fail Status = "FAIL"
	Skip Status = "SKIP"
)

// Result is one check's verdict and, for a failure, what the checker sent,
// what came back and what it expected.
type Result struct {
	ID       string `json:"id"`
	Level    Level  `json:"level"`
	Status   Status `json:"status"`
	Summary  string `json:"summary"`
	Message  string `json:"message,omitempty"` // why, in one line
	Sent     string `json:"sent,omitempty"`
	Got      string `json:"got,omitempty"`
	Expected string `json:"expected,omitempty"`
	Doc      string `json:"doc"`
	Guide    string `json:"guide,omitempty"` // the player's guide's section that states the rule
	// ExpectedFailure marks a check --expected-failures lists.
	ExpectedFailure bool `json:"expected_failure,omitempty"`
}

// Report is a whole run's verdicts, in catalogue order.
type Report struct {
	Role    Role     `json:"role"`
	Games   []string `json:"games"`
	Results []Result `json:"results"`
	// Strict makes the conformance verdict (MUST and SHOULD) count for the
	// exit status as well as the verdict "plays in a leaguetui league".
	Strict bool `json:"strict"`
	// Sandbox is the strength of the sandbox the agent ran in, in the
	// line a league's program log begins with: the verdicts hold for an
	// agent confined so, and what it names as not confined was not held
	// back.
	Sandbox string `json:"sandbox"`
}

// Summary counts a report's verdicts.
type Summary struct {
	Passed   int `json:"passed"`
	Failed   int `json:"failed"`
	Skipped  int `json:"skipped"`
	Expected int `json:"expected_failures"` // failures --expected-failures allowed
	// Plays is the verdict "plays in a leaguetui league": no PLAYS check
	// failed. Conforms is league.v2 conformance: no MUST or SHOULD check
	// run failed.
	Plays    bool `json:"plays"`
	Conforms bool `json:"conforms"`
	// OK decides the exit status: Plays, and Conforms too with --strict.
	OK bool `json:"ok"`
}

// Summary counts the verdicts. A failure the expected-failures list
// allows does not count against the run; a listed check that passed does,
// so that the list stays true.
func (r Report) Summary() Summary {
	s := Summary{Plays: true, Conforms: true}
	listStale := false // a listed check passed: the list is wrong, whatever the verdicts
	for _, res := range r.Results {
		listStale = listStale || res.Status == Pass && res.ExpectedFailure
		failed := false
		switch {
		case res.Status == Fail && res.ExpectedFailure:
			s.Expected++
		case res.Status == Fail, res.Status == Pass && res.ExpectedFailure:
			s.Failed++
			failed = true
		case res.Status == Pass:
			s.Passed++
		default:
			s.Skipped++
		}
		if failed && res.Level == Plays {
			s.Plays = false
		} else if failed {
			s.Conforms = false
		}
	}
	s.OK = s.Plays && (s.Conforms || !r.Strict) && !listStale
	return s
}

// ReadExpectedFailures reads a file of check ids, one a line; blank lines
// and lines starting with # are ignored. An id no check has is an error,
// so that a typo cannot hide a failure.
func ReadExpectedFailures(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if _, ok := Lookup(line); !ok {
			return nil, fmt.Errorf("%s:%d: no check has the id %q", path, n, line)
		}
		out[line] = true
	}
	return out, sc.Err()
}

// MarkExpected marks the results the expected-failures list names, and
// turns a listed check that passed into a failure that says so.
func (r *Report) MarkExpected(ids map[string]bool) {
	for i := range r.Results {
		res := &r.Results[i]
		if !ids[res.ID] {
			continue
		}
		res.ExpectedFailure = true
		if res.Status == Pass {
			res.Message = "listed in --expected-failures but passed: take it off the list"
		}
	}
}

// WriteText writes the two verdicts, each a heading and one line per
// check with the details of each failure under it, then the summary.
func (r Report) WriteText(w io.Writer) {
	var plays, conformance []Result
	for _, res := range r.Results {
		if res.Level == Plays {
			plays = append(plays, res)
		} else {
			conformance = append(conformance, res)
		}
	}
	s := r.Summary()
	heading := "Plays in a leaguetui league"
	if r.Role == GameRole {
		heading = "Runs as a leaguetui game"
	}
	fmt.Fprintf(w, "%s: %s\n", heading, yesNo(s.Plays))
	writeResults(w, plays)
	if len(conformance) > 0 || r.Role != GameRole { // a game program speaks no league.v2
		r.writeConformance(w, s, conformance)
	}
	verdict := "OK"
	if !s.OK {
		verdict = "FAILED"
	}
	fmt.Fprintf(w, "\n%s: %d passed, %d failed, %d skipped", verdict, s.Passed, s.Failed, s.Skipped)
	if s.Expected > 0 {
		fmt.Fprintf(w, ", %d expected failures", s.Expected)
	}
	fmt.Fprintf(w, "\nsandbox: %s\n", r.Sandbox)
}

// writeConformance writes the league.v2 conformance verdict and its checks.
func (r Report) writeConformance(w io.Writer, s Summary, conformance []Result) {
	counts := "counts for the exit status with --strict"
	if r.Strict {
		counts = "counts for the exit status (--strict)"
	}
	fmt.Fprintf(w, "\nleague.v2 conformance: %s (%s)\n", yesNo(s.Conforms), counts)
	writeResults(w, conformance)
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

// writeResults writes one line per check, with the details of each
// failure under it.
func writeResults(w io.Writer, results []Result) {
	for _, res := range results {
		status := string(res.Status)
		switch {
		case res.ExpectedFailure && res.Status == Fail:
			status = "XFAIL"
		case res.ExpectedFailure && res.Status == Pass:
			status = "XPASS"
		}
		line := fmt.Sprintf("%-5s %-6s %s", status, res.Level, res.ID)
		if res.Message != "" && res.Status != Fail {
			line += ": " + res.Message
		}
		fmt.Fprintln(w, line)
		if res.Status != Fail {
			continue
		}
		for _, d := range []struct{ name, text string }{{"why", res.Message}, {"sent", res.Sent},
			{"got", res.Got}, {"expected", res.Expected}, {"see", res.Doc}, {"guide", res.Guide}} {
			if d.text != "" {
				fmt.Fprintf(w, "      %-8s %s\n", d.name+":", d.text)
			}
		}
	}
}

// WriteJSON writes one JSON object per check, one a line, then
// {"summary":…}.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	for _, res := range r.Results {
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	return enc.Encode(map[string]any{"summary": r.Summary(), "role": r.Role, "games": r.Games, "sandbox": r.Sandbox})
}

// JUnit XML, the subset CI systems read: one testsuite, one testcase per
// check, a failure or skipped element where one applies.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// WriteJUnit writes the report as JUnit XML.
func (r Report) WriteJUnit(w io.Writer) error {
	s := r.Summary()
	suite := junitSuite{Name: "leaguetui check " + string(r.Role), Tests: len(r.Results), Failures: s.Failed, Skipped: s.Skipped + s.Expected,
		Properties: []junitProperty{{Name: "sandbox", Value: r.Sandbox}}}
	for _, res := range r.Results {
		area, _, _ := strings.Cut(res.ID, "/")
		c := junitCase{Name: res.ID, Classname: "leaguetui.check." + area}
		failed := (res.Status == Fail && !res.ExpectedFailure) || (res.Status == Pass && res.ExpectedFailure)
		switch {
		case failed:
			c.Failure = &junitFailure{Message: res.Message, Text: fmt.Sprintf("%s\nsent: %s\ngot: %s\nexpected: %s\nsee: %s",
				res.Summary, res.Sent, res.Got, res.Expected, res.Doc)}
		case res.Status == Skip || res.ExpectedFailure:
			c.Skipped = &junitSkipped{Message: res.Message}
		}
		suite.Cases = append(suite.Cases, c)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(junitSuites{Suites: []junitSuite{suite}}); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
