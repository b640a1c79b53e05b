// SavedQueryOwner: whose a saved query is and who may see it, read inside
// a save or a delete (which only its owner or an admin may make).
OPTIONAL MATCH (q:SavedQuery {name: $name})
RETURN q IS NOT NULL AS found,
       coalesce(q.owner, 'operator') AS owner,
       coalesce(q.visibility, 'PUBLIC') AS visibility,
       coalesce(q.datasets, []) AS datasets
