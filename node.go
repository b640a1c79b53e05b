package casegraph

import (
	"strconv"
	"strings"
)

// NodeType is what a node id names (Relay's Node interface): an entity, a
// relation, a source, a version of a saved query or of a kept view.
type NodeType string

// The types of node.
const (
	NodeEntity     NodeType = "entity"
	NodeRelation   NodeType = "relation"
	NodeSource     NodeType = "source"
	NodeSavedQuery NodeType = "savedQuery"
	NodeSavedView  NodeType = "savedView"
)

// nodeSeparator joins a node type's prefix to an id. No id may hold it
// (ValidateID), so a prefixed id is never an entity's: entity ids keep
// their form (they are in URLs, saved queries and links), and the other
// types' node ids are their own ids behind a prefix of their type.
const nodeSeparator = "~"

// NodeID is the node id of a relation's, a source's or a saved query's key
// (a saved query's is its name and version, name~version); an entity's
// node id is its own id.
func NodeID(t NodeType, key string) string {
	if t == NodeEntity {
		return key
	}
	return string(t) + nodeSeparator + key
}

// SavedQueryNodeID is the node id of a version of a saved query.
func SavedQueryNodeID(name string, version int64) string {
	return NodeID(NodeSavedQuery, name+nodeSeparator+strconv.FormatInt(version, 10))
}

// SavedViewNodeID is the node id of a version of a kept view.
func SavedViewNodeID(name string, version int64) string {
	return NodeID(NodeSavedView, name+nodeSeparator+strconv.FormatInt(version, 10))
}

// NodeRef is what a node id names.
type NodeRef struct {
	Type NodeType
	// ID is the entity's, relation's or source's id, or the saved query's
	// or view's name.
	ID string
	// Version is the saved query's or view's version.
	Version int64
}

// ParseNodeID reads a node id: an entity's id, or a prefixed id of another
// type; field names it in errors.
func ParseNodeID(field, id string) (NodeRef, error) {
	prefix, key, found := strings.Cut(id, nodeSeparator)
	if !found {
		return NodeRef{Type: NodeEntity, ID: id}, ValidateID(field, id)
	}
	switch t := NodeType(prefix); t {
	case NodeRelation, NodeSource:
		return NodeRef{Type: t, ID: key}, ValidateID(field, key)
	case NodeSavedQuery, NodeSavedView:
		name, v, _ := strings.Cut(key, nodeSeparator)
		version, err := strconv.ParseInt(v, 10, 64)
		if err != nil || version < 1 {
			return NodeRef{}, Errorf(CodeBadUserInput, "%s %q is not a version's node id (%s~NAME~VERSION)", field, truncate(id, 40), t)
		}
		return NodeRef{Type: t, ID: name, Version: version}, ValidateSlug(field, name)
	}
	return NodeRef{}, Errorf(CodeBadUserInput, "%s %q is not a node id: an entity's id, or relation~, source~, savedQuery~ or savedView~ and an id", field, truncate(id, 40))
}

// BareID is the id of a relation or source (t) that an argument names
// either by its own id or by its node id; another type's node id is
// refused. It validates the id.
func BareID(t NodeType, field, id string) (string, error) {
	ref, err := ParseNodeID(field, id)
	if err != nil {
		return "", err
	}
	if ref.Type != t && ref.Type != NodeEntity {
		return "", Errorf(CodeBadUserInput, "%s %q is the id of a %s, not of a %s", field, truncate(id, 40), ref.Type, t)
	}
	return ref.ID, nil
}

// BareIDs is BareID for a list (field[i] in errors).
func BareIDs(t NodeType, field string, ids []string) ([]string, error) {
	if ids == nil {
		return nil, nil
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		var err error
		if out[i], err = BareID(t, field+"["+strconv.Itoa(i)+"]", id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ParseNodeIDs reads the ids of nodes(ids): 1 to MaxPageSize node ids
// (ids[i] in errors).
func ParseNodeIDs(ids []string) ([]NodeRef, error) {
	if len(ids) < 1 || len(ids) > MaxPageSize {
		return nil, Errorf(CodeBadUserInput, "ids: give 1 to %d ids, not %d", MaxPageSize, len(ids))
	}
	out := make([]NodeRef, len(ids))
	for i, id := range ids {
		var err error
		if out[i], err = ParseNodeID("ids["+strconv.Itoa(i)+"]", id); err != nil {
			return nil, err
		}
	}
	return out, nil
}
