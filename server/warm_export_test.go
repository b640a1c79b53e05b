package server

// WarmRequests are the warm-up's requests, by name, for the benchmark of
// first requests (warm_bench_test.go).
func WarmRequests() (names, queries []string) {
	for _, r := range warmRequests {
		names, queries = append(names, r.name), append(queries, r.query)
	}
	return names, queries
}
