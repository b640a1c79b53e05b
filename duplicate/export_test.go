package duplicate

// What the external tests of this package reach inside for.

// Row is the subject's row, as a store's statement writes it.
func (s Subject) Row() string { return s.ID + SubjectSeparator + string(s.Kind) + s.fields }
