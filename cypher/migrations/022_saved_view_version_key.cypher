// A version of a kept view is name@version, once.
CREATE CONSTRAINT saved_view_version_key IF NOT EXISTS
FOR (v:SavedViewVersion) REQUIRE v.key IS UNIQUE
