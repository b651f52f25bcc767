package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A price that is not a number from 0 to MaxPricePerMillion (NaN, an
// infinity, a negative one, one at which a cost could overflow) is
// refused wherever a price is given: --llm-price (and its variable), as a
// FlagError naming the flag, which the command exits 2 for; prices.json,
// naming the file and the key; a roster entry's llm.price.
func TestPriceMustBeAFiniteNumberInRange(t *testing.T) {
	for _, raw := range []string{"NaN,NaN", "nan,1", "1,NaN", "Inf,1", "1,+Inf", "-Inf,1", "1e308,1", "1,1e400", "1,1000001", "-0.5,1"} {
		if p, err := parsePrice(raw); err == nil {
			t.Errorf("parsePrice(%q) took it: %+v", raw, p)
		}
		_, err := newFlags(t, "--llm-price", raw).ResolveWith(env(nil))
		var fe *FlagError
		if !errors.As(err, &fe) || fe.Flag != "llm-price" || !strings.Contains(err.Error(), "--llm-price") {
			t.Errorf("--llm-price %s: %v; want a FlagError naming the flag", raw, err)
		}
		_, err = newFlags(t).ResolveWith(env(map[string]string{"LEAGUETUI_LLM_PRICE": raw}))
		if err == nil || !strings.Contains(err.Error(), "LEAGUETUI_LLM_PRICE") {
			t.Errorf("LEAGUETUI_LLM_PRICE=%s: %v; want it refused, naming the variable", raw, err)
		}
	}
	for _, ok := range []string{"0,0", fmt.Sprintf("%g,%g", float64(MaxPricePerMillion), float64(MaxPricePerMillion))} {
		if _, err := parsePrice(ok); err != nil {
			t.Errorf("parsePrice(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"1e308", "1000001", "-1"} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, PricesFile), `{"prices": {"openai/x": {"input_per_million": 1, "output_per_million": `+bad+`}}}`)
		_, err := LoadPrices(dir)
		var fe *FileError
		if !errors.As(err, &fe) || fe.Field != "prices.openai/x" {
			t.Errorf("prices.json with %s: %v; want a FileError at prices.openai/x", bad, err)
		}
		_, err = LoadRoster(writeRoster(t, `{"players":[{"name":"gpt","strategy":"llm","llm":{"model":"m",
			"price":{"input_per_million":`+bad+`,"output_per_million":1}}},{"name":"x","strategy":"random"}]}`), "")
		if err == nil || !strings.Contains(err.Error(), "llm.price") {
			t.Errorf("a roster price of %s: %v", bad, err)
		}
	}
}

// docs/configuration.md says the bound a price is checked against.
func TestPriceBoundInTheDocs(t *testing.T) {
	page, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("from 0 to %d USD per million tokens", int64(MaxPricePerMillion)); !strings.Contains(string(page), want) {
		t.Errorf("docs/configuration.md does not say %q", want)
	}
}
