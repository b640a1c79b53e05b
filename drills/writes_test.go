//go:build drills

package drills

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// upsertSource writes the source a dataset's entities cite.
func upsertSource(ctx context.Context, c *Client, id, ds string) Outcome {
	return c.GraphQL(ctx, `mutation($in: SourceInput!) { upsertSource(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"id": id, "title": "Drill source " + id, "dataset": ds}}, nil)
}

// entityInput is a person of dataset ds citing src; without an id when id
// is empty (the server makes one up).
func entityInput(ds, src, id, name string) map[string]any {
	in := map[string]any{"kind": "PERSON", "name": name, "dataset": ds, "sourceIds": []string{src}}
	if id != "" {
		in["id"] = id
	}
	return in
}

// upsertEntity sends upsertEntity, with an Idempotency-Key when key is set.
func upsertEntity(ctx context.Context, c *Client, in map[string]any, key string) Outcome {
	var header map[string]string
	if key != "" {
		header = map[string]string{"Idempotency-Key": key}
	}
	return c.GraphQL(ctx, `mutation($in: EntityInput!) { upsertEntity(input: $in) { id name } }`, map[string]any{"in": in}, header)
}

// stored is one entity as listed.
type stored struct{ ID, Name string }

// entitiesOf lists every entity of a dataset, page by page.
func entitiesOf(t *testing.T, ctx context.Context, c *Client, ds string) []stored {
	t.Helper()
	var out []stored
	var after string
	for {
		o := untilOK(t, "listing dataset "+ds, func() Outcome {
			return c.GraphQL(ctx, `query($ds: String!, $after: String) {
				entities(filter: {datasets: [$ds]}, first: 100, after: $after) {
					edges { node { id name } } pageInfo { hasNextPage endCursor } } }`,
				map[string]any{"ds": ds, "after": nullable(after)}, nil)
		})
		var page struct {
			Entities struct {
				Edges []struct {
					Node stored `json:"node"`
				} `json:"edges"`
				PageInfo struct {
					HasNextPage bool   `json:"hasNextPage"`
					EndCursor   string `json:"endCursor"`
				} `json:"pageInfo"`
			} `json:"entities"`
		}
		if err := json.Unmarshal(o.Data, &page); err != nil {
			t.Fatalf("listing dataset %s: %v", ds, err)
		}
		for _, edge := range page.Entities.Edges {
			out = append(out, edge.Node)
		}
		if !page.Entities.PageInfo.HasNextPage {
			return out
		}
		after = page.Entities.PageInfo.EndCursor
	}
}

// nullable is s, or JSON null when empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// upserted is the id an upsertEntity answer gives.
func upserted(o Outcome) (string, error) {
	var d struct {
		UpsertEntity struct{ ID string } `json:"upsertEntity"`
	}
	if err := json.Unmarshal(o.Data, &d); err != nil || d.UpsertEntity.ID == "" {
		return "", fmt.Errorf("no id in %s (%v)", clip(o.Data), err)
	}
	return d.UpsertEntity.ID, nil
}
