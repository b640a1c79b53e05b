// CountSources: how many sources there are.
MATCH (s:Source)
RETURN count(s) AS total
