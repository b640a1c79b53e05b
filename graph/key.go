package graph

// Glue for API keys: roles in, keys out.

import (
	"strings"
	"time"

	casegraph "github.com/casegraph/casegraph"
	"github.com/casegraph/casegraph/graph/model"
)

func roleOf(r model.Role) casegraph.Role { return casegraph.Role(strings.ToLower(string(r))) }

func toRole(r casegraph.Role) model.Role { return model.Role(strings.ToUpper(string(r))) }

func toAPIKey(k casegraph.APIKey) *model.APIKey {
	when := func(t time.Time) *time.Time {
		if t.IsZero() {
			return nil
		}
		return &t
	}
	datasets := k.Datasets
	if datasets == nil {
		datasets = []string{}
	}
	return &model.APIKey{
		ID: k.ID, Name: k.Name, Role: toRole(k.Role), Datasets: datasets, Cleared: k.Cleared,
		CreatedBy: k.CreatedBy, CreatedAt: k.CreatedAt, LastUsedAt: when(k.LastUsedAt), RevokedAt: when(k.RevokedAt),
	}
}
