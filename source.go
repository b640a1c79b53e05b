package casegraph

import (
	"fmt"
	"net/url"

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
}

// Normalize puts the source's title and publisher in NFC, then validates it.
func (s *Source) Normalize() error {
	s.Title, s.Publisher = norm.NFC.String(s.Title), norm.NFC.String(s.Publisher)
	return s.Validate()
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
