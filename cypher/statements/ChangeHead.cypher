// ChangeHead: the number of the last committed change (0 before the first).
OPTIONAL MATCH (log:ChangeLog {id: 'changes'})
RETURN coalesce(log.seq, 0) AS seq
