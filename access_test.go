package casegraph

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrincipalRights(t *testing.T) {
	tests := []struct {
		name          string
		p             Principal
		readA, writeA bool
		readB, writeB bool
		scope         Scope
	}{
		{"anonymous of A", Anonymous([]string{"a"}), true, false, false, false, Scope{Limited: true, Datasets: []string{"a"}}},
		{"anonymous of nothing", Anonymous(nil), false, false, false, false, Scope{Limited: true}},
		{"reader of A", Principal{ID: "key:1", Role: RoleReader, Datasets: []string{"a"}}, true, false, false, false, Scope{Limited: true, Datasets: []string{"a"}}},
		{"editor of A", Principal{ID: "key:2", Role: RoleEditor, Datasets: []string{"a"}}, true, true, false, false, Scope{Limited: true, Datasets: []string{"a"}}},
		{"cleared editor of every dataset", Principal{ID: "key:3", Role: RoleEditor, Datasets: []string{AllDatasets}, Cleared: true}, true, true, true, true, Scope{Cleared: true}},
		{"reader of every dataset", Principal{ID: "key:4", Role: RoleReader, Datasets: []string{AllDatasets}}, true, false, true, false, Scope{}},
		{"admin without grants", Principal{ID: "key:5", Role: RoleAdmin}, true, true, true, true, Scope{Cleared: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := [4]bool{tt.p.CanRead("a"), tt.p.CanWrite("a"), tt.p.CanRead("b"), tt.p.CanWrite("b")}
			if want := [4]bool{tt.readA, tt.writeA, tt.readB, tt.writeB}; got != want {
				t.Errorf("read a, write a, read b, write b = %v, want %v", got, want)
			}
			if diff := cmp.Diff(tt.scope, tt.p.Scope()); diff != "" {
				t.Errorf("scope (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScopeFrom(t *testing.T) {
	if got := ScopeFrom(context.Background()); !cmp.Equal(got, NoScope) {
		t.Errorf("without a principal: %+v, want NoScope (nothing)", got)
	}
	if got := ScopeFrom(AsOperator(context.Background())); !cmp.Equal(got, FullScope) {
		t.Errorf("the operator: %+v, want the full scope", got)
	}
	ctx := WithPrincipal(context.Background(), Anonymous([]string{"seed"}))
	if got, want := ScopeFrom(ctx), (Scope{Limited: true, Datasets: []string{"seed"}}); !cmp.Equal(got, want) {
		t.Errorf("anonymous: %+v, want %+v", got, want)
	}
}

func TestParseRole(t *testing.T) {
	for _, r := range Roles() {
		if got, err := ParseRole(string(r)); err != nil || got != r {
			t.Errorf("ParseRole(%q) = %q, %v", r, got, err)
		}
	}
	for _, s := range []string{"", "Admin", "root", "reader "} {
		if _, err := ParseRole(s); ErrorCode(err) != CodeBadUserInput {
			t.Errorf("ParseRole(%q): %v, want BAD_USER_INPUT", s, err)
		}
	}
}

func TestScopeKey(t *testing.T) {
	ab := Scope{Limited: true, Datasets: []string{"a", "b"}}
	tests := []struct {
		name  string
		x, y  Scope
		equal bool
	}{
		{"the same datasets in another order", ab, Scope{Limited: true, Datasets: []string{"b", "a", "b"}}, true},
		{"clearance differs", ab, Scope{Limited: true, Datasets: []string{"a", "b"}, Cleared: true}, false},
		{"no dataset against every one", Scope{Limited: true}, Scope{}, false},
		{"other datasets", ab, Scope{Limited: true, Datasets: []string{"a"}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.x.Key() == tc.y.Key(); got != tc.equal {
				t.Errorf("%q == %q: %t, want %t", tc.x.Key(), tc.y.Key(), got, tc.equal)
			}
		})
	}
}

// TestGatesWithoutPrincipal: a context without a principal passes no gate.
func TestGatesWithoutPrincipal(t *testing.T) {
	ctx := context.Background()
	for name, err := range map[string]error{
		"CheckWrite":    CheckWrite(ctx, "a"),
		"CheckWrite()":  CheckWrite(ctx),
		"RequireAdmin":  RequireAdmin(ctx),
		"RequireEditor": RequireEditor(ctx),
		"CheckProtect":  CheckProtect(ctx, true, false),
	} {
		if ErrorCode(err) != CodeForbidden {
			t.Errorf("%s without a principal: %v, want FORBIDDEN", name, err)
		}
	}
	if CanReadIn(ctx, "a") || CanSee(ctx, Entity{Dataset: "a"}) {
		t.Error("CanReadIn or CanSee without a principal: true, want false")
	}
	if _, err := Caller(ctx); ErrorCode(err) != CodeForbidden {
		t.Errorf("Caller without a principal: %v, want FORBIDDEN", err)
	}
	op := AsOperator(ctx)
	if err := CheckWrite(op, "a"); err != nil || RequireAdmin(op) != nil || !CanSee(op, Entity{Dataset: "a", Attributes: Attributes{Protected: true}}) {
		t.Errorf("the operator is refused: %v", err)
	}
}

// TestMayChangeKept: a kept view's or saved query's owner or an admin may
// change it, and only while it may write; the datasets a principal reads
// and writes, as viewer names them.
func TestMayChangeKept(t *testing.T) {
	const owner = "key:owner"
	tests := []struct {
		name               string
		p                  Principal
		owners, others     bool // may change owner's, another's
		readable, writable []string
	}{
		{"anonymous", Anonymous([]string{"a"}), false, false, []string{"a"}, []string{}},
		{"its owner, an editor", Principal{ID: owner, Role: RoleEditor, Datasets: []string{"a", "b"}}, true, false, []string{"a", "b"}, []string{"a", "b"}},
		{"its owner, a reader now", Principal{ID: owner, Role: RoleReader, Datasets: []string{"a"}}, false, false, []string{"a"}, []string{}},
		{"another editor", Principal{ID: "key:other", Role: RoleEditor, Datasets: []string{AllDatasets}}, false, false, []string{AllDatasets}, []string{AllDatasets}},
		{"an admin", Principal{ID: "key:admin", Role: RoleAdmin}, true, true, []string{AllDatasets}, []string{AllDatasets}},
		{"the operator", Operator(), true, true, []string{AllDatasets}, []string{AllDatasets}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.MayChangeKept(owner); got != tt.owners {
				t.Errorf("MayChangeKept(the owner's) = %t, want %t", got, tt.owners)
			}
			if got := tt.p.MayChangeKept("key:someone"); got != tt.others {
				t.Errorf("MayChangeKept(another's) = %t, want %t", got, tt.others)
			}
			if diff := cmp.Diff(tt.readable, tt.p.Readable()); diff != "" {
				t.Errorf("Readable (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.writable, tt.p.Writable()); diff != "" {
				t.Errorf("Writable (-want +got):\n%s", diff)
			}
		})
	}
}
