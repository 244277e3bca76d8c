package archive

import (
	"cmp"
	"maps"
	"math"
	"slices"

	"github.com/wispapp/wisp/internal/fault"
)

// A ChatGPT conversation's mapping is a tree read through each node's parent (a
// node's children list only orders its children): editing a question or asking for
// another answer starts a branch, and current_node is the leaf of the branch the
// user last saw. Every branch is brought in. A parent the mapping lacks starts a
// branch. ChatGPT never writes a mapping whose parents loop; such a file was damaged
// or made by hand, and is refused rather than guessed at.

// gptTree is a mapping's nodes walked depth first, so that a parent comes before its
// children: siblings in the order of their parent's children list (then by time, then
// id), the roots by time then id. Nodes are numbered by their place in ids.
type gptTree struct {
	ids    []string // the node ids, sorted
	order  []int    // the nodes as walked
	parent []int    // each node's parent, -1 for a root
	leaf   int      // current_node or, when the mapping lacks it, the newest leaf; -1 when empty
}

// tree walks the mapping; path is the mapping's in the file.
func (c gptConversation) tree(path string) (gptTree, error) {
	if id, ok := c.loopAt(); ok {
		return gptTree{}, fault.Invalid.Errorf("%s has a loop: node %q is its own ancestor", path, clip(id))
	}
	t := gptTree{ids: slices.Sorted(maps.Keys(c.Mapping)), leaf: -1}
	index := make(map[string]int, len(t.ids))
	for i, id := range t.ids {
		index[id] = i
	}
	t.parent = make([]int, len(t.ids))
	children := make([][]int, len(t.ids))
	var roots []int
	for i, id := range t.ids {
		t.parent[i] = -1
		if p := c.Mapping[id].Parent; p != nil {
			if j, ok := index[*p]; ok {
				t.parent[i] = j
				children[j] = append(children[j], i)
				continue
			}
		}
		roots = append(roots, i)
	}
	at := func(i int) float64 { return c.Mapping[t.ids[i]].createTime() }
	slices.SortFunc(roots, func(a, b int) int { return cmp.Or(cmp.Compare(at(a), at(b)), cmp.Compare(a, b)) })
	for j, kids := range children {
		if len(kids) > 1 {
			place := listed(c.Mapping[t.ids[j]].Children)
			rank := func(i int) int {
				if r, ok := place[t.ids[i]]; ok {
					return r
				}
				return math.MaxInt
			}
			slices.SortFunc(kids, func(a, b int) int {
				return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(at(a), at(b)), cmp.Compare(a, b))
			})
		}
	}
	// Depth first without recursion: a branch may be as long as the file allows.
	t.order = make([]int, 0, len(t.ids))
	stack := slices.Clone(roots)
	slices.Reverse(stack)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t.order = append(t.order, i)
		for k := len(children[i]) - 1; k >= 0; k-- {
			stack = append(stack, children[i][k])
		}
	}
	if c.CurrentNode != nil {
		if i, ok := index[*c.CurrentNode]; ok {
			t.leaf = i
		}
	}
	if t.leaf < 0 {
		t.leaf = t.newestLeaf(children, at)
	}
	return t, nil
}

// listed is where each id first appears in a children list.
func listed(ids []string) map[string]int {
	place := make(map[string]int, len(ids))
	for i, id := range ids {
		if _, ok := place[id]; !ok {
			place[id] = i
		}
	}
	return place
}

// newestLeaf is the node without children whose message is the newest (by time,
// then id); -1 when there is none (an empty mapping).
func (t gptTree) newestLeaf(children [][]int, at func(int) float64) int {
	best := -1
	for i := range t.ids {
		if len(children[i]) > 0 {
			continue
		}
		if best < 0 || at(i) > at(best) || at(i) == at(best) && i > best {
			best = i
		}
	}
	return best
}

// createTime is the node's message's time, or -Inf when it has none.
func (n gptNode) createTime() float64 {
	if n.Message == nil || n.Message.CreateTime == nil {
		return math.Inf(-1)
	}
	return *n.Message.CreateTime
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
