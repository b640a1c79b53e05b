// SourceDataset: the dataset of the source $id, to check the caller's
// right to change it before anything is written.
MATCH (s:Source {id: $id})
RETURN s.dataset AS dataset
