// LockSources: takes the write lock of each source of $ids (sorted, so
// that two writes lock in one order), held until the transaction ends.
// A write that cites sources and deleteSource both take it before they
// look: whichever comes second waits for the first to end, then sees what
// it did (the citation, or the source gone). Setting and removing a
// property takes the lock and changes nothing; an id with no source
// locks nothing, and MissingSources, read after, says so.
UNWIND $ids AS id
MATCH (s:Source {id: id})
SET s.locked = true
REMOVE s.locked
