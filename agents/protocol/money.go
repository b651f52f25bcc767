package protocol

import "strconv"

// Price is what a model's tokens cost in US dollars per million tokens, as
// the price table (or the player's own --llm-price) says. Money shown
// anywhere is an estimate from it: the provider's bill is the truth.
type Price struct {
	InputPerMillion  float64 `json:"input_per_million"`
	OutputPerMillion float64 `json:"output_per_million"`
}

// Cost is the estimate of in input and out output tokens at the price.
func (p Price) Cost(in, out int64) float64 {
	return (float64(in)*p.InputPerMillion + float64(out)*p.OutputPerMillion) / 1e6
}

// costOf is the estimate of the tokens at price, nil without a price.
func costOf(price *Price, in, out int64) *float64 {
	if price == nil {
		return nil
	}
	cost := price.Cost(in, out)
	return &cost
}

// NoPrice is what a view says of a model whose price nobody gave.
const NoPrice = "no price"

// Money writes an estimate in US dollars ("~$0.000432", "~$12.34"), or
// NoPrice for nil: cents for a dollar or more, millionths below.
func Money(usd *float64) string {
	if usd == nil {
		return NoPrice
	}
	decimals := 6
	if *usd >= 1 {
		decimals = 2
	}
	return "~$" + strconv.FormatFloat(*usd, 'f', decimals, 64)
}
