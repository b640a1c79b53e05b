// NoteCitingDatasets: adds to each source of $rows ({id, datasets}, in id
// order) the datasets whose claims a write makes cite it, those it does
// not hold yet (citingDatasets: what CitingClaims looks claims up by).
// The list only grows: a dataset whose claims no longer cite the source
// stays on it, and regrade reads that dataset's claims for nothing. A
// source that already holds them all is neither locked nor written; the
// others are locked (a write that cites a source holds its lock already:
// the write gate's LockSources) before their list is read again, so that
// two writes that add datasets at once lose neither. An import's batch
// notes them with its late lock instead (HoldSources).
UNWIND $rows AS row
MATCH (s:Source {id: row.id})
WHERE any(d IN row.datasets WHERE NOT d IN coalesce(s.citingDatasets, []))
SET s.locked = true
REMOVE s.locked
WITH s, row
SET s.citingDatasets = coalesce(s.citingDatasets, []) + [d IN row.datasets WHERE NOT d IN coalesce(s.citingDatasets, [])]
RETURN count(s) AS noted
