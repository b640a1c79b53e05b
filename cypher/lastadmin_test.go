package cypher_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/cypher"
	"github.com/casegraph/casegraph/cypher/cyphertest"
)

// TestLastAdminKey: an admin may not revoke the last live admin key, its
// own or another's (CONFLICT, LAST_ADMIN_KEY), which would leave nobody
// able to administer; the operator may; another key is revoked as before,
// and so is an admin key while another admin key is live. Tests share the
// database and its keys, so "the last" is played in a transaction that is
// rolled back, where every other live admin key looks revoked
// (RevokeAPIKeyAsLast).
func TestLastAdminKey(t *testing.T) {
	t.Parallel()
	s := cyphertest.Store(t, cypher.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	operator := casegraph.AsOperator(ctx)
	admin := casegraph.WithPrincipal(ctx, casegraph.Principal{ID: "key:test-admin", Role: casegraph.RoleAdmin, Datasets: []string{casegraph.AllDatasets}})
	made := func(role casegraph.Role) casegraph.APIKey {
		t.Helper()
		k, _, err := s.CreateAPIKey(operator, casegraph.NewAPIKey{Name: string(role) + " " + t.Name(), Role: role, Datasets: []string{casegraph.AllDatasets}}, "test")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if _, err := neo4j.ExecuteQuery(context.Background(), s.Driver(), `MATCH (k:ApiKey {id: $id}) DELETE k`,
				map[string]any{"id": k.ID}, neo4j.EagerResultTransformer); err != nil {
				t.Error(err)
			}
		})
		return k
	}
	first, second, reader := made(casegraph.RoleAdmin), made(casegraph.RoleAdmin), made(casegraph.RoleReader)
	// asLast revokes id as the last admin key would be, trying again
	// while other tests' admin keys commit in the middle.
	asLast := func(ctx context.Context, id string) (casegraph.APIKey, error) {
		for {
			k, newcomers, err := s.RevokeAPIKeyAsLast(ctx, id)
			if err != nil || newcomers == 0 {
				return k, err
			}
			t.Logf("%d admin keys came meanwhile: again", newcomers)
		}
	}
	for _, tt := range []struct {
		name string
		ctx  context.Context
		id   string
		want casegraph.Code // "" for revoked
	}{
		{"an admin, the last admin key", admin, first.ID, casegraph.CodeConflict},
		{"the operator, the last admin key", operator, first.ID, ""},
		{"an admin, another key while no admin key is left", admin, reader.ID, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			k, err := asLast(tt.ctx, tt.id)
			switch {
			case tt.want == "" && (err != nil || !k.Revoked()):
				t.Errorf("got %+v, %v; want it revoked", k, err)
			case tt.want != "" && (casegraph.ErrorCode(err) != tt.want || reasonOf(err) != casegraph.ReasonLastAdminKey):
				t.Errorf("got %+v, %v; want %s %s", k, err, tt.want, casegraph.ReasonLastAdminKey)
			}
		})
	}
	if k, err := s.RevokeAPIKey(admin, first.ID); err != nil || !k.Revoked() {
		t.Errorf("an admin key while another is live (%s): %+v, %v", second.ID, k, err)
	}
}

// reasonOf is the reason of a coded error, or "".
func reasonOf(err error) string {
	var coded *casegraph.Error
	if errors.As(err, &coded) {
		return coded.Reason
	}
	return ""
}
