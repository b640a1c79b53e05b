// SavedViewLatest: the latest version of a kept view as kept (real ids),
// read inside a save or an annotation (after its owner's check), which
// keeps its notes' authors or carries them, or adds a note to it; no row
// when there is no such view. Nothing of it goes back to the caller.
MATCH (w:SavedView {name: $name})-[:VERSION]->(v:SavedViewVersion {version: w.latest})
RETURN v {.state, .refs, .notes, .title, .description, .version, .note, .author, .createdAt,
          owner: w.owner, visibility: w.visibility, datasets: w.datasets} AS latest
