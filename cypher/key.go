package cypher

// API keys: made, listed, found by id, revoked (never the last live admin
// key), and each one's last use noted.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	casegraph "github.com/casegraph/casegraph"
)

// Statements of this file (statements/NAME.cypher or NAME.cypher.tmpl).
const (
	stmtCreateAPIKey statement = "CreateAPIKey"
	stmtAPIKeys      statement = "APIKeys"
	stmtAPIKeyByID   statement = "APIKeyByID"
	stmtRevokeAPIKey statement = "RevokeAPIKey"
	stmtTouchAPIKey  statement = "TouchAPIKey"
	// stmtLockLiveAdminKeys comes before stmtRevokeAPIKey.
	stmtLockLiveAdminKeys statement = "LockLiveAdminKeys"
)

// keyUngated: the statements of this file that return no graph data to a
// caller, and why (see ungated): every other goes through the gate.
func keyUngated() ungated {
	return ungated{
		stmtCreateAPIKey:      "a write of an admin's (RequireAdmin) on a key, no graph data",
		stmtRevokeAPIKey:      "a write of an admin's (RequireAdmin) on a key, no graph data",
		stmtTouchAPIKey:       "sign-in's write of a key's last use, the operator's, no graph data",
		stmtLockLiveAdminKeys: "a revocation's lock on the live admin keys (RevokeAPIKey, an admin's), no graph data",
	}
}

// CreateAPIKey stores a new key, made by createdBy, and returns the token
// its holder sends: shown this once, stored only as a hash.
func (s *Store) CreateAPIKey(ctx context.Context, k casegraph.NewAPIKey, createdBy string) (casegraph.APIKey, string, error) {
	if err := casegraph.RequireAdmin(ctx); err != nil {
		return casegraph.APIKey{}, "", err
	}
	if err := k.Validate(); err != nil {
		return casegraph.APIKey{}, "", err
	}
	tok, err := casegraph.GenerateKeyToken()
	if err != nil {
		return casegraph.APIKey{}, "", err
	}
	datasets := k.Datasets
	if datasets == nil {
		datasets = []string{}
	}
	var key casegraph.APIKey
	err = s.mutate(ctx, string(stmtCreateAPIKey), &key, func(run txRunner) (change, error) {
		recs, err := run(stmtCreateAPIKey, map[string]any{
			"id": tok.ID, "name": k.Name, "hash": tok.Hash, "role": string(k.Role),
			"datasets": datasets, "cleared": k.Cleared, "createdBy": createdBy,
		})
		if err != nil {
			return change{}, err
		}
		if key, err = apiKeyFrom(recs[0]); err != nil {
			return change{}, internalError(string(stmtCreateAPIKey), err)
		}
		return change{operation: "createApiKey", targets: []string{key.ID},
			fields: casegraph.Diff((*casegraph.APIKey)(nil), &key)}, nil
	})
	if err != nil {
		return casegraph.APIKey{}, "", err
	}
	if key.ID != tok.ID {
		// A retry under an idempotency key whose first request created
		// the key: its token is stored only as a hash.
		return casegraph.APIKey{}, "", casegraph.Errorf(casegraph.CodeConflict,
			"this request already created the API key %q; its token was shown once and cannot be shown again: revoke the key and create another if it was lost", key.ID).
			WithReason(casegraph.ReasonTokenShownOnce)
	}
	return key, tok.Token, nil
}

// APIKeys returns every key, newest first (admins only).
func (s *Store) APIKeys(ctx context.Context) ([]casegraph.APIKey, error) {
	if err := casegraph.RequireAdmin(ctx); err != nil {
		return nil, err
	}
	res, err := s.read(ctx, stmtAPIKeys, nil)
	if err != nil {
		return nil, err
	}
	out := make([]casegraph.APIKey, 0, len(res.Records))
	for _, rec := range res.Records {
		k, err := apiKeyFrom(rec)
		if err != nil {
			return nil, internalError(string(stmtAPIKeys), err)
		}
		out = append(out, k)
	}
	return out, nil
}

// APIKeyByID returns a key and the hash of its secret, for checking a
// request's token; found is false when there is no such key.
func (s *Store) APIKeyByID(ctx context.Context, id string) (key casegraph.APIKey, hash string, found bool, err error) {
	if err := casegraph.RequireAdmin(ctx); err != nil {
		return casegraph.APIKey{}, "", false, err
	}
	res, err := s.read(ctx, stmtAPIKeyByID, map[string]any{"id": id})
	if err != nil || len(res.Records) == 0 {
		return casegraph.APIKey{}, "", false, err
	}
	if key, err = apiKeyFrom(res.Records[0]); err == nil {
		hash, err = getString(res.Records[0], "hash")
	}
	if err != nil {
		return casegraph.APIKey{}, "", false, internalError(string(stmtAPIKeyByID), err)
	}
	return key, hash, true, nil
}

