//go:build drills

package drills

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// changesSubscription is the changes feed of some datasets, resumed after
// a cursor (null: from now).
const changesSubscription = `subscription($ds: [String!], $after: String) {
	changes(datasets: $ds, after: $after) { cursor change { operation targets dataset } } }`

// ChangeEvent is one event of the changes subscription: the first has no
// change, only the cursor to resume from.
type ChangeEvent struct {
	Cursor string `json:"cursor"`
	Change *struct {
		Operation string   `json:"operation"`
		Targets   []string `json:"targets"`
		Dataset   string   `json:"dataset"`
	} `json:"change"`
}

// Subscription is one changes subscription over server-sent events.
type Subscription struct {
	ServedBy string // the replica a load balancer sent it to (X-Served-By)
	body     io.ReadCloser
	lines    *bufio.Scanner
}

// SubscribeChanges opens changes(datasets, after) over server-sent events
// (POST /graphql with Accept: text/event-stream) and returns once the
// answer's headers came. The stream lasts until ctx ends, Close, or the
// server (or the balancer) ends it: c's timeout does not bound it.
func (c *Client) SubscribeChanges(ctx context.Context, datasets []string, after string) (*Subscription, error) {
	vars := map[string]any{"ds": datasets, "after": nil}
	if after != "" {
		vars["after"] = after
	}
	body, err := json.Marshal(map[string]any{"query": changesSubscription, "variables": vars})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Base+"/graphql", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := (&http.Client{Transport: c.HTTP.Transport}).Do(req)
	if err != nil {
		return nil, err
	}
	if ct := res.Header.Get("Content-Type"); res.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		raw, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
		res.Body.Close()
		return nil, fmt.Errorf("subscription: HTTP %d, Content-Type %q: %s", res.StatusCode, ct, clip(raw))
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	return &Subscription{ServedBy: res.Header.Get("X-Served-By"), body: res.Body, lines: sc}, nil
}

// errStreamEnded is Next's error when the server completed the stream.
var errStreamEnded = errors.New("the stream ended")

// Next waits for the next event. An error means the stream is over: it
// broke (the replica died), the server completed it, or an event carried
// an error.
func (s *Subscription) Next() (ChangeEvent, error) {
	for s.lines.Scan() {
		line := s.lines.Text()
		if line == "event: complete" {
			return ChangeEvent{}, errStreamEnded
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue // the event's name, pings, the blank line between events
		}
		var r struct {
			Data struct {
				Changes *ChangeEvent `json:"changes"`
			} `json:"data"`
			Errors []gqlError `json:"errors"`
		}
		if err := json.Unmarshal([]byte(data), &r); err != nil {
			return ChangeEvent{}, fmt.Errorf("event %s: %w", clip([]byte(data)), err)
		}
		if len(r.Errors) > 0 || r.Data.Changes == nil {
			return ChangeEvent{}, fmt.Errorf("event with an error: %s", clip([]byte(data)))
		}
		return *r.Data.Changes, nil
	}
	if err := s.lines.Err(); err != nil {
		return ChangeEvent{}, err
	}
	return ChangeEvent{}, io.ErrUnexpectedEOF
}

// Close ends the subscription.
func (s *Subscription) Close() error { return s.body.Close() }
