// A dataset's events that have both a start and an end, in the order of
// their start, with their end in the index: datasetTimeline reads the
// events that began before a period's first year and may last into it
// from it, testing their end on the index's values, where
// event_dataset_start read every event begun before the period and each
// one's end from the store.
CREATE INDEX event_dataset_start_end IF NOT EXISTS
FOR (e:Event) ON (e.dataset, e.startDate, e.endDate)