// RevokeAPIKey revokes a key for good (admins only); NOT_FOUND when there
// is none. The last live admin key is refused over the API (CONFLICT,
// LAST_ADMIN_KEY): nobody could administer after it. The operator
// (`casegraph key revoke`) may revoke it, and make another with
// `casegraph key create`.
func (s *Store) RevokeAPIKey(ctx context.Context, id string) (casegraph.APIKey, error) {
	if err := casegraph.RequireAdmin(ctx); err != nil {
		return casegraph.APIKey{}, err
	}
	var k casegraph.APIKey
	err := s.mutate(ctx, string(stmtRevokeAPIKey), &k, func(run txRunner) (c change, err error) {
		k, c, err = revokeAPIKey(ctx, run, id)
		return c, err
	})
	return k, err
}

// revokeAPIKey is RevokeAPIKey's transaction.
func revokeAPIKey(ctx context.Context, run txRunner, id string) (casegraph.APIKey, change, error) {
	params := map[string]any{"id": id}
	if _, err := run(stmtLockLiveAdminKeys, params); err != nil {
		return casegraph.APIKey{}, change{}, err
	}
	recs, err := run(stmtRevokeAPIKey, params)
	if err != nil {
		return casegraph.APIKey{}, change{}, err
	}
	if len(recs) == 0 {
		return casegraph.APIKey{}, change{}, casegraph.Errorf(casegraph.CodeNotFound, "no API key %q", id)
	}
	k, err := apiKeyFrom(recs[0])
	var wasLive bool
	var liveAdmins int64
	if err == nil {
		wasLive, _, err = neo4j.GetRecordValue[bool](recs[0], "wasLive")
	}
	if err == nil {
		liveAdmins, err = getInt(recs[0], "liveAdmins")
	}
	if err != nil {
		return casegraph.APIKey{}, change{}, internalError(string(stmtRevokeAPIKey), err)
	}
	if k.Role == casegraph.RoleAdmin && wasLive && liveAdmins == 0 && casegraph.Actor(ctx) != casegraph.OperatorID {
		return casegraph.APIKey{}, change{}, casegraph.Errorf(casegraph.CodeConflict,
			"API key %q is the last live admin key: revoked, it would leave nobody able to administer; create another admin key first (or revoke it with casegraph key revoke)", id).
			WithReason(casegraph.ReasonLastAdminKey)
	}
	return k, change{operation: "revokeApiKey", targets: []string{k.ID},
		fields: []casegraph.FieldChange{{Field: "revokedAt", Old: "null", New: `"` + k.RevokedAt.UTC().Format(time.RFC3339) + `"`}}}, nil
}

// TouchAPIKey records that a key was used (at most once a minute).
func (s *Store) TouchAPIKey(ctx context.Context, id string) error {
	if err := casegraph.RequireAdmin(ctx); err != nil {
		return err
	}
	_, err := s.write(ctx, stmtTouchAPIKey, map[string]any{"id": id})
	return err
}

func apiKeyFrom(rec *neo4j.Record) (casegraph.APIKey, error) {
	m, err := getMap(rec, "key")
	if err != nil {
		return casegraph.APIKey{}, err
	}
	var k casegraph.APIKey
	var role string
	for key, dst := range map[string]*string{"id": &k.ID, "name": &k.Name, "role": &role, "createdBy": &k.CreatedBy} {
		if *dst, err = mapString(m, key); err != nil {
			return casegraph.APIKey{}, err
		}
	}
	if k.Role, err = casegraph.ParseRole(role); err != nil {
		return casegraph.APIKey{}, fmt.Errorf("key %s: %w", k.ID, err)
	}
	if k.Datasets, err = mapStrings(m, "datasets"); err != nil {
		return casegraph.APIKey{}, err
	}
	cleared, ok := m["cleared"].(bool)
	if !ok {
		return casegraph.APIKey{}, errors.New("key: cleared is not a boolean")
	}
	k.Cleared = cleared
	for key, dst := range map[string]*time.Time{"createdAt": &k.CreatedAt, "lastUsedAt": &k.LastUsedAt, "revokedAt": &k.RevokedAt} {
		if t, ok := m[key].(time.Time); ok {
			*dst = t
		}
	}
	return k, nil
}
