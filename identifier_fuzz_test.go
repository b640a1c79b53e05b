package casegraph_test

import (
	"encoding/json"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

// FuzzDecodeIdentifier: DecodeIdentifier reads any text as JSON's decoder
// reads it (an array of three strings: type, issuer, value; anything else
// an error), the plain identifiers it reads without the decoder
// included, and reads back what EncodeIdentifier writes.
func FuzzDecodeIdentifier(f *testing.F) {
	for _, s := range []string{`["PASSPORT","SY","N0123456"]`, `["PASSPORT","","N 0123-456"]`, `["PASSPORT","SY"]`,
		`["A","B","C","D"]`, `["A","B\",\"C","D"]`, `[ "A","B","C"]`, `["A","د","\u003c"]`, "[\"A\",\"B\",\"\x01\"]",
		"[\"A\",\"B\",\"\xff\"]", `["A","B","C"]x`, `[""]`, `["]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var parts []string
		wantErr := json.Unmarshal([]byte(s), &parts) != nil || len(parts) != 3
		got, err := casegraph.DecodeIdentifier(s)
		if (err != nil) != wantErr {
			t.Fatalf("DecodeIdentifier(%q) = %+v, %v; JSON reads %q", s, got, err, parts)
		}
		if err != nil {
			return
		}
		if want := (casegraph.Identifier{Type: casegraph.IdentifierType(parts[0]), Issuer: parts[1], Value: parts[2]}); got != want {
			t.Fatalf("DecodeIdentifier(%q) = %+v, want %+v (JSON's)", s, got, want)
		}
		if back, err := casegraph.DecodeIdentifier(casegraph.EncodeIdentifier(got)); err != nil || back != got {
			t.Fatalf("DecodeIdentifier(EncodeIdentifier(%+v)) = %+v, %v", got, back, err)
		}
	})
}
