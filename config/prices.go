package config

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// Price is what a model's tokens cost in US dollars per million tokens.
// Set tells a price given as 0 (a local server that costs nothing) from
// no price at all.
type Price struct {
	InputPerMillion  float64
	OutputPerMillion float64
	Set              bool
}

// PricesFile is the config folder's price table: prices.json.
const PricesFile = "prices.json"

// DefaultPrices is the built-in price table: the models the docs name,
// keyed "provider/model", at the providers' list prices (USD per million
// tokens) when this table was written. A config folder's prices.json adds
// to it and overrides it; --llm-price (or a roster entry's "price") gives
// one player's price whatever the table says.
func DefaultPrices() map[string]Price {
	return map[string]Price{
		"openai/gpt-4o-mini":                {InputPerMillion: 0.15, OutputPerMillion: 0.60, Set: true},
		"openai/gpt-4o":                     {InputPerMillion: 2.50, OutputPerMillion: 10.00, Set: true},
		"anthropic/claude-3-5-haiku-latest": {InputPerMillion: 0.80, OutputPerMillion: 4.00, Set: true},
	}
}

// priceEntry is one price as prices.json and a roster spell it.
type priceEntry struct {
	InputPerMillion  *float64 `json:"input_per_million"`
	OutputPerMillion *float64 `json:"output_per_million"`
}

func (e priceEntry) price() (Price, error) {
	if e.InputPerMillion == nil || e.OutputPerMillion == nil {
		return Price{}, fmt.Errorf("want both input_per_million and output_per_million")
	}
	p := Price{InputPerMillion: *e.InputPerMillion, OutputPerMillion: *e.OutputPerMillion, Set: true}
	return p, p.Check()
}

// MaxPricePerMillion bounds a price: a dollar a token, over a thousand
// times the dearest model's list price. Under it, what any count of
// tokens costs is a finite number (math.MaxInt64 tokens at it are about
// 1e25 dollars), so no estimate overflows to +Inf.
const MaxPricePerMillion = 1e6

// Check refuses a price that is not a number from 0 to
// MaxPricePerMillion: negative, NaN, infinite or one at which a cost
// could overflow.
func (p Price) Check() error {
	for _, v := range []float64{p.InputPerMillion, p.OutputPerMillion} {
		if math.IsNaN(v) || v < 0 || v > MaxPricePerMillion {
			return fmt.Errorf("a price must be a number from 0 to %d USD per million tokens (got %g and %g)",
				int64(MaxPricePerMillion), p.InputPerMillion, p.OutputPerMillion)
		}
	}
	return nil
}

// pricesFile is prices.json: {"prices": {"provider/model": {...}}}.
type pricesFile struct {
	Prices map[string]priceEntry `json:"prices"`
}

// LoadPrices is the price table: DefaultPrices with the config folder's
// prices.json over it (dir "" or no file: the defaults alone).
func LoadPrices(dir string) (map[string]Price, error) {
	table := DefaultPrices()
	if dir == "" {
		return table, nil
	}
	path := filepath.Join(dir, PricesFile)
	var f pricesFile
	shape := keys{"prices": nil}
	merge(shape, everyFileKeys)
	if _, err := readJSON(path, &f, shape); err != nil {
		return nil, err
	}
	for key, entry := range f.Prices {
		if provider, model, ok := strings.Cut(key, "/"); !ok || provider == "" || model == "" {
			return nil, &FileError{Path: path, Field: "prices." + key, Err: fmt.Errorf(`want "provider/model"`)}
		}
		p, err := entry.price()
		if err != nil {
			return nil, &FileError{Path: path, Field: "prices." + key, Err: err}
		}
		table[key] = p
	}
	return table, nil
}

// PriceKey is a model's key in the price table.
func PriceKey(provider, model string) string {
	if provider == "" {
		provider = "openai"
	}
	return provider + "/" + model
}

// ModelPrice is the price of the model l names: its own (--llm-price, a
// roster entry's), else the table's of the config folder dir; Set is false
// when neither has one.
func ModelPrice(dir string, l LLM) (Price, error) {
	if l.Price.Set {
		return l.Price, nil
	}
	table, err := LoadPrices(dir)
	if err != nil {
		return Price{}, err
	}
	return table[PriceKey(l.Provider, l.Model)], nil
}

// parsePrice reads --llm-price: "IN,OUT" in USD per million tokens; ""
// leaves the price to the table.
func parsePrice(raw string) (Price, error) {
	if raw == "" {
		return Price{}, nil // the table's
	}
	in, out, ok := strings.Cut(raw, ",")
	if !ok {
		return Price{}, fmt.Errorf(`want "IN,OUT", USD per million input and output tokens, e.g. 0.15,0.60`)
	}
	var p Price
	var err error
	if p.InputPerMillion, err = strconv.ParseFloat(strings.TrimSpace(in), 64); err != nil {
		return Price{}, fmt.Errorf("input price %q is not a number", in)
	}
	if p.OutputPerMillion, err = strconv.ParseFloat(strings.TrimSpace(out), 64); err != nil {
		return Price{}, fmt.Errorf("output price %q is not a number", out)
	}
	p.Set = true
	return p, p.Check()
}

// String writes the price as --llm-price takes it ("" when not set).
func (p Price) String() string {
	if !p.Set {
		return ""
	}
	return strconv.FormatFloat(p.InputPerMillion, 'f', -1, 64) + "," + strconv.FormatFloat(p.OutputPerMillion, 'f', -1, 64)
}
