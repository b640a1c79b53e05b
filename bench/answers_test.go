package main

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCasegraphW2RelationIDs: Casegraph names relations by node id
// (relation~KEY); its W2 answer compares by the key, which the peer and
// the raw statements answer with, so equal answers compare equal.
func TestCasegraphW2RelationIDs(t *testing.T) {
	data := json.RawMessage(`{"entity": {"id": "p1", "name": "P", "relations": {"edges": [
		{"node": {"id": "relation~r1", "type": "MEMBER_OF", "from": {"id": "p1", "name": "P"}, "to": {"id": "o1", "name": "O"}}},
		{"node": {"id": "odd", "type": "MEMBER_OF", "from": {"id": "p1", "name": "P"}, "to": {"id": "o2", "name": "O2"}}}]}}}`)
	got, err := decodeCasegraphW2(data)
	if err != nil {
		t.Fatal(err)
	}
	rels := got.(w2Answer).Relations
	if len(rels) != 2 || rels[0].ID != "r1" || rels[1].ID != "odd" {
		t.Errorf("relation ids %+v, want r1 (the key) and odd (kept, to show in a diff)", rels)
	}
}

// TestCasegraphW3Neighbors: W3's tree is read from the edges' neighbors,
// level after level.
func TestCasegraphW3Neighbors(t *testing.T) {
	data := json.RawMessage(`{"e0": {"id": "p1", "name": "P", "relations": {"edges": [
		{"neighbor": {"id": "o1", "name": "O", "relations": {"edges": [{"neighbor": {"id": "x", "name": "X"}}]}}}]}}, "e1": null}`)
	got, err := decodeCasegraphW3(data)
	if err != nil {
		t.Fatal(err)
	}
	want := w3Answer{{ID: "p1", Name: "P", Children: []treeNode{{ID: "o1", Name: "O", Children: []treeNode{{ID: "x", Name: "X"}}}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("W3 (-want +got):\n%s", diff)
	}
}

// TestDisagreements: a mismatch or an error with any system stops the run;
// an expected difference does not.
func TestDisagreements(t *testing.T) {
	checks := []checkResult{
		{Raw: verdictEqual, Peer: verdictEqual},
		{Raw: verdictEqual, Peer: verdictExpected},
		{Raw: verdictMismatch, Peer: verdictEqual},
		{Raw: verdictEqual, Peer: verdictError},
	}
	if n := disagreements(checks); n != 2 {
		t.Errorf("%d disagreements, want 2", n)
	}
	if n := disagreements(checks[:2]); n != 0 {
		t.Errorf("%d disagreements among equal and expected answers, want 0", n)
	}
}
