// Each run of duplicate suggestions reads its dataset's dismissed pairs
// (DuplicateDismissals), and a dataset's deletion removes them: by this
// index, not a scan of every dataset's.
CREATE INDEX duplicate_dismissal_dataset IF NOT EXISTS
FOR (d:DuplicateDismissal) ON (d.dataset)
