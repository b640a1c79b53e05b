// Package duplicate is entity resolution: duplicate suggestions, pairs of
// entities of one dataset that are likely the same, each with a score and
// its reasons. Names are compared word by word (name.go; a run holds
// their words as places in their folded text, namewords.go); blocking
// (block.go) chooses the pairs to compare; ScoreNames keeps those whose
// names are alike (and blocking those that share an identifier); the
// graph adds what it knows (shared neighbours, the dismissed pairs) and
// Score ranks them (score.go) with what identifies people and
// organizations (evidence.go: identifiers, dates, places, addresses,
// gender, nationality); Evaluate measures a ranking against known pairs
// (measure.go). A run holds its entities as Subjects (subject.go: one
// string a subject, made entities only to be scored). A Finder (run.go)
// runs all of it over a consumer-owned Graph (the Neo4j store has it) and
// keeps its runs while the graph does not change; request.go holds the
// request and its page.
package duplicate
