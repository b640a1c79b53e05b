package cypher

import (
	"regexp"
	"testing"
)

// TestExactName: a text of stop words only keeps the folded names and
// aliases that are just those words, whatever separates them; any other
// text keeps everything.
func TestExactName(t *testing.T) {
	if p := exactName([]string{"the", "hague"}); p != nil {
		t.Errorf("a text with a content word: %v, want nil", p)
	}
	re := regexp.MustCompile("^(?:" + exactName([]string{"to", "be"}).(string) + ")$")
	for name, want := range map[string]bool{
		"to be": true, "to-be": true, " to  be.": true, "(to be)": true,
		"to be or not": false, "to bed": false, "tobe": false, "to": false,
	} {
		if got := re.MatchString(name); got != want {
			t.Errorf("%q: matched %v, want %v", name, got, want)
		}
	}
}
