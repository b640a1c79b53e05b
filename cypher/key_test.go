package cypher_test

// API keys in the store: made, listed, found, revoked.

import (
	"context"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	ctx, cancel := context.WithTimeout(casegraph.AsOperator(context.Background()), 30*time.Second)
	defer cancel()
	ds := cyphertest.Dataset(t)

	key, token, err := s.CreateAPIKey(ctx, casegraph.NewAPIKey{Name: "analyst " + ds, Role: casegraph.RoleReader, Datasets: []string{ds}}, "operator")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, err := neo4j.ExecuteQuery(casegraph.AsOperator(context.Background()), s.Driver(), `MATCH (k:ApiKey {id: $id}) DELETE k`, map[string]any{"id": key.ID}, neo4j.EagerResultTransformer)
		if err != nil {
			t.Error(err)
		}
	})
	if key.Role != casegraph.RoleReader || key.CreatedBy != "operator" || key.CreatedAt.IsZero() || key.Revoked() || !key.LastUsedAt.IsZero() {
		t.Errorf("created %+v", key)
	}
	id, secret, ok := casegraph.ParseKeyToken(token)
	if !ok || id != key.ID {
		t.Fatalf("token %q does not name key %s", token, key.ID)
	}

	got, hash, found, err := s.APIKeyByID(ctx, key.ID)
	if err != nil || !found {
		t.Fatalf("APIKeyByID: %v, found %v", err, found)
	}
	if !casegraph.KeySecretMatches(secret, hash) {
		t.Error("the stored hash does not match the token's secret")
	}
	if got.Principal().ID != "key:"+key.ID || got.Principal().Datasets[0] != ds {
		t.Errorf("principal %+v", got.Principal())
	}
	if _, _, found, err := s.APIKeyByID(ctx, "0000000000000000"); err != nil || found {
		t.Errorf("an unknown id: found %v, %v", found, err)
	}

	listed, err := s.APIKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var seen bool
	for _, k := range listed {
		seen = seen || k.ID == key.ID
	}
	if !seen {
		t.Errorf("APIKeys does not list %s", key.ID)
	}

	if err := s.TouchAPIKey(ctx, key.ID); err != nil {
		t.Fatal(err)
	}
	if got, _, _, _ = s.APIKeyByID(ctx, key.ID); got.LastUsedAt.IsZero() {
		t.Error("TouchAPIKey left lastUsedAt unset")
	}

	revoked, err := s.RevokeAPIKey(ctx, key.ID)
	if err != nil || !revoked.Revoked() {
		t.Fatalf("RevokeAPIKey: %+v, %v", revoked, err)
	}
	again, err := s.RevokeAPIKey(ctx, key.ID)
	if err != nil || !again.RevokedAt.Equal(revoked.RevokedAt) {
		t.Errorf("a second revocation moved the time: %v then %v (%v)", revoked.RevokedAt, again.RevokedAt, err)
	}
	if _, err := s.RevokeAPIKey(ctx, "0000000000000000"); casegraph.ErrorCode(err) != casegraph.CodeNotFound {
		t.Errorf("revoking an unknown key: %v, want NOT_FOUND", err)
	}
	if _, _, err := s.CreateAPIKey(ctx, casegraph.NewAPIKey{Name: "x", Role: "owner"}, "operator"); casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
		t.Errorf("a bad role: %v, want BAD_USER_INPUT", err)
	}
}
