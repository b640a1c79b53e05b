// A dataset's dated events in the order of their start: datasetTimeline
// reads a period's earliest events from it and stops there.
CREATE INDEX event_dataset_start IF NOT EXISTS
FOR (e:Event) ON (e.dataset, e.startDate)
