//go:build drills

// Package drills holds Casegraph's fault drills (issue 13): each starts
// what it needs itself (a Neo4j of its own through neo4j-local/neo4j.sh,
// `casegraph migrate`, `seed`, API keys, and the `casegraph serve` binary
// as a subprocess), breaks something the way production breaks it (Neo4j
// absent at start, killed with -9 under writers, slow behind a delaying
// proxy; one request built to starve the rest; a crowd of heavy searches;
// one of three replicas behind HAProxy killed under load), and checks
// what clients see. They are behind the build tag `drills`, so
// `go test ./...` does not run them: `make drills` does, and CI after
// `make test`. Each drill logs its figures as `drill: NAME: key=value ...`.
package drills
