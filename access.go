package casegraph

import (
	"context"
	"fmt"
	"slices"
)

// Role says what a principal may do with the datasets granted to it.
type Role string

// The roles, from least to most.
const (
	// RoleReader reads the datasets granted to it.
	RoleReader Role = "reader"
	// RoleEditor also writes them.
	RoleEditor Role = "editor"
	// RoleAdmin may do everything: every dataset, keys, the audit log.
	RoleAdmin Role = "admin"
)

// Roles returns the roles, from least to most.
func Roles() []Role { return []Role{RoleReader, RoleEditor, RoleAdmin} }

// ParseRole returns the role named s.
func ParseRole(s string) (Role, error) {
	if r := Role(s); slices.Contains(Roles(), r) {
		return r, nil
	}
	return "", Errorf(CodeBadUserInput, "role %q: want reader, editor or admin", s)
}

// AllDatasets in a grant stands for every dataset, present and future.
const AllDatasets = "*"

// Principal is who makes a request: the holder of an API key, the subject
// of a token, or an anonymous caller. Its rights are checked inside every
// statement (see Scope), never by filtering results afterwards.
type Principal struct {
	// ID is stable and unique across kinds: "key:<id>", "jwt:<issuer>#<subject>"
	// or "anonymous". It is what the audit log records.
	ID string
	// Name is for people: the key's name or the token's subject.
	Name string
	Role Role
	// Datasets are the datasets granted (AllDatasets: every one).
	Datasets []string
	// Cleared may see protected people.
	Cleared bool
}

// AnonymousID is the ID of every anonymous principal.
const AnonymousID = "anonymous"

// Anonymous is the principal of a request without credentials: a reader of
// the datasets anonymous callers may read (none, unless configured).
func Anonymous(datasets []string) Principal {
	return Principal{ID: AnonymousID, Name: AnonymousID, Role: RoleReader, Datasets: datasets}
}

// IsAnonymous says whether the request came without credentials.
func (p Principal) IsAnonymous() bool { return p.ID == AnonymousID }

// IsAdmin says whether p may do everything.
func (p Principal) IsAdmin() bool { return p.Role == RoleAdmin }

func (p Principal) everyDataset() bool {
	return p.IsAdmin() || slices.Contains(p.Datasets, AllDatasets)
}

// Readable are the datasets p reads: AllDatasets alone when it reads every
// one (an admin, or a grant of AllDatasets).
func (p Principal) Readable() []string {
	if p.everyDataset() {
		return []string{AllDatasets}
	}
	return append([]string{}, p.Datasets...)
}

// Writable are the datasets p may write, among those it reads (Readable):
// none when it may write nothing at all.
func (p Principal) Writable() []string {
	if p.MayWrite() != nil {
		return []string{}
	}
	return p.Readable()
}

// CanRead says whether p may read the dataset.
func (p Principal) CanRead(dataset string) bool {
	return p.everyDataset() || slices.Contains(p.Datasets, dataset)
}

// CanWrite says whether p may write the dataset.
func (p Principal) CanWrite(dataset string) bool {
	return (p.Role == RoleEditor || p.Role == RoleAdmin) && p.CanRead(dataset)
}

// Scope is what a statement needs of its caller's rights, passed as
// parameters and applied inside the match.
func (p Principal) Scope() Scope {
	if p.everyDataset() {
		return Scope{Cleared: p.Cleared || p.IsAdmin()}
	}
	return Scope{Datasets: slices.Clone(p.Datasets), Limited: true, Cleared: p.Cleared}
}

// String names p for logs.
func (p Principal) String() string {
	return fmt.Sprintf("%s (%s)", p.ID, p.Role)
}

// Scope is the part of a caller's rights that every read applies inside
// its statement: the datasets it may read, and whether it may see
// protected people.
type Scope struct {
	// Limited says that only Datasets may be read; otherwise every
	// dataset may.
	Limited  bool
	Datasets []string
	Cleared  bool
}

// Key names the scope: callers whose scopes have the same key read the
// same things, so what one reads may serve the other (a watch group, a
// kept run of duplicate suggestions).
func (s Scope) Key() string {
	if !s.Limited {
		return fmt.Sprintf("all cleared=%t", s.Cleared)
	}
	ds := slices.Clone(s.Datasets)
	slices.Sort(ds)
	return fmt.Sprintf("%q cleared=%t", slices.Compact(ds), s.Cleared)
}

// FullScope is the scope of the operator (Operator): every dataset,
// protected people included.
var FullScope = Scope{Cleared: true}

