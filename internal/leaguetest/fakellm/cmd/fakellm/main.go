// Command fakellm runs the fake language-model provider of the tests on a
// free port of 127.0.0.1, to try the llm strategy without a model:
//
//	go run ./internal/leaguetest/fakellm/cmd/fakellm -answers good
//
// -rate limits it to that many requests a second (429 past it), and
// -rate-headers states the limit in the API's rate-limit headers.
//
// It prints the base URLs to give --llm-base-url and serves until
// interrupted.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/leaguetui/leaguetui/internal/leaguetest/fakellm"
)

func main() {
	answers := flag.String("answers", "good", fmt.Sprintf("comma-separated answers, used in turn, the last one for good: %v", fakellm.Answers))
	rate := flag.Float64("rate", 0, "answer 429 to the requests past this many a second (0: no limit)")
	rateHeaders := flag.Bool("rate-headers", false, "with -rate, state the limit in the API's rate-limit headers")
	flag.Parse()
	var list []fakellm.Answer
	for _, a := range strings.Split(*answers, ",") {
		answer := fakellm.Answer(strings.TrimSpace(a))
		if !slices.Contains(fakellm.Answers, answer) {
			fmt.Fprintf(os.Stderr, "fakellm: unknown answer %q (want one of %v)\n", answer, fakellm.Answers)
			os.Exit(2)
		}
		list = append(list, answer)
	}
	fake := fakellm.Start(list...)
	if *rate > 0 {
		fake.Limit(*rate, *rateHeaders)
	}
	defer fake.Close()
	fmt.Printf("openai: --llm-provider openai --llm-base-url %s\nanthropic: --llm-provider anthropic --llm-base-url %s\n", fake.OpenAIURL(), fake.URL)
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt)
	<-interrupt
}
