// One dismissal a pair of entities (their ids, the smaller first, joined
// by U+001F): dismissDuplicate MERGEs on it.
CREATE CONSTRAINT duplicate_dismissal_pair IF NOT EXISTS
FOR (d:DuplicateDismissal) REQUIRE d.pair IS UNIQUE
