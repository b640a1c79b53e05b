// DataMigrationDone: whether a data migration ran to its end over all the
// data (MarkDataMigration), so that migrate need not scan the graph again.
OPTIONAL MATCH (m:DataMigration {name: $name})
RETURN m IS NOT NULL AS done
