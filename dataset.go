package casegraph

import "time"

// DatasetSummary is a dataset as an operator sees it: how much it holds
// and when it last changed.
type DatasetSummary struct {
	Name                         string
	Entities, Relations, Sources int64
	// LastChange is the time of its newest audit record, or zero when
	// nothing recorded changed it (an import by the command line, say).
	LastChange time.Time
}

// DatasetDeletion is what deleting a dataset removed.
type DatasetDeletion struct {
	Name                         string
	Entities, Relations, Sources int64
}

// ExportSink receives a dataset's sources, entities and relations as an
// export streams them: sources first, then entities, then relations, each
// in id order. An error stops the export.
type ExportSink struct {
	Source   func(Source) error
	Entity   func(Entity) error
	Relation func(Relation) error
}
