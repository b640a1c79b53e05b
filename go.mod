module github.com/casegraph/casegraph

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/neo4j/neo4j-go-driver/v5 v5.28.4
	github.com/rs/zerolog v1.35.1
)

require (
	github.com/mattn/go-colorable v0.1.16 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
