package casegraph

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// SavedView is one version of a kept view: what the explorer draws (its
// state), notes on the entities and relations it draws, who keeps it and
// who may open it. Views are kept like saved queries (savedquery.go): by a
// name, in versions, owned by who first saved them, and seen by whom their
// visibility says; opening one never gives a reader more than its own
// rights: everything the view names is read through the read gate again,
// for each reader (ViewState.Show).
//
// The state and notes are, at each stage, in the words of whoever handles
// them: as a save gives them, in the ids the saver reads (a protected
// person hidden from it by its opaque id); as kept, in real ids (the store
// resolves them through the gate with the saver's rights, and never shows
// them); as shown, in the ids the reader reads, and without what it may not
// read.
type SavedView struct {
	Name        string // a slug, unique among views (ValidateSlug)
	Version     int64  // 1, 2, ...: saving a changed state or changed notes adds a version
	Title       string
	Description string
	State       ViewState
	Notes       []ViewNote
	// Note is what this version says of the view, as its author said when
	// saving it (a save that makes no new version keeps the old note).
	Note      string
	CreatedAt time.Time
	// Owner, Visibility and Datasets work as a saved query's: the owner
	// (or an admin) alone saves new versions and deletes it, and the
	// visibility says who else may open it.
	Owner      string
	Visibility Visibility
	Datasets   []string
	Author     string // who saved this version
	// Entities and Relations are what the shown state draws, as the
	// reader may read them, in the state's order (the store fills them in
	// when it shows a view).
	Entities  []Entity
	Relations []Relation
}

// ViewNote is a note on an entity or a relation of a view: who wrote it and
// when (kept across versions while its target and text stay).
type ViewNote struct {
	Target    ViewTarget
	Text      string
	Author    string
	CreatedAt time.Time
}

// ViewTarget is what a note is on: an entity (NodeEntity) or a relation
// (NodeRelation), by id.
type ViewTarget struct {
	Kind NodeType
	ID   string
}

// ViewNoteTargets are what a note may be on: an entity or a relation.
func ViewNoteTargets() []NodeType { return []NodeType{NodeEntity, NodeRelation} }

// Limits of kept views. A view of 2,000 entities is past what a canvas
// reads at a glance; the state's bytes bound what one save may store,
// under the server's body limit.
const (
	MaxViewEntities   = 2000
	MaxViewRelations  = 5000
	MaxViewNotes      = 500
	MaxViewNoteLength = 5000
	MaxViewStateBytes = 512 << 10
)

var viewNoteRule = TextRule{Max: MaxViewNoteLength, Required: true, Multiline: true}

// Validate checks what a save gives: its name, texts, visibility, and
// notes (the state is checked as it is read, ParseViewState). Notes nil
// means the save keeps the latest version's notes.
func (v SavedView) Validate() error {
	var p problems
	p.add("name", ValidateSlug("name", v.Name))
	p.add("title", nameRule.Check("title", v.Title))
	p.add("description", descriptionRule.Check("description", v.Description))
	p.add("note", descriptionRule.Check("note", v.Note))
	p.add("", validateVisibility("view", v.Visibility, v.Datasets))
	if len(v.Notes) > MaxViewNotes {
		p.add("notes", Errorf(CodeBadUserInput, "notes: %d notes; the limit is %d", len(v.Notes), MaxViewNotes))
	}
	for i, n := range v.Notes[:min(len(v.Notes), MaxViewNotes)] {
		p.add("", InField(fmt.Sprintf("notes[%d]", i), n.validate()))
	}
	return p.err()
}

// validate checks a note as a save or an annotation gives it: its target
// and its text.
func (n ViewNote) validate() error {
	var p problems
	if !slices.Contains(ViewNoteTargets(), n.Target.Kind) {
		p.add("targetKind", UnknownValue("targetKind", "note target", string(n.Target.Kind), ViewNoteTargets()))
	}
	p.add("targetId", ValidateID("targetId", n.Target.ID))
	p.add("text", viewNoteRule.Check("text", n.Text))
	return p.err()
}

// ValidateNote checks one note as annotateView gives it.
func ValidateNote(n ViewNote) error { return InField("note", n.validate()) }

// KeepNotes is the notes of a new version: those given, each with the
// author and time of the latest version's note with the same target and
// text (an unchanged note keeps who wrote it and when), the others by
// author, now.
func KeepNotes(latest, given []ViewNote, author string, now time.Time) []ViewNote {
	used := make([]bool, len(latest))
	out := make([]ViewNote, len(given))
	for i, n := range given {
		n.Author, n.CreatedAt = author, now
		for j, old := range latest {
			if !used[j] && old.Target == n.Target && old.Text == n.Text {
				used[j] = true
				n.Author, n.CreatedAt = old.Author, old.CreatedAt
				break
			}
		}
		out[i] = n
	}
	return out
}

// Show is a kept view as one reader may read it: its state through
// ViewState.Show, and its notes on what the reader reads, shown by the
// ids it reads them by. A note on something the reader may not read is
// left out, as is one on a protected person hidden from the reader (or a
// relation of one): a note's words may say what the redaction keeps back,
// as a relation's quote would.
func (v SavedView) Show(entities, relations map[string]Shown) SavedView {
	v.State = v.State.Show(entities, relations)
	notes := make([]ViewNote, 0, len(v.Notes))
	for _, n := range v.Notes {
		names := entities
		if n.Target.Kind == NodeRelation {
			names = relations
		}
		s, ok := names[n.Target.ID]
		if !ok || s.Hidden {
			continue
		}
		n.Target.ID = s.ID
		notes = append(notes, n)
	}
	v.Notes = notes
	return v
}

// Shown is how a reader sees a thing a kept view names (by its real id):
// the id it reads it by, and whether it is hidden from it (a protected
// person, or a relation of one, shown redacted by its opaque id). A thing
// the reader may not read has no Shown.
type Shown struct {
	ID     string
	Hidden bool
}

// ViewRef is a thing a kept view names, as kept: its real id, its opaque
// id (a protected person's, or a relation's with a protected end; "" when
// it has none), and, for such a relation, the opaque id of its protected
// end, through which a reader without clearance finds it (a relation has
// no index by its opaque id; its protected end has).
type ViewRef struct {
	ID     string `json:"id"`
	Opaque string `json:"opaque,omitempty"`
	End    string `json:"end,omitempty"`
}

// ViewHash is the hash of a version's content (its state and notes, as
// kept): the same content saved again makes no new version.
func ViewHash(state ViewState, notes []ViewNote) string {
	type note struct {
		Kind NodeType `json:"kind"`
		ID   string   `json:"id"`
		Text string   `json:"text"`
	}
	ns := make([]note, len(notes))
	for i, n := range notes {
		ns[i] = note{n.Target.Kind, n.Target.ID, n.Text}
	}
	b, err := json.Marshal(struct {
		State ViewState `json:"state"`
		Notes []note    `json:"notes"`
	}{state, ns})
	if err != nil {
		panic(err) // the types above always marshal
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
