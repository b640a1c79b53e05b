package casegraph

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"time"
)

// Change is one record of the audit log: who changed what, and when. Every
// mutation writes one in the same transaction as the change, so that none
// lands without it.
type Change struct {
	// ID sorts as the changes happened (the time, then a random part).
	ID string
	// Seq is its number in the change feed: changes commit in its order
	// (0 for a change recorded before the feed existed).
	Seq       int64
	At        time.Time
	Principal string // Principal.ID, or OperatorID
	Operation string // the mutation: upsertEntity, link, ...
	Targets   []string
	Dataset   string // the dataset changed ("" for saved queries)
	Fields    []FieldChange
}

// FieldChange is one field a change set: its old and new values as JSON
// ("null" where it had none).
type FieldChange struct {
	Field    string
	Old, New string
}

// OperatorID is the ID of the Operator principal: the operator's
// commands and the service's own work.
const OperatorID = "operator"

// Actor names who makes the request, for the audit log ("" without a
// principal, which no gate lets through).
func Actor(ctx context.Context) string {
	p, _ := PrincipalFrom(ctx)
	return p.ID
}

// NewChangeID makes the id of a change made at t.
func NewChangeID(t time.Time) string {
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		panic(err) // the system's random source does not fail
	}
	return t.UTC().Format("20060102T150405.000000000Z") + "-" + hex.EncodeToString(rnd[:])
}

// ChangeFilter narrows the audit log.
type ChangeFilter struct {
	EntityID  string // changes whose targets include it
	Dataset   string
	Principal string
	Since     time.Time // zero: from the start
}

// Validate checks the filter's ids.
func (f ChangeFilter) Validate() error {
	for field, v := range map[string]string{"entityId": f.EntityID, "dataset": f.Dataset} {
		if v != "" {
			if err := ValidateID(field, v); err != nil {
				return err
			}
		}
	}
	return nameRuleOptionalPrincipal.Check("principal", f.Principal)
}

var nameRuleOptionalPrincipal = TextRule{Max: 300}

// untracked are the fields a change does not list: they change with every
// write (or never), and say nothing of what the caller changed.
var untracked = map[string]bool{"Version": true, "CreatedAt": true, "UpdatedAt": true, "Redacted": true, "KeepProtection": true}

// fieldNames are the API's names of the Go fields whose lower-cased name
// is not it.
var fieldNames = map[string]string{"ID": "id", "URL": "url", "SourceIDs": "sourceIds", "FromID": "from", "ToID": "to"}

// Diff lists the fields whose values differ between before and after, two
// values of one struct type, or pointers to them (either may be nil: a
// creation or a deletion). The fields of an embedded struct count as the
// outer struct's. Values are compared and recorded as JSON.
func Diff(before, after any) []FieldChange {
	ov, nv := reflect.ValueOf(before), reflect.ValueOf(after)
	t := nv.Type()
	if !nv.IsValid() || (nv.Kind() == reflect.Pointer && nv.IsNil()) {
		t = ov.Type()
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return diffFields(t, structOf(ov), structOf(nv))
}

// structOf is the struct a value holds or points to (invalid for nil).
func structOf(v reflect.Value) reflect.Value {
	if !v.IsValid() || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return reflect.Value{}
	}
	return reflect.Indirect(v)
}

func diffFields(t reflect.Type, ov, nv reflect.Value) []FieldChange {
	field := func(v reflect.Value, i int) reflect.Value {
		if !v.IsValid() {
			return reflect.Value{}
		}
		return v.Field(i)
	}
	value := func(f reflect.Value) string {
		if !f.IsValid() || f.IsZero() {
			return "null"
		}
		b, err := json.Marshal(f.Interface())
		if err != nil {
			return "null"
		}
		return string(b)
	}
	var out []FieldChange
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			out = append(out, diffFields(sf.Type, field(ov, i), field(nv, i))...)
			continue
		}
		if !sf.IsExported() || untracked[sf.Name] {
			continue
		}
		o, n := value(field(ov, i)), value(field(nv, i))
		if o == n {
			continue
		}
		name, ok := fieldNames[sf.Name]
		if !ok {
			name = strings.ToLower(sf.Name[:1]) + sf.Name[1:]
		}
		out = append(out, FieldChange{Field: name, Old: o, New: n})
	}
	return out
}

// ParseSince reads the time a change filter starts at: an RFC 3339 time or
// a date (its midnight, UTC).
func ParseSince(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		if t, err = time.Parse(time.DateOnly, s); err != nil {
			return time.Time{}, Errorf(CodeBadUserInput, "since %q: want an RFC 3339 time or a date (2014-01-20)", s)
		}
	}
	return t, nil
}
