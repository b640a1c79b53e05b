package dataset_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/dataset"
)

// FuzzRead: any data file gives, for each line that is not blank, either a
// valid record or a bad line with a BAD_USER_INPUT error of its own (a
// line with invalid UTF-8 among them, saying where); the good records
// written out again read back the same.
func FuzzRead(f *testing.F) {
	seedLines := strings.Split(strings.TrimSpace(string(readAll(f, dataset.Seed()))), "\n")
	for _, seed := range []string{
		seedLines[0], seedLines[1], seedLines[len(seedLines)-1], strings.Join(seedLines[:4], "\n"),
		"", "\n\n", "{}", "[]", "null", `"entity"`, `{"type":"entity"}`, `{"type":"entity"} {"type":"entity"}`,
		`{"type":"source","id":"s","title":"T","dataset":"d","unknown":1}`,
		"{\"type\":\"entity\",\"id\":\"x\",\"kind\":\"Person\",\"name\":\"Na\xffme\",\"dataset\":\"d\",\"sourceIds\":[\"s\"]}",
		`{"type":"entity","id":"x","kind":"Person","name":"\ud800","dataset":"d","sourceIds":["s"]}`,
		`{"type":"entity","id":"x","kind":"Person","name":"\ud83d\ude00 \\ud800","dataset":"d","sourceIds":["s"]}`,
		`{"type":"relation","id":"r","relationType":"AUTHORED","from":"a","to":"b","confidence":1e400,"dataset":"d","sourceIds":["s"]}`,
		`{"type":"relation","id":"r","relationType":"AUTHORED","from":"a","to":"b","startDate":"2011-02-30","dataset":"d","sourceIds":["s"]}`,
		"\xef\xbb\xbf" + seedLines[0], "\xff\xfe{", `{"type":"entity","type":"source"}`, `{"TYPE":"source"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := dataset.Read(bytes.NewReader(data))
		lines := fileLines(data)
		bad := map[int]string{}
		if err != nil {
			var le *dataset.LinesError
			if !errors.As(err, &le) {
				t.Fatalf("Read: %v (%T), want a *LinesError", err, err)
			}
			for _, l := range le.Lines {
				if l.Line < 1 || l.Line > len(lines) {
					t.Errorf("bad line %d of a file of %d lines", l.Line, len(lines))
				}
				if code := casegraph.ErrorCode(l.Err); code != casegraph.CodeBadUserInput {
					t.Errorf("line %d: code %s (%v), want BAD_USER_INPUT", l.Line, code, l.Err)
				}
				bad[l.Line] = casegraph.ErrorMessage(l.Err)
			}
			if le.Refused > len(le.Lines) {
				return
			}
		}
		good := len(b.Sources) + len(b.Entities) + len(b.Relations)
		nonBlank := 0
		for i, line := range lines {
			if len(bytes.TrimSpace(line)) > 0 {
				nonBlank++
			}
			if !utf8.Valid(line) {
				// The first fault is reported: this byte, or an escape of
				// half a surrogate pair before it.
				want := fmt.Sprintf("invalid UTF-8 at byte %d", firstInvalid(line)+1)
				var at int
				if _, err := fmt.Sscanf(bad[i+1], "invalid Unicode at byte %d", &at); !strings.Contains(bad[i+1], want) && (err != nil || at > firstInvalid(line)) {
					t.Errorf("line %d holds invalid UTF-8: error %q, want it to say %q or name a fault before", i+1, bad[i+1], want)
				}
			}
		}
		replaced(t, b, lines)
		if good+len(bad) != nonBlank {
			t.Errorf("%d good and %d bad records from %d lines that are not blank", good, len(bad), nonBlank)
		}
		roundTrip(t, b)
	})
}

// replaced fails t when a good record holds U+FFFD that its line did not
// hold (literally or as the escape \ufffd): text was replaced, not kept.
func replaced(t *testing.T, b dataset.Batch, lines [][]byte) {
	t.Helper()
	check := func(line int, item any) {
		held, err := json.Marshal(item)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ToLower(string(lines[line-1]))
		if strings.ContainsRune(string(held), utf8.RuneError) && !strings.ContainsRune(text, utf8.RuneError) && !strings.Contains(text, `\ufffd`) {
			t.Errorf("line %d is taken with U+FFFD it does not hold: %s", line, held)
		}
	}
	for i, s := range b.Sources {
		check(b.SourceLines[i], s)
	}
	for i, e := range b.Entities {
		check(b.EntityLines[i], e)
	}
	for i, r := range b.Relations {
		check(b.RelationLines[i], r)
	}
}

// roundTrip writes a batch's records and reads them back.
func roundTrip(t *testing.T, b dataset.Batch) {
	t.Helper()
	var out bytes.Buffer
	enc := dataset.NewEncoder(&out)
	var records []dataset.Record
	for _, s := range b.Sources {
		records = append(records, dataset.SourceRecord(s))
	}
	for _, e := range b.Entities {
		records = append(records, dataset.EntityRecord(e))
	}
	for _, r := range b.Relations {
		records = append(records, dataset.RelationRecord(r))
	}
	for _, r := range records {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	again, err := dataset.Read(&out)
	if err != nil {
		t.Fatalf("the good records written out do not read back: %v", err)
	}
	opt := cmp.FilterPath(func(p cmp.Path) bool { return strings.HasSuffix(p.Last().String(), "Lines") }, cmp.Ignore())
	// An empty list and none are the same to the store (a list property
	// is stored empty either way), and the encoder leaves both out.
	if diff := cmp.Diff(b, again, opt, cmpopts.EquateEmpty(), cmp.AllowUnexported(dataset.Batch{}), cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".Bad" || p.Last().String() == ".badEntities"
	}, cmp.Ignore())); diff != "" {
		t.Errorf("read back (-read +again):\n%s", diff)
	}
}

// fileLines splits a file as bufio.Scanner's lines do.
func fileLines(data []byte) [][]byte {
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), dataset.MaxLineBytes)
	for sc.Scan() {
		out = append(out, bytes.Clone(sc.Bytes()))
	}
	return out
}

// firstInvalid is the offset of the first byte of line that is not UTF-8.
func firstInvalid(line []byte) int {
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

func readAll(f *testing.F, r interface{ Read([]byte) (int, error) }) []byte {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r); err != nil {
		f.Fatal(err)
	}
	return buf.Bytes()
}
