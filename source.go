package casegraph

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"

	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// Source is a piece of provenance that entities and relations cite.
type Source struct {
	ID          string
	Title       string
	Publisher   string
	URL         string
	PublishedAt string
	RetrievedAt string
	// Dataset is the investigation that brought the source in.
	Dataset string

	// Kind is what the source is; "" when not said.
	Kind SourceKind
	// Language is the source's language, an ISO 639-1 code ("en").
	Language string
	// ArchivedURL is where a preserved copy is (an archive's URL).
	ArchivedURL string
	// SHA256 is the hash of the preserved file, 64 lowercase hex digits
	// (the Berkeley Protocol's integrity check).
	SHA256 string
	// Reliability is the source's reliability, A to F; Normalize gives
	// DefaultReliability to a source without one.
	Reliability Reliability
}

// SourceKind is what a source is.
type SourceKind string

// The kinds of source.
const (
	SourceArticle          SourceKind = "ARTICLE"
	SourceReport           SourceKind = "REPORT"
	SourceTestimony        SourceKind = "TESTIMONY"
	SourceOfficialDocument SourceKind = "OFFICIAL_DOCUMENT"
	SourcePhoto            SourceKind = "PHOTO"
	SourceVideo            SourceKind = "VIDEO"
	SourceDataset          SourceKind = "DATASET"
)

// SourceKinds lists the kinds of source.
func SourceKinds() []SourceKind {
	return []SourceKind{SourceArticle, SourceReport, SourceTestimony, SourceOfficialDocument, SourcePhoto, SourceVideo, SourceDataset}
}

// Normalize puts the source's title and publisher in NFC, gives it
// DefaultReliability when it has none, then validates it.
func (s *Source) Normalize() error {
	s.Title, s.Publisher = norm.NFC.String(s.Title), norm.NFC.String(s.Publisher)
	if s.Reliability == "" {
		s.Reliability = DefaultReliability
	}
	s.Kind, s.Reliability = Canonical(s.Kind, SourceKinds()), Canonical(s.Reliability, Reliabilities())
	return s.Validate()
}

// Validate checks a source before it is written.
func (s Source) Validate() error {
	var p problems
	p.add("id", ValidateID("id", s.ID))
	p.add("title", nameRule.Check("title", s.Title))
	p.add("dataset", ValidateID("dataset", s.Dataset))
	p.add("publisher", optionalNameRule.Check("publisher", s.Publisher))
	p.add("url", ValidateURL("url", s.URL))
	p.add("publishedAt", ValidateDate("publishedAt", s.PublishedAt))
	p.add("retrievedAt", ValidateDate("retrievedAt", s.RetrievedAt))
	if s.Kind != "" && !slices.Contains(SourceKinds(), s.Kind) {
		p.add("kind", UnknownValue("kind", "source kind", string(s.Kind), SourceKinds()))
	}
	p.add("language", ValidateLanguage("language", s.Language))
	p.add("archivedUrl", ValidateURL("archivedUrl", s.ArchivedURL))
	if s.SHA256 != "" && !sha256Hex.MatchString(s.SHA256) {
		p.add("sha256", Errorf(CodeBadUserInput, "sha256 %q is not 64 lowercase hexadecimal digits", truncate(s.SHA256, 70)))
	}
	if s.Reliability != "" {
		p.add("reliability", ValidateReliability("reliability", s.Reliability))
	}
	return p.err()
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// ValidateLanguage checks an optional ISO 639-1 code: two lowercase
// letters that name a language ("en", "ar"; not "eng", "EN" or "zz").
func ValidateLanguage(field, code string) error {
	if code == "" {
		return nil
	}
	if languageCode.MatchString(code) {
		if base, err := language.ParseBase(code); err == nil && base.String() == code {
			return nil
		}
	}
	return Errorf(CodeBadUserInput, "%s %q is not an ISO 639-1 language code such as en or ar", field, truncate(code, 10))
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
