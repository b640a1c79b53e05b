// Sources belong to the dataset that brought them in (clean-up by dataset).
CREATE INDEX source_dataset IF NOT EXISTS
FOR (s:Source) ON (s.dataset)
