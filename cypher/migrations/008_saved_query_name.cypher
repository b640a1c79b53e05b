// One saved query a name; its versions hang off it.
CREATE CONSTRAINT saved_query_name IF NOT EXISTS
FOR (q:SavedQuery) REQUIRE q.name IS UNIQUE
