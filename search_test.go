package casegraph_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	casegraph "github.com/casegraph/casegraph"
)

func TestValidateSearchText(t *testing.T) {
	for _, bad := range []string{"", "a", " b ", strings.Repeat("x", 201), "\"*?~()", "a\x00b"} {
		if _, err := casegraph.ValidateSearchText("text", bad); casegraph.ErrorCode(err) != casegraph.CodeBadUserInput {
			t.Errorf("%q: err %v, want BAD_USER_INPUT", bad, err)
		}
	}
	words, err := casegraph.ValidateSearchText("text", `"Assad" AND (al~ OR *)`)
	if err != nil || !slices.Equal(words, []string{"assad", "and", "al", "or"}) {
		t.Errorf("words %v, err %v", words, err)
	}
}

// hit is a search hit of an entity with id, name and aliases.
func hit(id, name string, degree int64, score float64, aliases ...string) casegraph.SearchHit {
	return casegraph.SearchHit{Entity: casegraph.Entity{ID: id, Name: name, Aliases: aliases}, Degree: degree, Score: score}
}

// rankedIDs are the ids of hits as Rank orders them for words.
func rankedIDs(words []string, hits []casegraph.SearchHit) []string {
	var ids []string
	for _, r := range casegraph.Rank(words, hits) {
		ids = append(ids, r.Entity.ID)
	}
	return ids
}

func TestRank(t *testing.T) {
	hits := []casegraph.SearchHit{
		hit("fuzzy", "Bashir Asad", 50, 9),
		hit("desc", "Somebody", 99, 8),
		hit("prefix", "Assadullah Bashar", 1, 7),
		hit("partial-lo", "Bashar Hafez al-Assad", 1, 6),
		hit("partial-hi", "Bashar al-Assad junior", 10, 2),
		hit("alias", "President of Syria", 3, 1, "Bashar Assad"),
		hit("exact", "Bashar Assad", 0, 0.5),
	}
	got := rankedIDs([]string{"bashar", "assad"}, hits)
	want := []string{"exact", "alias", "partial-hi", "partial-lo", "prefix", "fuzzy", "desc"}
	if !slices.Equal(got, want) {
		t.Errorf("ranked %v, want %v", got, want)
	}
	fields := map[string]casegraph.MatchField{}
	for _, r := range casegraph.Rank([]string{"bashar", "assad"}, hits) {
		fields[r.Entity.ID] = r.Field
	}
	if fields["alias"] != casegraph.MatchAlias || fields["exact"] != casegraph.MatchName || fields["fuzzy"] != casegraph.MatchName || fields["desc"] != casegraph.MatchDescription {
		t.Errorf("fields %v", fields)
	}
}

// TestRankMisspeltName: among the misspellings (tier 5, a word within
// one edit) the full-text score comes first, so that a full name with a
// typo in it (the best score: both its words match) ranks the name it
// nearly is before better-connected names that share one of its words;
// the other tiers still put the better-connected first.
func TestRankMisspeltName(t *testing.T) {
	hits := []casegraph.SearchHit{
		hit("first-only", "Omar Bakri", 90, 20),
		hit("last-only", "Fatmata Conteh", 80, 12),
		hit("meant", "Omar Conteh", 1, 45),
		hit("both-misspelt", "Omer Contxeh", 0, 30),
		hit("prefix-lo", "Omaru Conxehs", 1, 50),
		hit("prefix-hi", "Omari Conxeha", 5, 5),
	}
	got := rankedIDs([]string{"omar", "conxeh"}, hits)
	want := []string{"prefix-hi", "prefix-lo", "meant", "both-misspelt", "first-only", "last-only"}
	if !slices.Equal(got, want) {
		t.Errorf("ranked %v, want %v", got, want)
	}
	// One misspelt word: every typo matches it alike, the degree first.
	if got, want := rankedIDs([]string{"conxeh"}, hits[1:4]), []string{"last-only", "meant", "both-misspelt"}; !slices.Equal(got, want) {
		t.Errorf("one word: ranked %v, want %v", got, want)
	}
}

// TestRankIdentifier: an identifier's value ranks with exact aliases,
// before a better-connected entity whose name holds the words or whose
// description mentions them, and says it matched the identifier; a number
// one digit off is another number, not a typo of it.
func TestRankIdentifier(t *testing.T) {
	holder := casegraph.Entity{ID: "holder", Name: "Samir Haddad", Attributes: casegraph.Attributes{
		Identifiers: []casegraph.Identifier{{Type: casegraph.IdentifierPassport, Value: "N0123456"}}}}
	hits := []casegraph.SearchHit{
		{Entity: casegraph.Entity{ID: "mention", Name: "Passports"}, Degree: 99, Score: 9},
		{Entity: casegraph.Entity{ID: "named", Name: "Unit N0123456"}, Degree: 50, Score: 8},
		{Entity: holder, Degree: 0, Score: 1},
	}
	ranked := casegraph.Rank([]string{"n0123456"}, hits)
	var got []string
	for _, r := range ranked {
		got = append(got, fmt.Sprintf("%s %s %d", r.Entity.ID, r.Field, r.Tier))
	}
	want := []string{"holder IDENTIFIER 1", "named NAME 2", "mention DESCRIPTION 6"}
	if !slices.Equal(got, want) {
		t.Errorf("ranked %v, want %v", got, want)
	}
	if r := casegraph.Rank([]string{"n0123457"}, []casegraph.SearchHit{{Entity: holder}}); r[0].Field != casegraph.MatchDescription {
		t.Errorf("a number one digit off matched %s (tier %d)", r[0].Field, r[0].Tier)
	}
}

func TestRankSuggestions(t *testing.T) {
	hits := []casegraph.SearchHit{
		{Entity: casegraph.Entity{ID: "word", Name: "Sir Geoffrey Nice"}, Degree: 9},
		{Entity: casegraph.Entity{ID: "alias", Name: "Nice QC", Aliases: []string{"Geoffrey Nice"}}},
		{Entity: casegraph.Entity{ID: "start-small", Name: "Geoffrey Robertson"}, Degree: 1},
		{Entity: casegraph.Entity{ID: "start-big", Name: "Geoffrey Nice Foundation"}, Degree: 5},
	}
	ranked := casegraph.RankSuggestions([]string{"geof"}, hits)
	var got []string
	for _, s := range ranked {
		got = append(got, s.Entity.ID+"="+s.Text)
	}
	want := []string{"start-big=Geoffrey Nice Foundation", "start-small=Geoffrey Robertson", "alias=Geoffrey Nice", "word=Sir Geoffrey Nice"}
	if !slices.Equal(got, want) {
		t.Errorf("suggestions %v, want %v", got, want)
	}
}

// TestBrief: a search reads only the text it matches of its page when it shows
// nothing else, never when it may show every property (nil).
func TestBrief(t *testing.T) {
	for _, tt := range []struct {
		shows []string
		want  bool
	}{
		{nil, false},
		{[]string{}, true},
		{[]string{"name"}, true},
		{[]string{"name", "aliases", "identifiers"}, true},
		{[]string{"name", "description"}, false},
		{[]string{"birthDate"}, false},
	} {
		if got := (casegraph.SearchRequest{Shows: tt.shows}).Brief(); got != tt.want {
			t.Errorf("shows %v: Brief %v, want %v", tt.shows, got, tt.want)
		}
	}
}
