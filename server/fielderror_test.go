package server_test

import (
	"encoding/json"
	"testing"

	"github.com/casegraph/casegraph/server/servertest"
)

// TestErrorFields: an input refused is said at its field, for a form to
// show it there: a value refused as it is read (a date that is none) by
// the path within the argument, and each of an input's several problems
// in extensions.problems with its own field.
func TestErrorFields(t *testing.T) {
	t.Parallel()
	h := servertest.Edge(t, servertest.Options{})
	for _, c := range []struct {
		name  string
		input map[string]any
		want  string
	}{
		{"a date that is none", map[string]any{"kind": "PERSON", "name": "N", "dataset": "d", "birthDate": "1971-13-40", "sourceIds": []string{"s"}},
			`{"code":"BAD_USER_INPUT","field":"birthDate"}`},
		{"several problems", map[string]any{"kind": "PERSON", "name": "", "dataset": "d", "aliases": []string{""}, "sourceIds": []string{"s"}},
			`{"code":"BAD_USER_INPUT","problems":[{"code":"BAD_USER_INPUT","field":"name","message":"name is required"},{"code":"BAD_USER_INPUT","field":"aliases[0]","message":"aliases[0] is required"}]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := h.Post(`mutation($in: EntityInput!) { upsertEntity(input: $in) { id } }`, map[string]any{"in": c.input})
			if len(res.Errors) != 1 {
				t.Fatalf("%d %s", res.Status, res.Raw)
			}
			got, _ := json.Marshal(res.Errors[0].Extensions)
			if string(got) != c.want {
				t.Errorf("extensions %s, want %s", got, c.want)
			}
		})
	}
}
