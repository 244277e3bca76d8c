package archive

import (
	"maps"
	"math"
	"slices"

	"github.com/wispapp/wisp/internal/fault"
)

// A ChatGPT conversation's mapping is a tree read through each node's parent: the
// branch brought in runs from current_node (or the newest leaf, a node without
// children) up to the root. ChatGPT never writes a mapping whose parents loop or
// whose every node has children; such a file was damaged or made by hand, and is
// refused rather than guessed at.

// visiblePath is the node ids from the root to current_node (or, when the file does
// not name one the mapping has, to the newest leaf). path is the mapping's in the file.
func (c gptConversation) visiblePath(path string) ([]string, error) {
	if id, ok := c.loopAt(); ok {
		return nil, fault.Invalid.Errorf("%s has a loop: node %q is its own ancestor", path, clip(id))
	}
	leaf := ""
	if c.CurrentNode != nil {
		leaf = *c.CurrentNode
	}
	if _, ok := c.Mapping[leaf]; !ok {
		if leaf, ok = c.newestLeaf(); !ok && len(c.Mapping) > 0 {
			return nil, fault.Invalid.Errorf("%s has no leaf: every node has children, so no branch ends", path)
		}
	}
	var branch []string
	for id := leaf; id != ""; {
		node, ok := c.Mapping[id]
		if !ok {
			break // a parent the file does not have: the branch starts here
		}
		branch = append(branch, id)
		if node.Parent == nil {
			break
		}
		id = *node.Parent
	}
	slices.Reverse(branch)
	return branch, nil
}

// loopAt is a node that is its own ancestor, and whether there is one. Nodes are
// walked up in the order of their ids, so the same file names the same node; a walk
// stops at a node an earlier walk cleared, so each node is walked once.
func (c gptConversation) loopAt() (string, bool) {
	const walking, cleared = 1, 2
	state := make(map[string]int8, len(c.Mapping))
	var walk []string
	for _, start := range slices.Sorted(maps.Keys(c.Mapping)) {
		walk = walk[:0]
		for id := start; ; {
			node, ok := c.Mapping[id]
			if !ok || state[id] == cleared {
				break
			}
			if state[id] == walking {
				return id, true
			}
			state[id] = walking
			walk = append(walk, id)
			if node.Parent == nil {
				break
			}
			id = *node.Parent
		}
		for _, id := range walk {
			state[id] = cleared
		}
	}
	return "", false
}

// newestLeaf is the node without children whose message is the newest (by time,
// then id), and whether there is one.
func (c gptConversation) newestLeaf() (string, bool) {
	best, bestAt, found := "", math.Inf(-1), false
	for id, n := range c.Mapping {
		if len(n.Children) > 0 {
			continue
		}
		at := math.Inf(-1)
		if n.Message != nil && n.Message.CreateTime != nil {
			at = *n.Message.CreateTime
		}
		if !found || at > bestAt || at == bestAt && id > best {
			best, bestAt, found = id, at, true
		}
	}
	return best, found
}
