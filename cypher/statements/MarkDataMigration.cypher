// MarkDataMigration records that a data migration ran to its end over all
// the data (DataMigrationDone), and when.
MERGE (m:DataMigration {name: $name})
  ON CREATE SET m.at = datetime()
RETURN m.name AS name
