package chat

import (
	"context"
	"encoding/json"

	"github.com/wispapp/wisp/internal/fault"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/view"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/runtime/reply"
)

// MessageLimit is how many messages a snapshot (a client's resync) holds: the newest
// of the branch shown.
const MessageLimit = 200

// A page of the branch shown holds DefaultPageLimit messages unless asked for
// another number, at most MaxPageLimit.
const (
	DefaultPageLimit = 100
	MaxPageLimit     = 500
)

// Page asks for a page of the branch a conversation shows: the newest (no cursor), or
// the messages just Before or After a message of it, or Around one. Limit 0 is
// DefaultPageLimit.
type Page struct {
	Before, After, Around string
	Limit                 int
}

func (p Page) query() (store.PageQuery, error) {
	q := store.PageQuery{Before: p.Before, After: p.After, Around: p.Around, Limit: p.Limit}
	if q.Limit == 0 {
		q.Limit = DefaultPageLimit
	}
	if q.Limit < 1 || q.Limit > MaxPageLimit {
		return q, fault.Invalid.Errorf("limit must be between 1 and %d", MaxPageLimit)
	}
	cursors := 0
	for _, c := range []string{p.Before, p.After, p.Around} {
		if c != "" {
			cursors++
		}
	}
	if cursors > 1 {
		return q, fault.Invalid.Errorf("give one of before, after and around")
	}
	return q, nil
}

// Messages returns a page of the branch a conversation shows, oldest first, each
// message with its place in the tree, assistant replies rebuilt as the trail users
// saw live, and the display messages of the page's runs. On the newest page, a reply
// still being written (or paused) on that branch comes last with status "active" and
// its text so far.
func (s *Service) Messages(ctx context.Context, convID string, p Page) (wire.MessageList, error) {
	list, _, _, err := s.page(ctx, convID, p)
	return list, err
}

// page is Messages with the live run it shows, if any, and the number of the last
// event of it that the page reflects, read with its text.
func (s *Service) page(ctx context.Context, convID string, p Page) (wire.MessageList, *Run, int64, error) {
	q, err := p.query()
	if err != nil {
		return wire.MessageList{}, nil, 0, err
	}
	if _, err := s.conversation(ctx, convID); err != nil {
		return wire.MessageList{}, nil, 0, err
	}
	pg, err := s.store.BranchPage(ctx, convID, q)
	if err != nil {
		return wire.MessageList{}, nil, 0, messageErr(err)
	}
	list := wire.MessageList{Messages: make([]wire.Message, 0, len(pg.Messages)+1),
		HasOlder: pg.HasOlder, HasNewer: pg.HasNewer, BranchLength: pg.BranchLength}
	var run *Run
	var seq int64
	var live wire.Message
	if !pg.HasNewer {
		if run, err = s.shownRun(ctx, convID, s.liveRuns(convID)); err != nil {
			return wire.MessageList{}, nil, 0, err
		}
	}
	if run != nil {
		text, at, ended := run.snapshot()
		if ended {
			run = nil
		} else {
			// "active" also while paused (the message statuses are seed 000's): a client
			// resumes its stream either way and sees the pause in it.
			seq = at
			live = wire.Message{ID: run.ReplyMessageID, Role: "assistant", Text: text,
				Timestamp: run.StartedAt.UnixMilli(), Source: "chat", RunID: run.ID, Status: StatusActive}
		}
	}
	parents := make([]string, 0, len(pg.Messages)+1)
	runIDs := []string{}
	for _, m := range pg.Messages {
		parents = append(parents, m.ParentID)
		if m.RunID != "" {
			runIDs = append(runIDs, m.RunID)
		}
	}
	var leaf store.Message
	if run != nil && len(pg.Messages) > 0 {
		leaf = pg.Messages[len(pg.Messages)-1]
		parents = append(parents, leaf.ID)
		runIDs = append(runIDs, run.ID)
	}
	children, err := s.store.Children(ctx, convID, parents)
	if err != nil {
		return wire.MessageList{}, nil, 0, err
	}
	for _, m := range pg.Messages {
		list.Messages = append(list.Messages, placed(toMessage(m), m.ParentID, m.Depth, children[m.ParentID]))
	}
	if err := s.addUsage(ctx, list.Messages); err != nil {
		return wire.MessageList{}, nil, 0, err
	}
	if err := s.fillAttachments(ctx, list.Messages); err != nil {
		return wire.MessageList{}, nil, 0, err
	}
	if run != nil && leaf.ID != "" {
		list.Messages = append(list.Messages, placed(live, leaf.ID, leaf.Depth+1, append(children[leaf.ID], live.ID)))
		list.BranchLength++
	}
	rows, err := s.store.RunDisplayMessages(ctx, convID, runIDs)
	if err != nil {
		return wire.MessageList{}, nil, 0, err
	}
	if list.Summaries, err = s.pageSummaries(ctx, convID, pg.Messages); err != nil {
		return wire.MessageList{}, nil, 0, err
	}
	list.DisplayMessages = make([]wire.DisplayMessage, len(rows))
	for i, r := range rows {
		list.DisplayMessages[i] = view.DisplayMessage(r)
	}
	return list, run, seq, nil
}

// placed fills in a message's place in the tree: its parent, its depth and its
// siblings (the parent's children, itself among them).
func placed(m wire.Message, parent string, depth int, siblings []string) wire.Message {
	if parent != "" {
		m.ParentID = &parent
	}
	m.Depth = depth
	m.SiblingIDs = siblings
	if len(siblings) == 0 {
		m.SiblingIDs = []string{m.ID}
	}
	for i, id := range m.SiblingIDs {
		if id == m.ID {
			m.SiblingIndex = i
		}
	}
	return m
}

func toMessage(m store.Message) wire.Message {
	msg := wire.Message{ID: m.ID, Role: wire.Role(m.Role), Text: m.Text, Timestamp: m.CreatedAt.UnixMilli(), Source: m.Source, RunID: m.RunID}
	if m.Role != "assistant" {
		return msg
	}
	var meta struct {
		Status, Error, ReminderID string
		Late                      bool
	}
	_ = json.Unmarshal(m.Metadata, &meta)
	msg.Status, msg.Error = wire.RunStatus(meta.Status), meta.Error
	msg.ReminderID, msg.Late = meta.ReminderID, meta.Late
	msg.ActionCallbackHistory = m.CallbackHistory
	var segs []reply.Segment
	if len(m.Segments) > 0 && json.Unmarshal(m.Segments, &segs) == nil && len(segs) > 0 {
		msg.Text = reply.Trail(segs)
	} else if len(m.CallbackHistory) > 0 {
		msg.Text = reply.TrailFromHistory(m.Text, m.CallbackHistory)
	}
	return msg
}

// Truncate deletes a message and everything below it on every branch (or only what
// follows it); when the branch shown went with it, it ends at the message (or its
// parent). Refused while a run of the conversation is live: it may be below.
func (s *Service) Truncate(ctx context.Context, convID, messageID string, inclusive bool) (int, error) {
	if messageID == "" {
		return 0, fault.Invalid.Errorf("messageId is required")
	}
	if _, err := s.conversation(ctx, convID); err != nil {
		return 0, err
	}
	if len(s.liveRuns(convID)) > 0 {
		return 0, fault.Conflict.Errorf("a reply is still being written in this conversation")
	}
	n, err := s.store.TruncateMessages(ctx, convID, messageID, inclusive)
	return n, messageErr(err)
}
