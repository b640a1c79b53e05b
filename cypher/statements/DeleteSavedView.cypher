// DeleteSavedView: removes a kept view with all its versions; returns how
// many versions went (no row when there is no such view).
MATCH (w:SavedView {name: $name})
OPTIONAL MATCH (w)-[:VERSION]->(v:SavedViewVersion)
WITH w, collect(v) AS versions
FOREACH (v IN versions | DETACH DELETE v)
DETACH DELETE w
RETURN size(versions) AS versions
