package archive

import (
	"fmt"

	"github.com/wispapp/wisp/app/store"
)

// A conversation's messages form a tree. A file lists them parents first, so a
// parent is checked to be a message before its child in the same conversation: no
// branch of a file that passes can loop or hang from a message it lacks, and the
// tree is read in one pass whatever the file holds.

// maxDepth is how far down its branch a message of a file may be. No conversation
// gets near it (a file of 64 MiB holds fewer messages); a file past it was made to
// be, and is refused. A variable so that a test can lower it.
var maxDepth = 1_000_000

const tooDeep = "is at depth %d on its branch: deeper than %d is refused"

// tree checks where each message of a version 2 conversation sits and sets its
// parent, and returns the conversation's active leaf: activeLeafId, which must be
// one of its messages (null only when it has none).
func (k *checker) tree(path string, c Conversation, msgs []store.Message) string {
	depth := make(map[string]int, len(msgs))
	for i := range msgs {
		m := &msgs[i]
		d := 0
		if p := c.Messages[i].ParentID; p != nil {
			at := fmt.Sprintf("%s.messages[%d].parentId", path, i)
			pd, ok := depth[*p]
			if !ok {
				k.fail(at, "%q is not a message before it in this conversation", clip(*p))
				continue
			}
			m.ParentID, d = *p, pd+1
		}
		k.place(fmt.Sprintf("%s.messages[%d]", path, i), depth, m.ID, d)
	}
	at := path + ".activeLeafId"
	leaf := ""
	if c.ActiveLeafID != nil {
		leaf = *c.ActiveLeafID
	}
	_, ok := depth[leaf]
	switch {
	case len(msgs) == 0 && c.ActiveLeafID != nil:
		k.fail(at, "must be null: the conversation has no message")
	case len(msgs) > 0 && c.ActiveLeafID == nil:
		k.fail(at, "is required: it names the last message of the branch the conversation shows")
	case len(msgs) > 0 && !ok:
		k.fail(at, "%q is not a message of this conversation", clip(leaf))
	}
	return leaf
}

// oneBranch makes a version 1 conversation one branch: each message follows the one
// before it, and the last is the active leaf.
func (k *checker) oneBranch(msgs []store.Message) string {
	for i := range msgs {
		if i > 0 {
			msgs[i].ParentID = msgs[i-1].ID
		}
		if i > maxDepth {
			k.fail(fmt.Sprintf("%s.messages[%d]", k.path, i), tooDeep, i, maxDepth)
			break
		}
	}
	if len(msgs) == 0 {
		return ""
	}
	return msgs[len(msgs)-1].ID
}

// place records that the message id (at path) is d deep on its branch.
func (k *checker) place(path string, depth map[string]int, id string, d int) {
	if d > maxDepth {
		k.fail(path, tooDeep, d, maxDepth)
	}
	if _, twice := depth[id]; !twice { // a repeated id is refused by the checker already
		depth[id] = d
	}
}
