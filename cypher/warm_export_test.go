package cypher

import (
	"sort"

	casegraph "github.com/casegraph/casegraph"
)

// What the planning benchmarks (warm_bench_test.go) reach inside for.

var (
	// StatementNames lists every named statement and variant, sorted.
	StatementNames = func(s *Store) []string {
		var out []string
		for name := range s.statements {
			out = append(out, string(name))
		}
		sort.Strings(out)
		return out
	}
	// ReadText is the text ReadEntities sends for read in a scope that is
	// limited (scoped) or not, with its parameters but the ids.
	ReadText = func(s *Store, read *casegraph.EntityRead, scoped bool) (string, map[string]any, error) {
		level, shape, params, err := compileRead(read, scoped, false, s.hubDegree)
		if err != nil {
			return "", nil, err
		}
		text, err := s.reads.get(shape, level)
		return text, params, err
	}
	// CommandText is the text and name a command statement sends.
	CommandText = func(s *Store, stmt string, levels int, read casegraph.CommandRead) (string, string, error) {
		name, text, err := s.commandText(statement(stmt), levels, read)
		return string(name), text, err
	}
	// ScopeParams adds a scope's parameters.
	ScopeParams = scopeParams
)
