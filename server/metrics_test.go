package server

// The operation labels of the metrics, bounded.

import "testing"

func TestOperationLabelsAreBounded(t *testing.T) {
	s := newLabelSet(3)
	for _, name := range []string{"A", "B", "C"} {
		if got := s.label(name); got != name {
			t.Errorf("label(%q) = %q", name, got)
		}
	}
	for name, want := range map[string]string{"D": "other", "A": "A", "not a name!": "other", "": ""} {
		if got := s.label(name); got != want {
			t.Errorf("label(%q) = %q, want %q", name, got, want)
		}
	}
}
