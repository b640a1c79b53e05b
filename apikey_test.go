package casegraph

import (
	"strings"
	"testing"
)

func TestKeyToken(t *testing.T) {
	k, err := GenerateKeyToken()
	if err != nil {
		t.Fatal(err)
	}
	if !IsKeyToken(k.Token) {
		t.Errorf("IsKeyToken(%q) = false", k.Token)
	}
	id, secret, ok := ParseKeyToken(k.Token)
	if !ok || id != k.ID {
		t.Fatalf("ParseKeyToken(%q) = %q, %q, %v; want id %q", k.Token, id, secret, ok, k.ID)
	}
	if !KeySecretMatches(secret, k.Hash) {
		t.Error("the token's secret does not match its hash")
	}
	if strings.Contains(k.Hash, secret) || strings.Contains(k.Token, k.Hash) {
		t.Error("the hash shows the secret")
	}
	other, err := GenerateKeyToken()
	if err != nil {
		t.Fatal(err)
	}
	if other.ID == k.ID || other.Token == k.Token {
		t.Error("two keys are the same")
	}
	_, otherSecret, _ := ParseKeyToken(other.Token)
	if KeySecretMatches(otherSecret, k.Hash) {
		t.Error("another key's secret matches")
	}
	for _, bad := range []string{
		"", "cgk_", "cgk_x_y", "Bearer " + k.Token, k.Token + "x", k.Token[:len(k.Token)-1],
		"cgk_zzzzzzzzzzzzzzzz_" + strings.Repeat("a", 43), strings.Replace(k.Token, "cgk_", "cgx_", 1),
		"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
	} {
		if _, _, ok := ParseKeyToken(bad); ok {
			t.Errorf("ParseKeyToken(%q) accepted it", bad)
		}
	}
}

func TestNewAPIKeyValidate(t *testing.T) {
	tests := []struct {
		name string
		key  NewAPIKey
		ok   bool
	}{
		{"reader of one dataset", NewAPIKey{Name: "analyst", Role: RoleReader, Datasets: []string{"caesar-report"}}, true},
		{"editor of every dataset", NewAPIKey{Name: "ingest", Role: RoleEditor, Datasets: []string{AllDatasets}}, true},
		{"admin without grants", NewAPIKey{Name: "root", Role: RoleAdmin}, true},
		{"reader without grants", NewAPIKey{Name: "x", Role: RoleReader}, false},
		{"no name", NewAPIKey{Role: RoleAdmin}, false},
		{"blank name", NewAPIKey{Name: "  ", Role: RoleAdmin}, false},
		{"control character in the name", NewAPIKey{Name: "a\x00b", Role: RoleAdmin}, false},
		{"unknown role", NewAPIKey{Name: "x", Role: "owner", Datasets: []string{"a"}}, false},
		{"bad dataset", NewAPIKey{Name: "x", Role: RoleReader, Datasets: []string{"a b"}}, false},
		{"too many datasets", NewAPIKey{Name: "x", Role: RoleReader, Datasets: make([]string, MaxKeyDatasets+1)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.key.Validate()
			if tt.ok && err != nil {
				t.Errorf("refused: %v", err)
			}
			if !tt.ok && ErrorCode(err) != CodeBadUserInput {
				t.Errorf("got %v, want BAD_USER_INPUT", err)
			}
		})
	}
}
