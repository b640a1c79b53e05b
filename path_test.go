package casegraph

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRelaxations(t *testing.T) {
	conf, deg := 0.5, 10
	f := PathFilter{MaxDepth: 3, RelationTypes: []RelationType{"AUTHORED"}, ValidAt: "2014",
		MinConfidence: &conf, Direction: PathOutgoing, MaxDegree: &deg}
	var fields []string
	for _, r := range f.Relaxations() {
		fields = append(fields, r.Field)
		if r.Filter.MaxDepth != 3 {
			t.Errorf("%s: the depth changed", r.Field)
		}
	}
	if diff := cmp.Diff([]string{"relationTypes", "validAt", "minConfidence", "direction", "maxDegree"}, fields); diff != "" {
		t.Errorf("relaxations (-want +got):\n%s", diff)
	}
	if got := DefaultPathFilter().Relaxations(); len(got) != 0 {
		t.Errorf("the default filter has %d relaxations, want 0", len(got))
	}
	if r := f.Relaxations()[0]; r.Filter.RelationTypes != nil || r.Filter.ValidAt != "2014" {
		t.Errorf("relationTypes relaxed: %+v", r.Filter)
	}
}

func TestPathExplanationMessage(t *testing.T) {
	tests := []struct {
		e    PathExplanation
		want string
	}{
		{PathExplanation{MaxDepth: 4, Found: true, Length: 3, Complete: true}, "a path of 3 relations"},
		{PathExplanation{MaxDepth: 4, Found: true, Complete: true}, "from and to are the same entity: a path of 0 relations"},
		{PathExplanation{MaxDepth: 2, Beyond: 4, Complete: true}, "one of 4 relations exists beyond maxDepth 2"},
		{PathExplanation{MaxDepth: 4, Blocking: []string{"statuses", "kinds"}, Complete: true}, "taking away statuses or kinds alone"},
		{PathExplanation{MaxDepth: 4, Complete: true}, "none of at most 8 either, and no single condition"},
		{PathExplanation{MaxDepth: 4}, "time budget ran out"},
	}
	for _, tt := range tests {
		if got := tt.e.Message(); !strings.Contains(got, tt.want) {
			t.Errorf("%+v: %q lacks %q", tt.e, got, tt.want)
		}
	}
}
