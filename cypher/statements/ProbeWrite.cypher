// ProbeWrite: readiness's write round trip. It commits an update of one
// node that belongs to no dataset, so that /readyz says ready only when a
// write would succeed (a database that answers reads can still refuse
// writes: recovering after a crash, read-only, no leader).
MERGE (p:ReadinessProbe {id: 'readiness'})
SET p.at = datetime()
