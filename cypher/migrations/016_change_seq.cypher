// The change feed reads changes after a number in order (ChangeFeed), so
// that a watcher that reconnects with its last cursor misses none.
CREATE RANGE INDEX change_seq IF NOT EXISTS
FOR (c:Change) ON (c.seq)
