package cypher

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	return toStrings(key, raw)
}

func getInts(rec *neo4j.Record, key string) ([]int, error) {
	raw, _, err := neo4j.GetRecordValue[[]any](rec, key)
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", key, err)
	}
	return toInts("record "+key, raw)
}

func toInts(key string, raw []any) ([]int, error) {
	out := make([]int, len(raw))
	for i, v := range raw {
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("%s[%d]: %T, want an integer", key, i, v)
		}
		out[i] = int(n)
	}
	return out, nil
}

func getMap(rec *neo4j.Record, key string) (map[string]any, error) {
	v, isNil, err := neo4j.GetRecordValue[map[string]any](rec, key)
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", key, err)
	}
	if isNil {
		return nil, nil
	}
	return v, nil
}

func getMaps(rec *neo4j.Record, key string) ([]map[string]any, error) {
	raw, isNil, err := neo4j.GetRecordValue[[]any](rec, key)
	if err != nil {
		return nil, fmt.Errorf("record %s: %w", key, err)
	}
	if isNil {
		return nil, nil
	}
	out := make([]map[string]any, len(raw))
	for i, v := range raw {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("record %s[%d]: want a map, got %T", key, i, v)
		}
		out[i] = m
	}
	return out, nil
}

func toStrings(key string, raw []any) ([]string, error) {
	out := make([]string, 0, len(raw))
	for i, v := range raw {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%s[%d]: want string, got %T", key, i, v)
		}
		out = append(out, s)
	}
	return out, nil
}

// Reads from a map a statement returned (a map projection).

func mapString(m map[string]any, key string) (string, error) {
	switch v := m[key].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	default:
		return "", fmt.Errorf("%s: want string, got %T", key, v)
	}
}

func mapStrings(m map[string]any, key string) ([]string, error) {
	switch v := m[key].(type) {
	case nil:
		return nil, nil
	case []any:
		return toStrings(key, v)
	default:
		return nil, fmt.Errorf("%s: want a list, got %T", key, v)
	}
}

func mapInts(m map[string]any, key string) ([]int, error) {
	switch v := m[key].(type) {
	case nil:
		return nil, nil
	case []any:
		return toInts(key, v)
	default:
		return nil, fmt.Errorf("%s: want a list, got %T", key, v)
	}
}

func mapFloat(m map[string]any, key string) (*float64, error) {
	switch v := m[key].(type) {
	case nil:
		return nil, nil
	case float64:
		return &v, nil
	case int64:
		f := float64(v)
		return &f, nil
	default:
		return nil, fmt.Errorf("%s: want a number, got %T", key, v)
	}
}

func getFloat(rec *neo4j.Record, key string) (float64, bool, error) {
	v, isNil, err := neo4j.GetRecordValue[float64](rec, key)
	if err != nil {
		return 0, false, fmt.Errorf("record %s: %w", key, err)
	}
	return v, !isNil, nil
}

// listParam is a statement parameter for a filter list: null when the list
// is empty (the filter does not apply), else its values as strings.
func listParam[T ~string](xs []T) any {
	if len(xs) == 0 {
		return nil
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}

func mapMaps(m map[string]any, key string) ([]map[string]any, error) {
	raw, ok := m[key].([]any)
	if !ok {
		return nil, fmt.Errorf("%s: want a list, got %T", key, m[key])
	}
	out := make([]map[string]any, len(raw))
	for i, v := range raw {
		if out[i], ok = v.(map[string]any); !ok {
			return nil, fmt.Errorf("%s[%d]: want a map, got %T", key, i, v)
		}
	}
	return out, nil
}

// nullable stores an empty string as an absent property.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// contentHash fingerprints the fields a write sets, so that writing the
// same content again can be recognised and skipped.
func contentHash(fields ...any) string {
	h := sha256.New()
	if err := json.NewEncoder(h).Encode(fields); err != nil {
		panic(err) // strings, numbers and string slices always encode
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
