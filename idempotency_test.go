package casegraph_test

import (
	"errors"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

func TestValidateIdempotencyKey(t *testing.T) {
	t.Parallel()
	var visible strings.Builder
	for c := byte(0x21); c <= 0x7e; c++ {
		visible.WriteByte(c)
	}
	for _, tc := range []struct {
		name, key string
		ok        bool
	}{
		{"one character", "k", true},
		{"255 characters", strings.Repeat("k", 255), true},
		{"every visible ASCII character", visible.String(), true},
		{"a UUID", "550e8400-e29b-41d4-a716-446655440000", true},
		{"empty", "", false},
		{"256 characters", strings.Repeat("k", 256), false},
		{"a space", "two words", false},
		{"a DEL character", "key\x7f", false},
		{"a NUL character", "key\x00", false},
		{"not ASCII", "clé", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := casegraph.ValidateIdempotencyKey(tc.key)
			if got := err == nil; got != tc.ok {
				t.Fatalf("ValidateIdempotencyKey(%q) = %v, want ok %v", tc.key, err, tc.ok)
			}
			if err != nil {
				var coded *casegraph.Error
				if !errors.As(err, &coded) || coded.Code != casegraph.CodeBadUserInput || coded.Reason != casegraph.ReasonInvalidIdempotencyKey {
					t.Errorf("error %#v, want BAD_USER_INPUT %s", err, casegraph.ReasonInvalidIdempotencyKey)
				}
			}
		})
	}
}

// TestDeriveWriteKey: each field of a request has its own key; the hash
// tells apart the field and its arguments, not how they were spelled.
func TestDeriveWriteKey(t *testing.T) {
	t.Parallel()
	type input struct {
		Name string `json:"name"`
	}
	base, err := casegraph.DeriveWriteKey("k1", "a", "upsertEntity", map[string]any{"input": input{Name: "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if base.Key != "k1/a" {
		t.Errorf("key %q, want k1/a", base.Key)
	}
	for _, tc := range []struct {
		name      string
		alias     string
		field     string
		args      map[string]any
		wantSame  bool
		wantKeyed string
	}{
		{"the same", "a", "upsertEntity", map[string]any{"input": input{Name: "x"}}, true, "k1/a"},
		{"another alias", "b", "upsertEntity", map[string]any{"input": input{Name: "x"}}, true, "k1/b"},
		{"another field", "a", "link", map[string]any{"input": input{Name: "x"}}, false, "k1/a"},
		{"other arguments", "a", "upsertEntity", map[string]any{"input": input{Name: "y"}}, false, "k1/a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := casegraph.DeriveWriteKey("k1", tc.alias, tc.field, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if got.Key != tc.wantKeyed || (got.Hash == base.Hash) != tc.wantSame {
				t.Errorf("got %+v, base %+v; want key %s, same hash %v", got, base, tc.wantKeyed, tc.wantSame)
			}
		})
	}
}

// TestOperationHash: a request's mutation fields hash the same only with
// the same aliases, names and arguments, in the same order.
func TestOperationHash(t *testing.T) {
	t.Parallel()
	field := func(alias, name, value string) casegraph.OperationField {
		return casegraph.OperationField{ResponseName: alias, Name: name, Args: map[string]any{"id": value}}
	}
	hash := func(fields ...casegraph.OperationField) string {
		t.Helper()
		h, err := casegraph.OperationHash(fields)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	base := hash(field("a", "deleteEntity", "x"), field("b", "unlink", "y"))
	for _, tc := range []struct {
		name     string
		fields   []casegraph.OperationField
		wantSame bool
	}{
		{"the same", []casegraph.OperationField{field("a", "deleteEntity", "x"), field("b", "unlink", "y")}, true},
		{"another alias", []casegraph.OperationField{field("c", "deleteEntity", "x"), field("b", "unlink", "y")}, false},
		{"another field", []casegraph.OperationField{field("a", "upsertSource", "x"), field("b", "unlink", "y")}, false},
		{"another argument", []casegraph.OperationField{field("a", "deleteEntity", "z"), field("b", "unlink", "y")}, false},
		{"a field less", []casegraph.OperationField{field("a", "deleteEntity", "x")}, false},
		{"in another order", []casegraph.OperationField{field("b", "unlink", "y"), field("a", "deleteEntity", "x")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := hash(tc.fields...) == base; got != tc.wantSame {
				t.Errorf("same hash %v, want %v", got, tc.wantSame)
			}
		})
	}
}
