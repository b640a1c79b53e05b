// One counter of the change feed (ChangeLog {id: 'changes'}): every change
// takes its next number inside its transaction (RecordChange). MERGE on a
// unique property is safe when the first two changes race to create it.
CREATE CONSTRAINT change_log_id IF NOT EXISTS
FOR (l:ChangeLog) REQUIRE l.id IS UNIQUE
