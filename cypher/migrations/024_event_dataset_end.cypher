// A dataset's events with an end in the order of their end: datasetTimeline
// reads from it the events that have an end but no start.
CREATE INDEX event_dataset_end IF NOT EXISTS
FOR (e:Event) ON (e.dataset, e.endDate)
