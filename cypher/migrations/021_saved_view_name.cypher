// One kept view a name; its versions hang off it.
CREATE CONSTRAINT saved_view_name IF NOT EXISTS
FOR (w:SavedView) REQUIRE w.name IS UNIQUE
