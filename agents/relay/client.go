package relay

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
)

// AnswerAndPoll is a pull player's side of POST /pull/<id>/next, at next
// (the route's URL): it posts answer as the answer to the call delivery
// names (none when delivery is empty) and gives the seat's next call,
// its body (at most maxCall bytes read) and its delivery id, or no id
// when the poll's wait ended with none (204). Any other status is an
// error naming it.
func AnswerAndPoll(ctx context.Context, client *http.Client, next, token, delivery string, answer []byte, maxCall int64) ([]byte, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, next, bytes.NewReader(answer))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if delivery != "" {
		req.Header.Set(DeliveryHeader, delivery)
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxCall))
	switch {
	case err != nil:
		return nil, "", err
	case resp.StatusCode == http.StatusNoContent:
		return nil, "", nil
	case resp.StatusCode != http.StatusOK:
		return nil, "", fmt.Errorf("the relay answered the poll with HTTP %d", resp.StatusCode)
	}
	return body, resp.Header.Get(DeliveryHeader), nil
}
