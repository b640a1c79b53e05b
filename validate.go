package casegraph

import (
	"fmt"
	"net/url"
	"regexp"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Limits on stored text. They keep one careless or hostile write from
// bloating the graph; the body-size limit of the server is far above them.
const (
	MaxIDLength          = 128
	MaxNameLength        = 500
	MaxAliases           = 100
	MaxDescriptionLength = 20000
	MaxSourceIDs         = 100
	MaxURLLength         = 2048
)

// The rules of the free-text fields that several types share.
var (
	nameRule         = TextRule{Max: MaxNameLength, Required: true}
	optionalNameRule = TextRule{Max: MaxNameLength}
	descriptionRule  = TextRule{Max: MaxDescriptionLength, Multiline: true}
	urlRule          = TextRule{Max: MaxURLLength}
)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)

// ValidateID checks an id: 1 to MaxIDLength characters of letters, digits
// and . _ : -, starting with a letter or digit.
func ValidateID(field, id string) error {
	if id == "" {
		return Errorf(CodeBadUserInput, "%s is required", field)
	}
	if len(id) > MaxIDLength || !idPattern.MatchString(id) {
		return Errorf(CodeBadUserInput, "%s %q is not a valid id: use 1 to %d letters, digits, '.', '_', ':' or '-'", field, truncate(id, 40), MaxIDLength)
	}
	return nil
}

// TextRule says what a free-text field may hold. The zero rule's Max of 0
// allows only the empty string.
type TextRule struct {
	// Max is the most characters (runes) the text may have.
	Max int
	// Required refuses an empty or blank text.
	Required bool
	// Multiline allows tab, newline and carriage return.
	Multiline bool
}

// Check checks free text s, named field in errors: valid UTF-8, no control
// characters (NUL included; tab and newline only where the rule is
// Multiline), at most Max characters, and present when Required.
func (rule TextRule) Check(field, s string) error {
	if s == "" {
		if rule.Required {
			return Errorf(CodeBadUserInput, "%s is required", field)
		}
		return nil
	}
	if !utf8.ValidString(s) {
		return Errorf(CodeBadUserInput, "%s is not valid UTF-8", field)
	}
	if n := utf8.RuneCountInString(s); n > rule.Max {
		return Errorf(CodeBadUserInput, "%s is %d characters long; the limit is %d", field, n, rule.Max)
	}
	for _, r := range s {
		if rule.Multiline && (r == '\n' || r == '\t' || r == '\r') {
			continue
		}
		if unicode.IsControl(r) {
			return Errorf(CodeBadUserInput, "%s contains the control character %U", field, r)
		}
	}
	if rule.Required && isBlank(s) {
		return Errorf(CodeBadUserInput, "%s is blank", field)
	}
	return nil
}

// Text is stored in Unicode normalization form C: an "é" typed as "e" and
// a combining accent is stored as the one character "é", so that what a
// client reads back, compares, or matches against a constraint is the same
// text however it was typed. Each Normalize puts a write's text in NFC and
// then checks it with Validate.

// Normalize puts the entity's name, aliases and description in NFC, then
// validates it.
func (e *Entity) Normalize() error {
	e.Name, e.Description = norm.NFC.String(e.Name), norm.NFC.String(e.Description)
	for i, a := range e.Aliases {
		e.Aliases[i] = norm.NFC.String(a)
	}
	return e.Validate()
}

// Normalize puts the source's title and publisher in NFC, then validates it.
func (s *Source) Normalize() error {
	s.Title, s.Publisher = norm.NFC.String(s.Title), norm.NFC.String(s.Publisher)
	return s.Validate()
}

// Normalize puts the relation's role and quote in NFC, then validates it.
func (r *Relation) Normalize() error {
	r.Role, r.Quote = norm.NFC.String(r.Role), norm.NFC.String(r.Quote)
	return r.Validate()
}

// Validate checks an entity before it is written.
func (e Entity) Validate() error {
	if err := ValidateID("id", e.ID); err != nil {
		return err
	}
	if _, err := ParseKind(string(e.Kind)); err != nil {
		return err
	}
	if err := nameRule.Check("name", e.Name); err != nil {
		return err
	}
	if len(e.Aliases) > MaxAliases {
		return Errorf(CodeBadUserInput, "%d aliases; the limit is %d", len(e.Aliases), MaxAliases)
	}
	for i, a := range e.Aliases {
		if err := nameRule.Check(fmt.Sprintf("aliases[%d]", i), a); err != nil {
			return err
		}
	}
	if err := descriptionRule.Check("description", e.Description); err != nil {
		return err
	}
	if err := ValidateID("dataset", e.Dataset); err != nil {
		return err
	}
	if err := e.validateKindFields(); err != nil {
		return err
	}
	return validateSourceIDs(e.SourceIDs)
}

// Validate checks a source before it is written.
func (s Source) Validate() error {
	if err := ValidateID("id", s.ID); err != nil {
		return err
	}
	if err := nameRule.Check("title", s.Title); err != nil {
		return err
	}
	if err := ValidateID("dataset", s.Dataset); err != nil {
		return err
	}
	if err := optionalNameRule.Check("publisher", s.Publisher); err != nil {
		return err
	}
	if err := ValidateURL("url", s.URL); err != nil {
		return err
	}
	if err := ValidateDate("publishedAt", s.PublishedAt); err != nil {
		return err
	}
	return ValidateDate("retrievedAt", s.RetrievedAt)
}

// ValidateURL checks an optional absolute http or https URL.
func ValidateURL(field, s string) error {
	if s == "" {
		return nil
	}
	if err := urlRule.Check(field, s); err != nil {
		return err
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Errorf(CodeBadUserInput, "%s %q is not an absolute http or https URL", field, truncate(s, 60))
	}
	return nil
}

func validateSourceIDs(ids []string) error {
	if len(ids) == 0 {
		return Errorf(CodeBadUserInput, "sourceIds: cite at least one source")
	}
	if len(ids) > MaxSourceIDs {
		return Errorf(CodeBadUserInput, "%d sourceIds; the limit is %d", len(ids), MaxSourceIDs)
	}
	for i, id := range ids {
		if err := ValidateID(fmt.Sprintf("sourceIds[%d]", i), id); err != nil {
			return err
		}
	}
	return nil
}

func isBlank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
