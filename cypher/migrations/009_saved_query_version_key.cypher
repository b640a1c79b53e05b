// A version is name@version, once.
CREATE CONSTRAINT saved_query_version_key IF NOT EXISTS
FOR (v:SavedQueryVersion) REQUIRE v.key IS UNIQUE