// NoScope is the scope of a context without a principal: it reads
// nothing. No principal means no access (a bug of ours, never a caller's
// way in: the server gives every request a principal, the operator's
// commands carry Operator).
var NoScope = Scope{Limited: true, Datasets: []string{}}

// ErrNoPrincipal refuses whatever is asked without a principal in the
// context.
var ErrNoPrincipal = Errorf(CodeForbidden, "no principal: nothing is read or written without one")

// Operator is the principal of the operator's commands (migrate, seed,
// import, export, key) and of the service's own work (migrations, the
// watches' feed, sign-in's key lookups): an admin of every dataset, with
// clearance. It is what the audit log records as OperatorID. Only code of
// this project makes it; no credential maps to it.
func Operator() Principal {
	return Principal{ID: OperatorID, Name: OperatorID, Role: RoleAdmin, Datasets: []string{AllDatasets}, Cleared: true}
}

// AsOperator returns a context that carries the Operator principal.
func AsOperator(ctx context.Context) context.Context {
	return WithPrincipal(ctx, Operator())
}

type principalKey struct{}

// WithPrincipal returns a context that carries the principal of a request.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal of a request, if the context has one.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}

// Caller returns the principal of the context, or ErrNoPrincipal: the
// first thing every gate asks.
func Caller(ctx context.Context) (Principal, error) {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return Principal{}, ErrNoPrincipal
	}
	return p, nil
}

// ScopeFrom returns the scope of the request's principal, or NoScope when
// the context carries none: closed when in doubt.
func ScopeFrom(ctx context.Context) Scope {
	if p, ok := PrincipalFrom(ctx); ok {
		return p.Scope()
	}
	return NoScope
}

// CheckWrite says whether the request's principal may write each dataset:
// nil, or FORBIDDEN naming the first it may not (a reader is told that it
// may only read). Without a principal nothing may be written. Use it
// after reading, inside the write's transaction, the datasets a write
// touches, so that it judges what is stored.
func CheckWrite(ctx context.Context, datasets ...string) error {
	p, err := Caller(ctx)
	if err != nil {
		return err
	}
	if err := p.MayWrite(); err != nil {
		return err
	}
	for _, ds := range datasets {
		if !p.CanWrite(ds) {
			return Errorf(CodeForbidden, "you may not write dataset %q", ds)
		}
	}
	return nil
}

// MayWrite refuses a principal that may write nothing at all (a reader,
// an anonymous caller): asked first, before anything about the data is
// looked up, so that a refusal says nothing of what exists.
func (p Principal) MayWrite() error {
	if p.Role != RoleEditor && p.Role != RoleAdmin {
		return Errorf(CodeForbidden, "you may read, not write: ask for an editor's key")
	}
	return nil
}

// MayChangeKept says whether p may save a new version of a saved query
// or a kept view that owner owns, annotate it or delete it: its owner or
// an admin, and only while it may write at all. The store's check of
// every such change (cypher's checkOwner) and SavedView.mayChange both
// ask it, so that what the explorer offers is what the store allows.
func (p Principal) MayChangeKept(owner string) bool {
	return p.MayWrite() == nil && (p.IsAdmin() || owner == p.ID)
}

// CanReadIn says whether the request's principal may read the dataset
// (never, without a principal).
func CanReadIn(ctx context.Context, dataset string) bool {
	p, ok := PrincipalFrom(ctx)
	return ok && p.CanRead(dataset)
}

// CanSee says whether the request's principal may read an entity of the
// dataset, protected or not: a protected one only with clearance. One it
// may not see does not exist for it.
func CanSee(ctx context.Context, e Entity) bool {
	return CanReadIn(ctx, e.Dataset) && (!e.Protected || ScopeFrom(ctx).Cleared)
}

// CheckProtect refuses to protect or unprotect an entity without clearance.
func CheckProtect(ctx context.Context, was, is bool) error {
	if was != is && !ScopeFrom(ctx).Cleared {
		return Errorf(CodeForbidden, "only a caller with clearance may protect an entity or lift its protection")
	}
	return nil
}

// RequireAdmin refuses a request whose principal is not an admin, or
// that has none.
func RequireAdmin(ctx context.Context) error {
	p, err := Caller(ctx)
	if err != nil {
		return err
	}
	if !p.IsAdmin() {
		return Errorf(CodeForbidden, "only an admin may do this")
	}
	return nil
}

// RequireEditor refuses a request whose principal may not write at all (a
// reader or an anonymous caller), or that has none.
func RequireEditor(ctx context.Context) error {
	p, err := Caller(ctx)
	if err != nil {
		return err
	}
	return p.MayWrite()
}
