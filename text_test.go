package casegraph_test

import (
	"slices"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Slobodan Milošević":             "slobodan milosevic",
		"Slobodan Milos\u030cevic\u0301": "slobodan milosevic",
		"Bashar al-Assad":                "bashar al-assad",
		"ÉLODIE Dupont":                  "elodie dupont",
		"ﬁnance":                         "finance", // a ligature
		"بَشّار":                         "بشار",    // Arabic short vowels dropped
	} {
		if got := casegraph.Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		`"name:(foo* OR bar~) \ /x/`: {"name", "foo", "or", "bar", "x"},
		"al-Assad":                   {"al", "assad"},
		"  ":                         nil,
		"قيصر Caesar":                {"قيصر", "caesar"},
	} {
		if got := casegraph.Words(in); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %q, want %q", in, got, want)
		}
	}
}
