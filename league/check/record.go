package check

import "sync"

// finding is one verdict of a check in one place (a game, a match): a
// check runs once per game it applies to, and its result is the worst of
// them.
type finding struct {
	Status                  Status
	Message, Sent, Got, Exp string
}

// recorder collects findings by check id.
type recorder struct {
	mu    sync.Mutex
	found map[string][]finding
}

func newRecorder() *recorder { return &recorder{found: map[string][]finding{}} }

func (r *recorder) add(id string, f finding) {
	if _, ok := Lookup(id); !ok {
		panic("check: no check " + id) // a typo in the checker itself
	}
	r.mu.Lock()
	r.found[id] = append(r.found[id], f)
	r.mu.Unlock()
}

func (r *recorder) pass(id, msg string) { r.add(id, finding{Status: Pass, Message: msg}) }
func (r *recorder) skip(id, why string) { r.add(id, finding{Status: Skip, Message: why}) }

// fail records a failure: why, what was sent, what came back, what was
// expected.
func (r *recorder) fail(id, why string, x exchange, expected string) {
	f := finding{Status: Fail, Message: why, Exp: expected}
	if x.Sent != nil {
		f.Sent = x.sent()
	}
	switch {
	case x.inbound:
		f.Got = "the agent sent: " + clip(x.Body)
	case x.Err != nil || x.Status != 0:
		f.Got = x.got() // an exchange made: what came back, or why nothing did
	}
	r.add(id, f)
}

// result merges the findings of one check: any failure fails it (the
// first is shown); else any pass passes it; else it was skipped.
func (r *recorder) result(d Def) Result {
	r.mu.Lock()
	found := r.found[d.ID]
	r.mu.Unlock()
	res := Result{ID: d.ID, Level: d.Level, Summary: d.Summary, Doc: d.Doc, Guide: d.Guide, Status: Skip, Message: "not run"}
	var passed *finding
	for i := range found {
		f := found[i]
		switch f.Status {
		case Fail:
			res.Status, res.Message, res.Sent, res.Got, res.Expected = Fail, f.Message, f.Sent, f.Got, f.Exp
			return res
		case Pass:
			if passed == nil {
				passed = &found[i]
			}
		}
	}
	if passed != nil {
		res.Status, res.Message = Pass, passed.Message
	} else if len(found) > 0 {
		res.Message = found[0].Message
	}
	return res
}
