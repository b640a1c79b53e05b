package casegraph

import (
	"math"
	"slices"
)

// Status says how well a relation is established.
type Status string

// The statuses. What a report claims, and no one has confirmed, is ALLEGED.
const (
	StatusAlleged   Status = "ALLEGED"
	StatusReported  Status = "REPORTED"
	StatusConfirmed Status = "CONFIRMED"
	StatusDisputed  Status = "DISPUTED"
)

// Statuses lists every status.
func Statuses() []Status {
	return []Status{StatusAlleged, StatusReported, StatusConfirmed, StatusDisputed}
}

// Relation is a relation between two entities, with its evidence.
type Relation struct {
	ID     string
	Type   RelationType
	FromID string
	ToID   string
	Role   string
	// StartDate and EndDate are partial dates; either may be empty.
	StartDate string
	EndDate   string
	Status    Status
	// Confidence is in [0, 1]; nil when not given.
	Confidence *float64
	Quote      string
	SourceIDs  []string
	Dataset    string
}

// Limits on relation text.
const (
	MaxRoleLength  = 200
	MaxQuoteLength = 5000
)

var (
	roleRule  = TextRule{Max: MaxRoleLength}
	quoteRule = TextRule{Max: MaxQuoteLength, Multiline: true}
)

// Validate checks what can be checked of a relation without the graph: the
// kinds of its ends, and that they and its sources exist, are the store's
// to check.
func (r Relation) Validate() error {
	if err := ValidateID("id", r.ID); err != nil {
		return err
	}
	if _, err := Spec(r.Type); err != nil {
		return err
	}
	if err := ValidateID("from", r.FromID); err != nil {
		return err
	}
	if err := ValidateID("to", r.ToID); err != nil {
		return err
	}
	if r.FromID == r.ToID {
		return Errorf(CodeBadUserInput, "a relation joins two different entities; from and to are both %q", r.FromID)
	}
	if err := roleRule.Check("role", r.Role); err != nil {
		return err
	}
	if err := ValidateDateRange("startDate", r.StartDate, "endDate", r.EndDate); err != nil {
		return err
	}
	if !slices.Contains(Statuses(), r.Status) {
		return Errorf(CodeBadUserInput, "unknown status %q", truncate(string(r.Status), 40))
	}
	if err := ValidateConfidence(r.Confidence); err != nil {
		return err
	}
	if err := quoteRule.Check("quote", r.Quote); err != nil {
		return err
	}
	if err := ValidateID("dataset", r.Dataset); err != nil {
		return err
	}
	return validateSourceIDs(r.SourceIDs)
}

// ValidateConfidence checks an optional confidence: a number in [0, 1].
func ValidateConfidence(c *float64) error {
	if c == nil {
		return nil
	}
	if math.IsNaN(*c) || *c < 0 || *c > 1 {
		return Errorf(CodeBadUserInput, "confidence %v is not between 0 and 1", *c)
	}
	return nil
}
