package fakellm

import (
	"net/http"
	"net/http/httptest"
	"slices"

	"github.com/leaguetui/leaguetui/agents/llm"
)

// The answers a scripted model gives to fail the way a real model does, for
// the failure scan (league/scan): each is a link-race answer.
const (
	Refusal      Answer = "refusal"        // text only, declining to play
	NearMissLink Answer = "near_miss_link" // the right tool with a link of the page cut by its last letter
	Revisit      Answer = "revisit"        // the right tool with the race's start page, already on the path
	Wander       Answer = "wander"         // a legal link, never the target, one not yet visited where it can
)

// RefusalText is what a Refusal answer says.
const RefusalText = "I'm sorry, but I can't help with that."

// StartScripted runs a fake that answers each model by its own script:
// the answers of scripts[model] in turn, the last one for good, as Start's
// answers are. A model without a script gets Good.
func StartScripted(scripts map[string][]Answer) *Server {
	s := &Server{RetryAfter: 1, answers: []Answer{Good}, closing: make(chan struct{}), scripts: map[string]*[]Answer{}}
	for model, answers := range scripts {
		if len(answers) > 0 {
			s.scripts[model] = new(slices.Clone(answers))
		}
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// queueFor is the answers the next request of model takes from, under mu.
func (s *Server) queueFor(model string) *[]Answer {
	if q := s.scripts[model]; q != nil {
		return q
	}
	return &s.answers
}

// scripted is the tool call and text of a scripted answer: args, say and
// withCall as reply made them for any other answer.
func scripted(q asked, answer Answer, args map[string]any, say string, withCall bool) (map[string]any, string, bool) {
	links, path := jsonLine(q.prompt, llm.LinksLabel), jsonLine(q.prompt, llm.PathLabel)
	switch answer {
	case Refusal:
		return args, RefusalText, false
	case NearMissLink:
		if len(links) > 0 && len([]rune(links[0])) > 1 {
			r := []rune(links[0])
			return map[string]any{q.param: string(r[:len(r)-1])}, say, withCall
		}
	case Revisit:
		if len(path) > 0 {
			return map[string]any{q.param: path[0]}, say, withCall
		}
	case Wander:
		return map[string]any{q.param: wanderLink(q.prompt, links, path)}, say, withCall
	}
	return args, say, withCall
}

// wanderLink is a link of the page that is not the target, one off the
// path where there is one.
func wanderLink(prompt string, links, path []string) string {
	var target string
	jsonAfter(prompt, llm.TargetLabel, &target)
	fallback := IllegalPage
	for _, l := range links {
		if l == target {
			continue
		}
		if !slices.Contains(path, l) {
			return l
		}
		if fallback == IllegalPage {
			fallback = l
		}
	}
	return fallback
}
