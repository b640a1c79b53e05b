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
