// SetSearchFields: writes the folded search fields of entities.
UNWIND $rows AS row
MATCH (e:Entity {id: row.id})
SET e.searchName = row.searchName,
    e.searchAliases = row.searchAliases,
    e.searchDescription = row.searchDescription,
    e.searchScope = row.searchScope
