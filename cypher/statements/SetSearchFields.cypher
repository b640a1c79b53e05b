// SetSearchFields: writes the folded search fields of entities, and the
// texts a search ranks them by (rankFields).
UNWIND $rows AS row
MATCH (e:Entity {id: row.id})
SET e.searchName = row.searchName,
    e.searchAliases = row.searchAliases,
    e.searchDescription = row.searchDescription,
    e.searchScope = row.searchScope,
    e.rankName = row.rankName,
    e.rankAliases = row.rankAliases,
    e.rankIdentifiers = row.rankIdentifiers
