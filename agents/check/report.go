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
	// ExpectedFailure marks a check --expected-failures lists.
	ExpectedFailure bool `json:"expected_failure,omitempty"`
}

// Report is a whole run's verdicts, in catalogue order.
type Report struct {
	Role    Role     `json:"role"`
	Games   []string `json:"games"`
	Results []Result `json:"results"`
}

// Summary counts a report's verdicts.
type Summary struct {
	Passed   int  `json:"passed"`
	Failed   int  `json:"failed"`
	Skipped  int  `json:"skipped"`
	Expected int  `json:"expected_failures"` // failures --expected-failures allowed
	OK       bool `json:"ok"`
}

// Summary counts the verdicts. A failure the expected-failures list
// allows does not count against the run; a listed check that passed does,
// so that the list stays true.
func (r Report) Summary() Summary {
	var s Summary
	for _, res := range r.Results {
		switch {
		case res.Status == Fail && res.ExpectedFailure:
			s.Expected++
		case res.Status == Fail:
			s.Failed++
		case res.Status == Pass && res.ExpectedFailure:
			s.Failed++
		case res.Status == Pass:
			s.Passed++
		default:
			s.Skipped++
		}
	}
	s.OK = s.Failed == 0
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

// WriteText writes one line per check, with the details of each failure
// under it, then the summary.
func (r Report) WriteText(w io.Writer) {
	for _, res := range r.Results {
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
			{"got", res.Got}, {"expected", res.Expected}, {"see", res.Doc}} {
			if d.text != "" {
				fmt.Fprintf(w, "      %-8s %s\n", d.name+":", d.text)
			}
		}
	}
	s := r.Summary()
	verdict := "OK"
	if !s.OK {
		verdict = "FAILED"
	}
	fmt.Fprintf(w, "%s: %d passed, %d failed, %d skipped", verdict, s.Passed, s.Failed, s.Skipped)
	if s.Expected > 0 {
		fmt.Fprintf(w, ", %d expected failures", s.Expected)
	}
	fmt.Fprintln(w)
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
	return enc.Encode(map[string]any{"summary": r.Summary(), "role": r.Role, "games": r.Games})
}

// JUnit XML, the subset CI systems read: one testsuite, one testcase per
// check, a failure or skipped element where one applies.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
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
	suite := junitSuite{Name: "leaguetui check " + string(r.Role), Tests: len(r.Results), Failures: s.Failed, Skipped: s.Skipped + s.Expected}
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
