package casegraph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"
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
	// Owner is the principal that first saved the query: only it or an
	// admin may save a new version or delete it.
	Owner string
	// Visibility says who may see and run it; Datasets are the datasets
	// whose readers may, for VisibilityDatasets. A run always has the
	// rights of whoever runs it, never the owner's.
	Visibility Visibility
	Datasets   []string
	// Author is who saved this version (the owner for the versions saved
	// before versions had authors); Note says what it changed.
	Author string
	Note   string
}

// Visibility says who may see and run a saved query.
type Visibility string

// The visibilities. The zero value is resolved when the query is saved
// (DefaultVisibility).
const (
	// VisibilityPrivate: its owner and admins.
	VisibilityPrivate Visibility = "PRIVATE"
	// VisibilityDatasets: also every reader of one of its datasets.
	VisibilityDatasets Visibility = "DATASETS"
	// VisibilityPublic: everyone who may call the API.
	VisibilityPublic Visibility = "PUBLIC"
)

// DefaultVisibility is the visibility of a query saved without one:
// private for a principal's query, public for the operator's (the
// seed's examples, for everyone who may call the API).
func DefaultVisibility(ctx context.Context) Visibility {
	if Actor(ctx) == OperatorID {
		return VisibilityPublic
	}
	return VisibilityPrivate
}

// Visibilities are the visibilities, narrowest first.
func Visibilities() []Visibility {
	return []Visibility{VisibilityPrivate, VisibilityDatasets, VisibilityPublic}
}

// Limits of saved queries.
const (
	MaxSavedQueryDocument = 20000
	MaxTags               = 20

	DefaultSavedQueryVersions = 50 // savedQueryVersions' and savedViewVersions' first when a client gives none
	MaxSavedQueryVersions     = 1000
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
	if err := descriptionRule.Check("note", q.Note); err != nil {
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
	return validateVisibility("query", q.Visibility, q.Datasets)
}

// validateVisibility checks who may see a saved query or a kept view
// (what names which): a visibility, and the datasets of one visible to
// datasets' readers.
func validateVisibility(what string, v Visibility, datasets []string) error {
	switch v {
	case "", VisibilityPrivate, VisibilityPublic:
		if len(datasets) > 0 {
			return InField("datasets", Errorf(CodeBadUserInput, "only a %s visible to datasets (DATASETS) names them", what))
		}
	case VisibilityDatasets:
		if len(datasets) == 0 || len(datasets) > MaxFilterValues {
			return InField("datasets", Errorf(CodeBadUserInput, "a %s visible to datasets names 1 to %d of them", what, MaxFilterValues))
		}
		var p problems
		for i, ds := range datasets {
			f := fmt.Sprintf("datasets[%d]", i)
			p.add(f, ValidateID(f, ds))
		}
		return p.err()
	default:
		return &Error{Code: CodeBadUserInput, Field: "visibility", Message: fmt.Sprintf("visibility %q: want PRIVATE, DATASETS or PUBLIC", truncate(string(v), 40))}
	}
	return nil
}

// DocumentHash is the SHA-256 of a document, in hex: how persisted queries
// and trusted documents name it.
func DocumentHash(document string) string {
	sum := sha256.Sum256([]byte(document))
	return hex.EncodeToString(sum[:])
}

// NormalizeDocument is a document as a version keeps it: each line without
// trailing white space, and no blank lines at either end, so that an
// editor's stray space makes no new version.
func NormalizeDocument(doc string) string {
	lines := strings.Split(strings.ReplaceAll(doc, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// VersionsRequest asks for the latest First versions of the saved query
// (or the kept view) called Name, newest first.
type VersionsRequest struct {
	Name  string
	First int // 1 to MaxSavedQueryVersions
}

// NewVersionsRequest is the versions of name with the default: the latest
// DefaultSavedQueryVersions.
func NewVersionsRequest(name string) VersionsRequest {
	return VersionsRequest{Name: name, First: DefaultSavedQueryVersions}
}

// Validate checks the name and how many versions.
func (q VersionsRequest) Validate() error {
	if err := ValidateSlug("name", q.Name); err != nil {
		return err
	}
	if q.First < 1 || q.First > MaxSavedQueryVersions {
		return Errorf(CodeBadUserInput, "first must be from 1 to %d, not %d", MaxSavedQueryVersions, q.First)
	}
	return nil
}
