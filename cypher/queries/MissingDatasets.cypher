// MissingDatasets: the names among $datasets that no entity and no source
// belongs to (by the dataset indexes, so each is one seek).
UNWIND $datasets AS d
WITH d
WHERE NOT EXISTS { MATCH (:Entity {dataset: d}) }
  AND NOT EXISTS { MATCH (:Source {dataset: d}) }
RETURN collect(d) AS missing
