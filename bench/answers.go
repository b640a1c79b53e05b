package main

import (
	"cmp"
	"encoding/json"
	"slices"

	casegraph "github.com/casegraph/casegraph"
)

// The answers of the workloads, normalized so that the three systems'
// answers compare with cmp.Diff: ids and names only, lists in the order
// both sides define (relation id order), roots sorted by id.

type entityRef struct {
	ID   string
	Name string
}

type w1Answer struct {
	ID      string
	Name    string
	Aliases []string
}

type w2Relation struct {
	ID       string
	Type     string
	From, To entityRef
}

type w2Answer struct {
	ID        string
	Name      string
	Relations []w2Relation
}

// treeNode is an entity and the other ends of its relations.
type treeNode struct {
	ID       string
	Name     string
	Children []treeNode
}

type w3Answer []treeNode

func (a w3Answer) sorted() w3Answer {
	slices.SortStableFunc(a, func(x, y treeNode) int { return cmp.Compare(x.ID, y.ID) })
	return a
}

// w4Hit is a search hit with its full-text score.
type w4Hit struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Score float64 `json:"score"`
}

type w4Answer []w4Hit

type w5Answer struct {
	Found  bool
	Length int
	Nodes  []string
}

// Casegraph's responses.

type cgEntity struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Aliases   []string `json:"aliases"`
	Relations *struct {
		Edges []struct {
			Node struct {
				ID   string    `json:"id"`
				Type string    `json:"type"`
				From entityRef `json:"from"`
				To   *cgEntity `json:"to"`
			} `json:"node"`
			// W3's other end (its relations are outgoing: their to).
			Neighbor *cgEntity `json:"neighbor"`
		} `json:"edges"`
	} `json:"relations"`
}

func (e cgEntity) tree() treeNode {
	n := treeNode{ID: e.ID, Name: e.Name}
	if e.Relations != nil {
		n.Children = []treeNode{}
		for _, edge := range e.Relations.Edges {
			n.Children = append(n.Children, edge.Neighbor.tree())
		}
	}
	return n
}

func decodeCasegraphW1(data json.RawMessage) (any, error) {
	var d struct{ Entity cgEntity }
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	return w1Answer{ID: d.Entity.ID, Name: d.Entity.Name, Aliases: d.Entity.Aliases}, nil
}

func decodeCasegraphW2(data json.RawMessage) (any, error) {
	var d struct{ Entity cgEntity }
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	out := w2Answer{ID: d.Entity.ID, Name: d.Entity.Name, Relations: []w2Relation{}}
	if d.Entity.Relations != nil {
		for _, e := range d.Entity.Relations.Edges {
			out.Relations = append(out.Relations, w2Relation{ID: relationKey(e.Node.ID), Type: e.Node.Type,
				From: e.Node.From, To: entityRef{e.Node.To.ID, e.Node.To.Name}})
		}
	}
	return out, nil
}

// relationKey is the relation id a node id names (relation~KEY: the API's
// relation ids), the id the peer and the raw statements answer with; any
// other id stays as it is, so that it shows in the diff.
func relationKey(id string) string {
	ref, err := casegraph.ParseNodeID("id", id)
	if err != nil || ref.Type != casegraph.NodeRelation {
		return id
	}
	return ref.ID
}

func decodeCasegraphW3(data json.RawMessage) (any, error) {
	var d map[string]*cgEntity // e0 ... e9
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	out := w3Answer{}
	for _, e := range d {
		if e != nil {
			out = append(out, e.tree())
		}
	}
	return out.sorted(), nil
}

type searchConnection struct {
	Edges []struct {
		Score float64   `json:"score"`
		Node  entityRef `json:"node"`
	} `json:"edges"`
}

func (c searchConnection) answer() w4Answer {
	out := w4Answer{}
	for _, e := range c.Edges {
		out = append(out, w4Hit{ID: e.Node.ID, Name: e.Node.Name, Score: e.Score})
	}
	return out
}

func decodeCasegraphW4(data json.RawMessage) (any, error) {
	var d struct{ Search searchConnection }
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	return d.Search.answer(), nil
}

type pathResult struct {
	Length int `json:"length"`
	Nodes  []struct {
		ID string `json:"id"`
	} `json:"nodes"`
}

func (p *pathResult) answer() w5Answer {
	if p == nil {
		return w5Answer{}
	}
	out := w5Answer{Found: true, Length: p.Length}
	for _, n := range p.Nodes {
		out.Nodes = append(out.Nodes, n.ID)
	}
	return out
}

func decodeW5(data json.RawMessage) (any, error) {
	var d struct {
		ShortestPath *pathResult `json:"shortestPath"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	return d.ShortestPath.answer(), nil
}

// The peer's responses.

type peerEntity struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Aliases   []string `json:"aliases"`
	Relations []struct {
		ID   string    `json:"id"`
		Type string    `json:"type"`
		From entityRef `json:"from"`
		To   entityRef `json:"to"`
	} `json:"relations"`
	Neighbors []peerEntity `json:"neighbors"`
}

func (e peerEntity) tree(depth int) treeNode {
	n := treeNode{ID: e.ID, Name: e.Name}
	if depth > 0 {
		n.Children = []treeNode{}
		for _, c := range e.Neighbors {
			n.Children = append(n.Children, c.tree(depth-1))
		}
	}
	return n
}

func decodePeerEntities(data json.RawMessage) ([]peerEntity, error) {
	var d struct {
		EntityNodes []peerEntity `json:"entityNodes"`
	}
	err := json.Unmarshal(data, &d)
	return d.EntityNodes, err
}

func decodePeerW1(data json.RawMessage) (any, error) {
	es, err := decodePeerEntities(data)
	if err != nil || len(es) == 0 {
		return w1Answer{}, err
	}
	return w1Answer{ID: es[0].ID, Name: es[0].Name, Aliases: es[0].Aliases}, nil
}

func decodePeerW2(data json.RawMessage) (any, error) {
	es, err := decodePeerEntities(data)
	if err != nil || len(es) == 0 {
		return w2Answer{}, err
	}
	out := w2Answer{ID: es[0].ID, Name: es[0].Name, Relations: []w2Relation{}}
	for _, r := range es[0].Relations {
		out.Relations = append(out.Relations, w2Relation{ID: r.ID, Type: r.Type, From: r.From, To: r.To})
	}
	return out, nil
}

func decodePeerW3(data json.RawMessage) (any, error) {
	es, err := decodePeerEntities(data)
	if err != nil {
		return nil, err
	}
	out := w3Answer{}
	for _, e := range es {
		out = append(out, e.tree(2))
	}
	return out.sorted(), nil
}

func decodePeerW4(data json.RawMessage) (any, error) {
	var d struct {
		SearchEntities searchConnection `json:"searchEntities"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	return d.SearchEntities.answer(), nil
}
