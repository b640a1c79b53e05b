package server_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestRequestShapeAsTheTransportReadsIt: the GraphQL transport finds a
// request's fields in any case and reads every occurrence of a repeated
// one; FuzzGraphQLBody found bodies that the shape check let through and the
// transport then refused with an uncoded error quoting the body back.
func TestRequestShapeAsTheTransportReadsIt(t *testing.T) {
	t.Parallel()
	h := newEdge(t, nil)
	const secret = "do-not-echo-me"
	tests := []struct {
		name, body string
	}{
		{"the query in upper case", `{"QUERY": 123, "x": "` + secret + `"}`},
		{"the query capitalised", `{"Query": ["` + secret + `"]}`},
		{"variables in mixed case", `{"query": "{ __typename }", "VariAbles": "` + secret + `"}`},
		{"extensions with a long s", `{"query": "{ __typename }", "extenſions": "` + secret + `"}`},
		{"a bad value first, a good one after", `{"query": "{ __typename }", "variables": "` + secret + `", "variables": {}}`},
		{"a good query first, a bad one after", `{"query": "{ __typename }", "query": 1, "x": "` + secret + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.PostRaw([]byte(tt.body))
			if res.Status != http.StatusBadRequest || res.Code() != "BAD_USER_INPUT" || res.Reason() != "INVALID_REQUEST" {
				t.Errorf("got %d %s, want 400 BAD_USER_INPUT INVALID_REQUEST", res.Status, res.Raw)
			}
			if strings.Contains(res.Raw, secret) {
				t.Errorf("the answer quotes the body: %s", res.Raw)
			}
		})
	}
	// What the transport takes in any case is taken.
	if res := h.PostRaw([]byte(`{"QUERY": "{ __typename }", "Variables": null}`)); res.Status != http.StatusOK || len(res.Errors) > 0 {
		t.Errorf("the query in upper case: %d %s", res.Status, res.Raw)
	}
	if calls := h.Refusing.Calls(); len(calls) > 0 {
		t.Errorf("refused bodies reached the store: %v", calls)
	}
}
