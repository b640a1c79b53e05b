package dataset_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
)

// TestReadRefusesTextThatIsNotUnicode: FuzzRead found that a name with a
// byte that is not UTF-8, or with a JSON escape of half a surrogate pair,
// was stored as U+FFFD; such a line is now bad, with the place of the fault
// in bytes from the line's start.
func TestReadRefusesTextThatIsNotUnicode(t *testing.T) {
	entity := func(name string) string {
		return `{"type":"entity","id":"e","kind":"Place","name":"` + name + `","dataset":"d","sourceIds":["s"]}`
	}
	at := len(`{"type":"entity","id":"e","kind":"Place","name":"`) + 1 // the name's first byte
	tests := []struct {
		name, line, want string // want "": the line is good
	}{
		{"a byte that is not UTF-8", entity("Ge\xffneva"), "line 1: invalid UTF-8 at byte " + strconv.Itoa(at+2) + ": the file must be UTF-8"},
		{"after leading spaces", "  " + entity("\xc3"), "line 1: invalid UTF-8 at byte " + strconv.Itoa(at+2)},
		{"a truncated sequence", entity("\xe6\xbc"), "invalid UTF-8 at byte " + strconv.Itoa(at)},
		{"an encoded surrogate", entity("\xed\xa0\x80"), "invalid UTF-8 at byte " + strconv.Itoa(at)},
		{"a high surrogate alone", entity(`a\ud800b`), `line 1: invalid Unicode at byte ` + strconv.Itoa(at+1) + `: the escape \ud800 is half a surrogate pair`},
		{"a low surrogate alone", entity(`\udc00`), `the escape \udc00 is half a surrogate pair`},
		{"a pair the wrong way round", entity(`\udc00\ud800`), `the escape \udc00 is half a surrogate pair`},
		{"a high surrogate at the end", entity(`\ud83d`), `the escape \ud83d is half a surrogate pair`},
		{"a pair", entity(`\ud83d\ude00`), ""},
		{"an escaped backslash before u", entity(`\\ud800`), ""},
		{"other escapes", entity(`\"\/\u00e9\ufffd`), ""},
		{"not UTF-8 and not JSON", "\xff\xfe{", "line 1: invalid UTF-8 at byte 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `{"type":"source","id":"s","title":"t","dataset":"d"}` + "\n"
			b, err := dataset.Read(strings.NewReader(in + tt.line))
			if tt.want == "" {
				if err != nil || len(b.Entities) != 1 {
					t.Fatalf("Read: %v, %d entities; want the line taken", err, len(b.Entities))
				}
				return
			}
			want := strings.Replace(tt.want, "line 1", "line 2", 1)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("Read: %v; want an error saying %q", err, want)
			}
			if code := casegraph.ErrorCode(b.Bad.Lines[0].Err); code != casegraph.CodeBadUserInput {
				t.Errorf("code %s, want BAD_USER_INPUT", code)
			}
		})
	}
}

// TestReadRefusesLongLines: a line over the limit is a bad line with a
// code, not an internal error.
func TestReadRefusesLongLines(t *testing.T) {
	in := `{"type":"source","id":"s","title":"` + strings.Repeat("x", dataset.MaxLineBytes) + `","dataset":"d"}`
	_, err := dataset.Read(strings.NewReader(in))
	var le *dataset.LinesError
	if !errors.As(err, &le) || len(le.Lines) != 1 {
		t.Fatalf("Read: %v; want one bad line", err)
	}
	got := le.Lines[0]
	if code := casegraph.ErrorCode(got.Err); code != casegraph.CodeBadUserInput || got.Line != 1 ||
		!strings.Contains(got.Error(), "line 1: the line is longer than the limit of 4194304 bytes") {
		t.Errorf("got %v (%s), want line 1 longer than the limit, BAD_USER_INPUT", got, code)
	}
}
