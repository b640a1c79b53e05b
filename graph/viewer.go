package graph

// Glue for the viewer: the caller's own principal, as a model.

import (
	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

// toViewer is the caller as Viewer shows it: its principal as signing in
// made it, and nothing read from the database.
func toViewer(p casegraph.Principal) *model.Viewer {
	return &model.Viewer{
		ID: p.ID, Name: p.Name, Role: toRole(p.Role), Datasets: p.Readable(),
		Cleared: p.Scope().Cleared, Anonymous: p.IsAnonymous(), WritableDatasets: p.Writable(),
	}
}
