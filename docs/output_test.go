package docs

// An example's output compared with the output block shown after it
// (TestExamples, examples_test.go).

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// compareOutput checks what an example printed against the output block
// after it.
func compareOutput(t *testing.T, output block, got string) {
	t.Helper()
	switch output.lang {
	case "json":
		var want, have any
		if err := json.Unmarshal([]byte(output.body), &want); err != nil {
			t.Fatalf("%s: the output shown is not JSON: %v", output, err)
		}
		if err := json.Unmarshal([]byte(got), &have); err != nil {
			t.Fatalf("the example prints no JSON (%v):\n%s", err, tail(got, 3000))
		}
		if err := within(want, have, "$"); err != nil {
			t.Errorf("%s: the output shown is not what the example prints: %v\nprinted:\n%s", output, err, tail(got, 3000))
		}
	default:
		gotLines := strings.Split(got, "\n")
		at := 0
		for _, w := range strings.Split(output.body, "\n") {
			w = strings.Join(strings.Fields(w), " ")
			if w == "" || w == "..." {
				continue
			}
			for at < len(gotLines) && !strings.Contains(strings.Join(strings.Fields(gotLines[at]), " "), w) {
				at++
			}
			if at == len(gotLines) {
				t.Errorf("%s: the output shown has %q, which the example does not print (in that order):\n%s", output, w, tail(got, 3000))
				return
			}
			at++
		}
	}
}

// within says where want is not found in got: an object of want may
// leave keys out, a list must have got's length, anything else is equal.
func within(want, got any, path string) error {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: got %v, want an object", path, got)
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Errorf("%s.%s: missing", path, k)
			}
			if err := within(wv, gv, path+"."+k); err != nil {
				return err
			}
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%s: got %v, want a list of %d", path, got, len(w))
		}
		for i := range w {
			if err := within(w[i], g[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Errorf("%s: got %v, want %v", path, got, want)
	}
	return nil
}
