// DismissDuplicate: remembers that $a and $b are not the same, once a pair
// (the constraint duplicate_dismissal_pair makes a second MERGE wait and
// find the first), with who decided and when; created says whether it is
// new.
MERGE (d:DuplicateDismissal {pair: $pair})
ON CREATE SET d.a = $a, d.b = $b, d.dataset = $dataset, d.by = $by, d.at = $at, d.created = true
WITH d, coalesce(d.created, false) AS created
REMOVE d.created
RETURN d.by AS by, d.at AS at, created
