package archive

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
)

// The values the store's tables allow (their CHECKs in app/store/migrate.go): an
// import checks them first so that a bad file is told what is wrong with it.
var (
	roles        = set("user", "assistant")
	messageTypes = set("user", "assistant", "tool", "system")
	contentTypes = set("text", "thinking", "tool_call", "tool_result", "error", "notification", "approval")
	toolStatuses = set("pending", "waiting", "executing", "completed", "failed", "interrupted", "cancelled")
	runStatuses  = set(store.RunActive, store.RunPaused, store.RunEnded, store.RunFailed, store.RunInterrupted)
)

// idPattern is what an imported record's id must match: ids travel in URL paths.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

const (
	maxTitleRunes = 200
	maxShortText  = 256 // sources, client message ids, tool call ids
)

// earliest and latest bound an imported time: nothing Wisp keeps is older than the
// Unix epoch, and ISO 8601 has four-digit years.
var (
	earliest = time.Unix(0, 0)
	latest   = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
)

// interruptedByExport is the error of a run that was still live when it was exported.
const interruptedByExport = "the reply was still being written when it was exported"

// checked is a conversation of an import file, checked and ready to save.
type checked struct {
	conv     store.Conversation
	messages []store.Message
	// files are the attachments of each of messages (by index; nil: none).
	files   [][]fileRef
	display []store.DisplayMessage
	runs    []checkedRun
	// leaf is the last message of the branch the conversation shows ("" when it has
	// no message).
	leaf string
	// notSaved, when set, is why the conversation is not saved though the file is
	// fine: the import reports it as failed and brings in the rest.
	notSaved string
}

// noMessageToImport is why a ChatGPT conversation with no message is not saved: it
// would come in as an empty conversation.
const noMessageToImport = "nothing to import: the conversation has no user or assistant message with text"

type checkedRun struct {
	run    store.Run
	output json.RawMessage
}

// seen are the ids met so far in a file, by kind: a file must not repeat one.
type seen map[string]map[string]bool

func (s seen) add(kind, id string) bool {
	if s[kind] == nil {
		s[kind] = map[string]bool{}
	}
	if s[kind][id] {
		return false
	}
	s[kind][id] = true
	return true
}

// checker checks one conversation, naming what it refuses by its path in the file.
type checker struct {
	path string
	seen seen
	// exportedAt ends the runs that were live when the file was written.
	exportedAt time.Time
	err        error
}

// fail keeps the first problem found.
func (k *checker) fail(path, format string, args ...any) {
	if k.err == nil {
		k.err = invalid(path, format, args...)
	}
}

// checkConversation checks a conversation of a file of the given version (its
// messages' places in the tree are read from version 2 on).
func checkConversation(c Conversation, path string, ids seen, exportedAt time.Time, version int) (checked, error) {
	k := &checker{path: path, seen: ids, exportedAt: exportedAt}
	out := checked{conv: store.Conversation{
		ID: k.id(path+".id", "conversation", c.ID), Title: k.title(path+".title", c.Title),
		RoomID: c.RoomID, Metadata: k.object(path+".metadata", c.Metadata, false),
	}}
	if out.conv.RoomID == "" {
		out.conv.RoomID = out.conv.ID
	} else {
		k.short(path+".roomId", c.RoomID)
	}
	out.conv.CreatedAt = k.time(path+".createdAt", c.CreatedAt, true)
	out.conv.UpdatedAt = k.time(path+".updatedAt", c.UpdatedAt, false)
	if out.conv.UpdatedAt.IsZero() {
		out.conv.UpdatedAt = out.conv.CreatedAt
	}
	for i, m := range c.Messages {
		mpath := fmt.Sprintf("%s.messages[%d]", path, i)
		out.messages = append(out.messages, k.message(mpath, out.conv.ID, m))
		if len(m.Attachments) > 0 {
			if out.files == nil {
				out.files = make([][]fileRef, len(c.Messages))
			}
			out.files[i] = k.attachments(mpath+".attachments", m.Attachments)
		}
	}
	if version < 2 {
		out.leaf = k.oneBranch(out.messages)
	} else {
		out.leaf = k.tree(path, c, out.messages)
	}
	out.conv.ActiveLeafID = out.leaf
	for i, d := range c.DisplayMessages {
		out.display = append(out.display, k.displayMessage(fmt.Sprintf("%s.displayMessages[%d]", path, i), out.conv.ID, d))
	}
	for i, r := range c.Runs {
		out.runs = append(out.runs, k.run(fmt.Sprintf("%s.runs[%d]", path, i), out.conv.ID, r))
	}
	return out, k.err
}

