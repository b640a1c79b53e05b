// DuplicatePair: the datasets of the entities $a and $b and whether they
// are protected: a dismissal's lookup, in its transaction, whose caller's
// right to see them is judged in Go (casegraph.CanSee).
UNWIND [$a, $b] AS key
MATCH (e:Entity {id: key})
RETURN e.id AS id, e.dataset AS dataset, coalesce(e.protected, false) AS protected
