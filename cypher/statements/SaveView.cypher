// SaveView: adds a version to the kept view $name (creating it at version
// 1) when its content ($contentHash: its state and notes, as kept) differs
// from the latest version's; otherwise the latest version's title and
// description are updated in place. Saving the same view twice changes
// nothing, and an older version is never overwritten. The MERGE locks the
// view, so concurrent saves number their versions one after the other.
// unchanged says the save changed nothing (same content, title,
// description, visibility and datasets), and then no change is recorded.
// The state, references and notes come as JSON the store wrote (real ids,
// resolved through the gate with the saver's rights before this runs).
MERGE (w:SavedView {name: $name})
  ON CREATE SET w.latest = 0, w.createdAt = datetime(), w.owner = $author
SET w._lock = true
REMOVE w._lock
WITH w, coalesce(w.visibility = $visibility AND w.datasets = $datasets, false) AS sameView
SET w.visibility = $visibility, w.datasets = $datasets
WITH w, sameView
OPTIONAL MATCH (w)-[:VERSION]->(latest:SavedViewVersion {version: w.latest})
WITH w, latest, sameView, latest IS NOT NULL AND latest.contentHash = $contentHash AS same
WITH w, latest, same, coalesce(same AND sameView AND latest.title = $title
  AND coalesce(latest.description = $description, latest.description IS NULL AND $description IS NULL), false) AS unchanged
CALL (latest, same) {
  WITH latest WHERE same
  SET latest.title = $title, latest.description = $description
}
CALL (w, same) {
  WITH w WHERE NOT same
  SET w.latest = w.latest + 1, w.updatedAt = datetime()
  CREATE (w)-[:VERSION]->(v:SavedViewVersion {
    key: $name + '@' + toString(w.latest), name: $name, version: w.latest,
    title: $title, description: $description, state: $state, refs: $refs, notes: $notes,
    contentHash: $contentHash, createdAt: datetime(), author: $author, note: $note
  })
}
WITH w, unchanged
MATCH (w)-[:VERSION]->(v:SavedViewVersion {version: w.latest})
RETURN v.version AS version, unchanged
