package cypher

import (
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// Record mapping: every read of a record value checks its type and reports a
// mismatch as an error; a statement that returns something unexpected is a
// bug to see in the log, never a zero value passed on silently.

func getString(rec *neo4j.Record, key string) (string, error) {
	v, isNil, err := neo4j.GetRecordValue[string](rec, key)
	if err != nil {
		return "", fmt.Errorf("record %s: %w", key, err)
	}
	if isNil {
		return "", nil
	}
	return v, nil
}

func getInt(rec *neo4j.Record, key string) (int64, error) {
	v, _, err := neo4j.GetRecordValue[int64](rec, key) // nil reads as 0
	if err != nil {
		return 0, fmt.Errorf("record %s: %w", key, err)
	}
	return v, nil
}

func getStrings(rec *neo4j.Record, key string) ([]string, error) {
	raw, isNil, err := neo4j.GetRecordValue[[]any](rec, key)
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", key, err)
	}
	if isNil {
		return nil, nil
	}
	out := make([]string, 0, len(raw))
	for i, v := range raw {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("record %s[%d]: want string, got %T", key, i, v)
		}
		out = append(out, s)
	}
	return out, nil
}
