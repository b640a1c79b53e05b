package casegraph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Idempotency keys make a retried write safe: a client that does not know
// whether its mutation committed (OUTCOME_UNKNOWN, a lost connection, its
// own timeout) sends it again with the same key and gets the first outcome,
// and nothing is written twice.

// MaxIdempotencyKeyLength bounds an Idempotency-Key header, in bytes.
const MaxIdempotencyKeyLength = 255

// Reasons of the errors about idempotency keys (extensions.reason).
const (
	// ReasonInvalidIdempotencyKey: the header is not 1 to 255 visible
	// ASCII characters (or is sent twice); nothing was run.
	ReasonInvalidIdempotencyKey = "INVALID_IDEMPOTENCY_KEY"
	// ReasonIdempotencyKeyReused: the key was first used for another
	// mutation or other arguments; nothing was written.
	ReasonIdempotencyKeyReused = "IDEMPOTENCY_KEY_REUSED"
	// ReasonTokenShownOnce: a retried createApiKey that had committed; its
	// token was shown once and is not stored, so it cannot be shown again.
	ReasonTokenShownOnce = "TOKEN_SHOWN_ONCE"
)

// ValidateIdempotencyKey checks an Idempotency-Key: 1 to 255 visible
// ASCII characters (no spaces, no control characters), so that it can be
// logged, stored and compared as it is.
func ValidateIdempotencyKey(key string) error {
	if key == "" || len(key) > MaxIdempotencyKeyLength {
		return Errorf(CodeBadUserInput, "Idempotency-Key must be 1 to %d characters, not %d", MaxIdempotencyKeyLength, len(key)).
			WithReason(ReasonInvalidIdempotencyKey)
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x21 || c > 0x7e {
			return Errorf(CodeBadUserInput, "Idempotency-Key may hold only visible ASCII characters; the one at byte %d is not", i).
				WithReason(ReasonInvalidIdempotencyKey)
		}
	}
	return nil
}

type idempotencyKey struct{}

// WithIdempotencyKey returns ctx carrying the request's Idempotency-Key
// (already validated).
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKey{}, key)
}

// IdempotencyKeyFrom returns the request's Idempotency-Key, if it has one.
func IdempotencyKeyFrom(ctx context.Context) (string, bool) {
	key, ok := ctx.Value(idempotencyKey{}).(string)
	return key, ok
}

// WriteKey is one mutation field's share of a request's idempotency key:
// a request may run several mutation fields, and each is made once on its
// own.
type WriteKey struct {
	// Key is the request's key and the field's response name (its alias,
	// or its name when it has none): "<key>/<alias>".
	Key string
	// Hash identifies the field and its arguments: the same key with
	// another field or other arguments is refused, not answered with an
	// outcome that is not the request's.
	Hash string
	// Request is the request's key, and Operation identifies the
	// request's mutation fields with their aliases and arguments
	// (OperationHash): the key is bound to the first operation sent with
	// it, so another one, whatever its aliases, is refused too. Empty,
	// they are Key and Hash: the field alone is bound.
	Request, Operation string
}

// OperationHash identifies a request's mutation fields, each by its
// response name, its name and its arguments (as parsed, variables
// substituted: inline or as variables, they hash the same).
func OperationHash(fields []OperationField) (string, error) {
	h := sha256.New()
	for _, f := range fields {
		b, err := json.Marshal(f.Args)
		if err != nil {
			return "", fmt.Errorf("idempotency: arguments of %s: %w", f.Name, err)
		}
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00", f.ResponseName, f.Name, b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// OperationField is one mutation field of a request, for OperationHash.
type OperationField struct {
	ResponseName, Name string
	Args               map[string]any
}

// DeriveWriteKey returns the write key of the mutation field field,
// answered under responseName, with its arguments args (as the GraphQL
// layer parsed them, defaults included, so that a retry that spells them
// differently still matches).
func DeriveWriteKey(key, responseName, field string, args any) (WriteKey, error) {
	b, err := json.Marshal(args)
	if err != nil {
		return WriteKey{}, fmt.Errorf("idempotency: arguments of %s: %w", field, err)
	}
	h := sha256.New()
	h.Write([]byte(field))
	h.Write([]byte{0})
	h.Write(b)
	return WriteKey{Key: key + "/" + responseName, Hash: hex.EncodeToString(h.Sum(nil))}, nil
}

type writeKey struct{}

// WithWriteKey returns ctx carrying a mutation field's write key, which the
// store records with the change and looks up before writing.
func WithWriteKey(ctx context.Context, k WriteKey) context.Context {
	return context.WithValue(ctx, writeKey{}, k)
}

// WriteKeyFrom returns the write key of the mutation being run, if its
// request had an Idempotency-Key.
func WriteKeyFrom(ctx context.Context) (WriteKey, bool) {
	k, ok := ctx.Value(writeKey{}).(WriteKey)
	return k, ok
}
