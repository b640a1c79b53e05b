// SavedViewOwner: whose a kept view is and who may see it, read inside a
// save, an annotation or a delete (which only its owner or an admin may
// make).
OPTIONAL MATCH (w:SavedView {name: $name})
RETURN w IS NOT NULL AS found,
       coalesce(w.owner, 'operator') AS owner,
       coalesce(w.visibility, 'PRIVATE') AS visibility,
       coalesce(w.datasets, []) AS datasets
