package dataset

// What an import says of a file's bad lines: every problem of every line,
// each with its line, field, code and (for a value outside a closed set)
// the values accepted and the nearest; the first maxReported listed and
// the rest counted; and a summary of the lines read and refused.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	casegraph "github.com/casegraph/casegraph"
)

// maxReported is how many problems an error lists; the rest are counted.
const maxReported = 100

// LineError is a bad line of a data file: Err holds every problem of the
// line (casegraph.Problems).
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, casegraph.ErrorMessage(e.Err))
}

func (e *LineError) Unwrap() error { return e.Err }

// Problem is one problem of one line, as a client reads it (the HTTP
// import's errors list them).
type Problem struct {
	Line    int            `json:"line"`
	Field   string         `json:"field,omitempty"` // the record's field, or a JSON path into it
	Code    casegraph.Code `json:"code"`
	Message string         `json:"message"`
	// Accepted and Suggestion, for a value outside a closed set: the
	// values accepted, and the nearest to the one given.
	Accepted   []string `json:"accepted,omitempty"`
	Suggestion string   `json:"suggestion,omitempty"`
}

// String is the problem on one line of text: "line 7: unknown entity
// kind ..." (its message names its field).
func (p Problem) String() string {
	return fmt.Sprintf("line %d: %s", p.Line, p.Message)
}

// LinesError is a data file's bad lines, in line order, with every
// problem of each: the lines that hold the first maxReported problems are
// listed, and every refused line and problem is counted.
type LinesError struct {
	Lines []*LineError
	// Refused counts the refused lines, and Errors their problems, listed
	// or not.
	Refused, Errors int
	// rows counts, of the refused lines, those whose row is in the batch
	// (refused by Check, not by Read), by type.
	rows Counts
}

// add refuses a line with err (each of its problems).
func (e *LinesError) add(line int, err error) {
	e.Refused++
	listed := e.listed()
	e.Errors += len(casegraph.Problems(err))
	if listed < maxReported {
		e.Lines = append(e.Lines, &LineError{Line: line, Err: err})
	}
}

// listed is how many problems the listed lines hold.
func (e *LinesError) listed() int {
	n := 0
	for _, l := range e.Lines {
		n += len(casegraph.Problems(l.Err))
	}
	return n
}

// orNil is e as an error, or nil when no line is bad.
func (e *LinesError) orNil() error {
	if e.Refused == 0 {
		return nil
	}
	c := *e
	c.Lines = slices.Clone(e.Lines)
	return &c
}

// Problems lists the first maxReported problems, in line order, and says
// how many more there are.
func (e *LinesError) Problems() (list []Problem, omitted int) {
	for _, l := range e.Lines {
		for _, p := range casegraph.Problems(l.Err) {
			if len(list) == maxReported {
				break
			}
			list = append(list, Problem{Line: l.Line, Field: p.Field, Code: p.Code, Message: p.Message,
				Accepted: p.Accepted, Suggestion: p.Suggestion})
		}
	}
	return list, e.Errors - len(list)
}

// Unwrap gives the bad lines as one coded error, safe to show a client
// whole: the code the lines share, or BAD_USER_INPUT when they differ
// (each line says its own), never INTERNAL for a file's mistakes.
func (e *LinesError) Unwrap() error {
	code := casegraph.Code("")
	for _, l := range e.Lines {
		switch c := casegraph.ErrorCode(l.Err); {
		case code == "":
			code = c
		case c != code:
			code = casegraph.CodeBadUserInput
		}
	}
	if code == "" || code == casegraph.CodeInternal {
		code = casegraph.CodeBadUserInput
	}
	return &casegraph.Error{Code: code, Message: e.Error()}
}

func (e *LinesError) Error() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s with %s:", plural(e.Refused, "bad line"), plural(e.Errors, "error"))
	list, omitted := e.Problems()
	for _, p := range list {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	if omitted > 0 {
		fmt.Fprintf(&b, "\n  and %d more", omitted)
		b.WriteString(map[bool]string{true: " error", false: " errors"}[omitted == 1])
	}
	return b.String()
}

// plural is "1 line", "2 lines"; "entity" is "entities".
func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case noun == "entity":
		return fmt.Sprintf("%d entities", n)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Summary counts a file's lines: those read, the records taken by type,
// and those refused with their problems.
type Summary struct {
	Lines                        int
	Sources, Entities, Relations int
	Refused, Errors              int
}

// Summarize counts what a file's batch holds, after err (Read's, Check's
// or Import's): its refused lines are not taken.
func Summarize(b Batch, err error) Summary {
	s := Summary{Lines: b.Lines, Sources: len(b.Sources), Entities: b.EntityCount(), Relations: b.RelationCount()}
	var bad *LinesError
	if errors.As(err, &bad) {
		s.Refused, s.Errors = bad.Refused, bad.Errors
		s.Sources -= bad.rows.Sources
		s.Entities -= bad.rows.Entities
		s.Relations -= bad.rows.Relations
	}
	return s
}

// String is the summary line: "read 33 lines: 3 sources, 10 entities, 14
// relations; refused 6 lines with 9 errors".
func (s Summary) String() string {
	out := fmt.Sprintf("read %s: %s, %s, %s", plural(s.Lines, "line"), plural(s.Sources, "source"),
		plural(s.Entities, "entity"), plural(s.Relations, "relation"))
	if s.Refused == 0 {
		return out + "; refused none"
	}
	return out + fmt.Sprintf("; refused %s with %s", plural(s.Refused, "line"), plural(s.Errors, "error"))
}

// decodeField is the field a JSON decoding error is about, when it says.
func decodeField(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		// A field of an embedded struct is a field of the line.
		f, _ := strings.CutPrefix(typeErr.Field, "Attributes.")
		f, _ = strings.CutPrefix(f, "RelationAttributes.")
		return f
	}
	if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
		return m[1]
	}
	return ""
}

var unknownField = regexp.MustCompile(`^json: unknown field "([^"]+)"$`)

// relationFields names a relation's problems by a line's fields: the
// domain's type is the line's relationType.
func relationFields(err error) error {
	ps := casegraph.Problems(err)
	if !slices.ContainsFunc(ps, func(p *casegraph.Error) bool { return p.Field == "type" }) {
		return err
	}
	out := make([]*casegraph.Error, len(ps))
	for i, p := range ps {
		c := *p
		if c.Field == "type" {
			c.Field = "relationType"
		}
		out[i] = &c
	}
	if len(out) == 1 {
		return out[0]
	}
	joined := *out[0]
	if e := (*casegraph.Error)(nil); errors.As(err, &e) {
		joined = *e
	}
	joined.Problems = out
	return &joined
}
