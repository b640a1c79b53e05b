package casegraph

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"time"
)

// SavedQuery is one version of a researcher's saved GraphQL query.
type SavedQuery struct {
	Name        string // a slug, unique
	Version     int64  // 1, 2, ...: saving a changed query adds a version
	Title       string
	Description string
	Document    string // one GraphQL query operation
	// DefaultVariables is a JSON object of variable values; a run's
	// variables are merged over it.
	DefaultVariables json.RawMessage
	Tags             []string
	CreatedAt        time.Time
}

// Limits of saved queries.
const (
	MaxSavedQueryDocument = 20000
	MaxTags               = 20
)

var documentRule = TextRule{Max: MaxSavedQueryDocument, Required: true, Multiline: true}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// ValidateSlug checks a saved query's name: 1 to 64 lower-case letters,
// digits and single hyphens between them, such as who-authored-the-report.
func ValidateSlug(field, name string) error {
	if len(name) == 0 || len(name) > 64 || !slugPattern.MatchString(name) {
		return Errorf(CodeBadUserInput, "%s %q is not a valid name: use 1 to 64 lower-case letters, digits and single hyphens (who-authored-the-report)", field, truncate(name, 40))
	}
	return nil
}

// Validate checks what can be checked of a saved query without the schema
// (the server checks the document against the schema and its limits).
func (q SavedQuery) Validate() error {
	if err := ValidateSlug("name", q.Name); err != nil {
		return err
	}
	if err := nameRule.Check("title", q.Title); err != nil {
		return err
	}
	if err := descriptionRule.Check("description", q.Description); err != nil {
		return err
	}
	if err := documentRule.Check("document", q.Document); err != nil {
		return err
	}
	if len(q.Tags) > MaxTags {
		return Errorf(CodeBadUserInput, "%d tags; the limit is %d", len(q.Tags), MaxTags)
	}
	for _, t := range q.Tags {
		if err := ValidateSlug("tags", t); err != nil {
			return err
		}
	}
	if len(q.DefaultVariables) > 0 {
		var vars map[string]any
		if err := json.Unmarshal(q.DefaultVariables, &vars); err != nil || vars == nil {
			return Errorf(CodeBadUserInput, "defaultVariables must be a JSON object")
		}
	}
	return nil
}

// DocumentHash is the SHA-256 of a document, in hex: how persisted queries
// and trusted documents name it.
func DocumentHash(document string) string {
	sum := sha256.Sum256([]byte(document))
	return hex.EncodeToString(sum[:])
}
