// UndismissDuplicate: forgets that $a and $b were dismissed; removed
// counts what was there (0 or 1).
OPTIONAL MATCH (d:DuplicateDismissal {pair: $pair})
DETACH DELETE d
RETURN count(d) AS removed
