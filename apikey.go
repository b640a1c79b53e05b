package casegraph

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// APIKey is a stored API key, without its secret: the database keeps only
// a hash of that, and the holder is shown it once, when it is made.
type APIKey struct {
	ID       string
	Name     string
	Role     Role
	Datasets []string
	Cleared  bool
	// CreatedBy is the principal that made the key ("operator" for the
	// command line).
	CreatedBy  string
	CreatedAt  time.Time
	LastUsedAt time.Time // zero: never used
	RevokedAt  time.Time // zero: in force
}

// ReasonLastAdminKey is the reason of a revocation refused over the API
// (CONFLICT) because the key is the last live admin key: nobody could
// administer after it, since only an admin makes keys. The operator's
// `casegraph key revoke` may revoke it.
const ReasonLastAdminKey = "LAST_ADMIN_KEY"

// Revoked says whether the key has been revoked.
func (k APIKey) Revoked() bool { return !k.RevokedAt.IsZero() }

// Principal is who a request made with the key is.
func (k APIKey) Principal() Principal {
	return Principal{ID: "key:" + k.ID, Name: k.Name, Role: k.Role, Datasets: k.Datasets, Cleared: k.Cleared}
}

// NewAPIKey is what a new key is made of.
type NewAPIKey struct {
	Name     string
	Role     Role
	Datasets []string
	Cleared  bool
}

// MaxKeyDatasets bounds the datasets one key is granted.
const MaxKeyDatasets = 100

var keyNameRule = TextRule{Max: 100, Required: true}

// Validate checks a new key's name, role and grants.
func (k NewAPIKey) Validate() error {
	if err := keyNameRule.Check("name", k.Name); err != nil {
		return err
	}
	if _, err := ParseRole(string(k.Role)); err != nil {
		return err
	}
	if len(k.Datasets) > MaxKeyDatasets {
		return Errorf(CodeBadUserInput, "%d datasets; the limit is %d", len(k.Datasets), MaxKeyDatasets)
	}
	for i, ds := range k.Datasets {
		if ds == AllDatasets {
			continue
		}
		if err := ValidateID(fmt.Sprintf("datasets[%d]", i), ds); err != nil {
			return err
		}
	}
	if k.Role != RoleAdmin && len(k.Datasets) == 0 {
		return Errorf(CodeBadUserInput, "datasets: grant a %s at least one dataset (or %q for every one)", k.Role, AllDatasets)
	}
	return nil
}

// The form of a key's token: keyPrefix, the key's id, an underscore, and
// the secret. The id lets the server find the key by an index; the secret
// (256 random bits) is what proves the holder, compared by its hash.
const (
	keyPrefix    = "cgk_"
	keyIDBytes   = 8
	keySecretLen = 32
)

// KeyToken is a new key's id, the token its holder sends (shown once), and
// the hash of its secret (stored).
type KeyToken struct {
	ID, Token, Hash string
}

// GenerateKeyToken makes the id, token and hash of a new key from the
// system's secure random source.
func GenerateKeyToken() (KeyToken, error) {
	var id [keyIDBytes]byte
	var secret [keySecretLen]byte
	if _, err := rand.Read(id[:]); err != nil {
		return KeyToken{}, fmt.Errorf("random key id: %w", err)
	}
	if _, err := rand.Read(secret[:]); err != nil {
		return KeyToken{}, fmt.Errorf("random key secret: %w", err)
	}
	idHex := hex.EncodeToString(id[:])
	s := base64.RawURLEncoding.EncodeToString(secret[:])
	return KeyToken{ID: idHex, Token: keyPrefix + idHex + "_" + s, Hash: HashKeySecret(s)}, nil
}

// IsKeyToken says whether a bearer token has the form of an API key (and
// so is not a JWT).
func IsKeyToken(token string) bool { return strings.HasPrefix(token, keyPrefix) }

// ParseKeyToken splits a key's token into the key's id and its secret.
func ParseKeyToken(token string) (id, secret string, ok bool) {
	rest, ok := strings.CutPrefix(token, keyPrefix)
	if !ok {
		return "", "", false
	}
	id, secret, ok = strings.Cut(rest, "_")
	if !ok || len(id) != 2*keyIDBytes || len(secret) != base64.RawURLEncoding.EncodedLen(keySecretLen) {
		return "", "", false
	}
	if _, err := hex.DecodeString(id); err != nil {
		return "", "", false
	}
	if _, err := base64.RawURLEncoding.DecodeString(secret); err != nil {
		return "", "", false
	}
	return id, secret, true
}

// HashKeySecret is the stored form of a key's secret. The secret is 256
// random bits, so one round of SHA-256 is enough: there is nothing to
// guess that a slow hash would protect.
func HashKeySecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// KeySecretMatches compares a secret with a stored hash in constant time.
func KeySecretMatches(secret, hash string) bool {
	return subtle.ConstantTimeCompare([]byte(HashKeySecret(secret)), []byte(hash)) == 1
}
