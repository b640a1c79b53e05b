package benchflag

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestServers(t *testing.T) {
	var s Servers
	for _, v := range []string{"base=http://a/graphql", "http://b/graphql"} {
		if err := s.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	want := Servers{{"base", "http://a/graphql"}, {"casegraph", "http://b/graphql"}}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := s.Set("empty="); err == nil {
		t.Error("a name without a URL was taken")
	}
}
