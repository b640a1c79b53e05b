package cypher

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// RevokeAPIKeyAsLast runs RevokeAPIKey's transaction for key id in a
// transaction where every other live admin key looks revoked
// (testdata/HideOtherAdminKeys), as if id were the last, and rolls it back
// whatever it answered. newcomers counts admin keys committed by other
// tests meanwhile, still live at the end: when there are any, id was not
// the last, and the test tries again.
func (s *Store) RevokeAPIKeyAsLast(ctx context.Context, id string) (key casegraph.APIKey, newcomers int64, err error) {
	if err := casegraph.RequireAdmin(ctx); err != nil {
		return casegraph.APIKey{}, 0, err
	}
	hide, err := testStatements.ReadFile("testdata/HideOtherAdminKeys.cypher")
	if err != nil {
		return casegraph.APIKey{}, 0, err
	}
	count, err := testStatements.ReadFile("testdata/CountOtherAdminKeys.cypher")
	if err != nil {
		return casegraph.APIKey{}, 0, err
	}
	session := s.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: s.database, AccessMode: neo4j.AccessModeWrite})
	defer session.Close(ctx)
	tx, err := session.BeginTransaction(ctx)
	if err != nil {
		return casegraph.APIKey{}, 0, err
	}
	defer tx.Rollback(ctx)
	params := map[string]any{"id": id}
	if _, err := tx.Run(ctx, string(hide), params); err != nil {
		return casegraph.APIKey{}, 0, err
	}
	key, _, revokeErr := revokeAPIKey(ctx, s.inTx(ctx, tx), id)
	res, err := tx.Run(ctx, string(count), params)
	if err != nil {
		return casegraph.APIKey{}, 0, err
	}
	rec, err := res.Single(ctx)
	if err != nil {
		return casegraph.APIKey{}, 0, err
	}
	n, _, err := neo4j.GetRecordValue[int64](rec, "n")
	if err != nil {
		return casegraph.APIKey{}, 0, err
	}
	return key, n, revokeErr
}