func (k *checker) message(path, convID string, m Message) store.Message {
	out := store.Message{
		ID: k.id(path+".id", "message", m.ID), ConversationID: convID, Role: k.oneOf(path+".role", m.Role, roles),
		Text: m.Text, Source: k.short(path+".source", m.Source), RunID: k.optID(path+".runId", m.RunID),
		ClientMessageID: k.short(path+".clientMessageId", m.ClientMessageID),
		Segments:        k.array(path+".segments", m.Segments), CallbackHistory: m.CallbackHistory,
		Metadata: k.object(path+".metadata", m.Metadata, false), CreatedAt: k.time(path+".createdAt", m.CreatedAt, true),
	}
	return out
}

func (k *checker) displayMessage(path, convID string, d DisplayMessage) store.DisplayMessage {
	out := store.DisplayMessage{
		ID: k.id(path+".id", "display message", d.ID), ConversationID: convID, RunID: k.optID(path+".runId", d.RunID),
		MessageType: k.oneOf(path+".messageType", d.MessageType, messageTypes),
		ContentType: k.oneOf(path+".contentType", d.ContentType, contentTypes),
		Content:     k.value(path+".content", d.Content), ToolCallID: k.short(path+".toolCallId", d.ToolCallID),
		Metadata:  k.object(path+".metadata", d.Metadata, false),
		CreatedAt: k.time(path+".createdAt", d.CreatedAt, true), UpdatedAt: k.time(path+".updatedAt", d.UpdatedAt, false),
	}
	if d.Status != "" {
		out.Status = k.oneOf(path+".status", d.Status, toolStatuses)
	}
	if out.UpdatedAt.IsZero() {
		out.UpdatedAt = out.CreatedAt
	}
	return out
}

func (k *checker) run(path, convID string, r Run) checkedRun {
	out := store.Run{
		ID: k.id(path+".id", "run", r.ID), ConversationID: convID, UserMessageID: k.optID(path+".userMessageId", r.UserMessageID),
		Status: k.oneOf(path+".status", r.Status, runStatuses), Error: r.Error,
		StartedAt: k.time(path+".startedAt", r.StartedAt, true), EndedAt: k.time(path+".endedAt", r.EndedAt, false),
	}
	if out.Status == store.RunActive || out.Status == store.RunPaused {
		// It ended when it left: no run of an import is live.
		out.Status, out.EndedAt = store.RunInterrupted, k.exportedAt
		if out.Error == "" {
			out.Error = interruptedByExport
		}
	}
	if out.EndedAt.IsZero() {
		out.EndedAt = out.StartedAt
	}
	return checkedRun{run: out, output: k.object(path+".output", r.Output, false)}
}

func (k *checker) id(path, kind, id string) string {
	if id == "" {
		k.fail(path, "is required")
	} else if !idPattern.MatchString(id) {
		k.fail(path, "%q is not an id (1 to 128 letters, digits, '.', '_', ':' or '-')", clip(id))
	} else if !k.seen.add(kind, id) {
		k.fail(path, "the %s id %q appears twice in the file", kind, clip(id))
	}
	return id
}

func (k *checker) optID(path, id string) string {
	if id != "" && !idPattern.MatchString(id) {
		k.fail(path, "%q is not an id", clip(id))
	}
	return id
}

func (k *checker) title(path, title string) string {
	title = strings.TrimSpace(title)
	if title == "" {
		return wire.DefaultTitle
	}
	if utf8.RuneCountInString(title) > maxTitleRunes {
		k.fail(path, "is longer than %d characters", maxTitleRunes)
	}
	return title
}

func (k *checker) short(path, s string) string {
	if len(s) > maxShortText {
		k.fail(path, "is longer than %d bytes", maxShortText)
	}
	return s
}

func (k *checker) oneOf(path, s string, allowed map[string]bool) string {
	if s == "" {
		k.fail(path, "is required")
	} else if !allowed[s] {
		k.fail(path, "%q is not one of %s", clip(s), names(allowed))
	}
	return s
}

func (k *checker) time(path, s string, required bool) time.Time {
	if s == "" {
		if required {
			k.fail(path, "is required")
		}
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		k.fail(path, "%q is not an ISO 8601 time such as 2026-11-21T09:00:00.000Z", clip(s))
		return time.Time{}
	}
	if t.Before(earliest) || t.After(latest) {
		k.fail(path, "%q is out of range", clip(s))
		return time.Time{}
	}
	return time.UnixMilli(t.UnixMilli())
}

func set(values ...string) map[string]bool {
	m := make(map[string]bool, len(values))
	for _, v := range values {
		m[v] = true
	}
	return m
}

func names(m map[string]bool) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}
