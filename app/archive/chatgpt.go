package archive

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/ids"
)

// ChatGPT's export (conversations.json) is an array of conversations. Each keeps its
// messages as a tree, mapping node ids to nodes {id, message, parent, children}
// (chatgpt_tree.go). Every branch is brought in.

// SourceChatGPT is the source of the messages a ChatGPT import brings in.
const SourceChatGPT = "chatgpt"

// untitledChatGPT is the title of a ChatGPT conversation that has none.
const untitledChatGPT = "ChatGPT conversation"

type gptConversation struct {
	ID             string             `json:"id"`
	ConversationID string             `json:"conversation_id"`
	Title          *string            `json:"title"`
	CreateTime     *float64           `json:"create_time"`
	UpdateTime     *float64           `json:"update_time"`
	Mapping        map[string]gptNode `json:"mapping"`
	CurrentNode    *string            `json:"current_node"`
	Model          *string            `json:"default_model_slug"`
}

type gptNode struct {
	Message  *gptMessage `json:"message"`
	Parent   *string     `json:"parent"`
	Children []string    `json:"children"`
}

type gptMessage struct {
	Author struct {
		Role string `json:"role"`
	} `json:"author"`
	CreateTime *float64 `json:"create_time"`
	Content    struct {
		ContentType string            `json:"content_type"`
		Parts       []json.RawMessage `json:"parts"`
	} `json:"content"`
	Weight    *float64 `json:"weight"`
	Recipient *string  `json:"recipient"`
	Metadata  struct {
		Hidden      *bool           `json:"is_visually_hidden_from_conversation"`
		Attachments []gptAttachment `json:"attachments"`
	} `json:"metadata"`
}

// gptAttachment is a file a ChatGPT message lists (metadata.attachments): its bytes
// are not in conversations.json, only its id and name.
type gptAttachment struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// decodeChatGPT reads ChatGPT's export (or one conversation of it) into checked
// conversations; now times a conversation that has no time at all. One with no
// message to bring in is not saved empty: it is marked to be reported as failed.
// data starts at byte base of the file.
func decodeChatGPT(data []byte, base int, now time.Time) ([]checked, error) {
	var raws []json.RawMessage
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
		raws = []json.RawMessage{data} // one conversation: the file is its bytes
	} else if err := json.Unmarshal(data, &raws); err != nil {
		return nil, jsonError("the ChatGPT export", err, base)
	}
	ids := seen{}
	out := make([]checked, 0, len(raws))
	for i, raw := range raws {
		path := fmt.Sprintf("conversations[%d]", i)
		c, err := decodeGPTConversation(path, raw, base)
		if err != nil {
			return nil, err
		}
		doc, err := c.document(path, raw, now)
		if err != nil {
			return nil, err
		}
		ch, err := checkConversation(doc, path, ids, now, Version)
		if err != nil {
			return nil, err
		}
		if len(ch.messages) == 0 {
			ch.notSaved = noMessageToImport
		}
		out = append(out, ch)
		raws[i] = nil // read: its bytes can go
	}
	return out, nil
}

// decodeGPTConversation reads one conversation of ChatGPT's export, which must be an
// object with a mapping. Only a file of one conversation can have a syntax error
// here (the array's were found reading it), and raw then starts at byte base.
func decodeGPTConversation(path string, raw json.RawMessage, base int) (gptConversation, error) {
	var c gptConversation
	if err := notAnObject(path, raw); err != nil {
		return c, err
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, jsonError(path, err, base)
	}
	if c.Mapping == nil {
		return c, fault.Invalid.Errorf("%s.mapping is required: a ChatGPT conversation keeps its messages there", path)
	}
	return c, nil
}

// document is the conversation as Wisp keeps it: the user and assistant messages of
// every branch, with ids derived from ChatGPT's, each under its nearest ancestor
// that is kept, and current_node's as the active leaf. What it refuses is named by
// its place in the file: path is the conversation's.
func (c gptConversation) document(path string, raw []byte, now time.Time) (Conversation, error) {
	key := c.key(raw)
	tree, err := c.tree(path + ".mapping")
	if err != nil {
		return Conversation{}, err
	}
	created, err := gptTime(path+".create_time", c.CreateTime)
	if err != nil {
		return Conversation{}, err
	}
	updated, err := gptTime(path+".update_time", c.UpdateTime)
	if err != nil {
		return Conversation{}, err
	}
	doc := Conversation{ID: ids.FromName("chatgpt/" + key), Title: gptTitle(c.Title),
		Metadata: c.metadata(key), Messages: []Message{}, DisplayMessages: []DisplayMessage{}, Runs: []Run{}}
	// kept is, for each node walked, the nearest node at or above it whose message
	// is kept (-1: none); when, the time of each kept node's message.
	kept := make([]int, len(tree.ids))
	when := make([]time.Time, len(tree.ids))
	msgID := func(node int) *string {
		id := ids.FromName("chatgpt/" + key + "/" + tree.ids[node])
		return &id
	}
	var last time.Time
	for _, node := range tree.order {
		up := -1
		if p := tree.parent[node]; p >= 0 {
			up = kept[p]
		}
		kept[node] = up
		at := fmt.Sprintf("%s.mapping[%q].message", path, clip(tree.ids[node]))
		m, t, ok, err := gptVisible(at, c.Mapping[tree.ids[node]].Message)
		if err != nil {
			return Conversation{}, err
		}
		if !ok {
			continue
		}
		if t.IsZero() && up >= 0 {
			t = when[up] // ChatGPT leaves some times out: the one before stands in
		}
		t = orTime(t, created)
		if created.IsZero() {
			created = t
		}
		if t.After(last) {
			last = t
		}
		kept[node], when[node] = node, t
		m.ID = *msgID(node)
		if up >= 0 {
			m.ParentID = msgID(up)
		}
		m.CreatedAt = wire.ISOTime(orTime(t, created, updated, now))
		doc.Messages = append(doc.Messages, m)
	}
	if n := len(doc.Messages); n > 0 {
		// The leaf's nearest kept message or, when current_node's branch keeps none,
		// the last one saved.
		doc.ActiveLeafID = &doc.Messages[n-1].ID
		if leaf := kept[tree.leaf]; leaf >= 0 {
			doc.ActiveLeafID = msgID(leaf)
		}
	}
	created = orTime(created, updated, now)
	doc.CreatedAt = wire.ISOTime(created)
	doc.UpdatedAt = wire.ISOTime(orTime(updated, last, created))
	return doc, nil
}

// key is what the conversation's ids derive from: ChatGPT's id for it or, in a file
// that has none, its own content.
func (c gptConversation) key(raw []byte) string {
	if c.ConversationID != "" {
		return c.ConversationID
	}
	if c.ID != "" {
		return c.ID
	}
	// As the file has it from its first brace: spaces before it change nothing.
	return "content/" + string(bytes.TrimLeft(raw, " \t\r\n"))
}

func (c gptConversation) metadata(key string) json.RawMessage {
	meta := map[string]string{"importedFrom": SourceChatGPT}
	if !strings.HasPrefix(key, "content/") {
		meta["chatgptId"] = key
	}
	if c.Model != nil && *c.Model != "" {
		meta["model"] = *c.Model
	}
	return wire.JSON(meta)
}

// gptVisible is a node's message as Wisp keeps it, its time, and whether the user saw
// it: user and assistant text only, not hidden, not addressed to a tool.
func gptVisible(path string, m *gptMessage) (Message, time.Time, bool, error) {
	if m == nil {
		return Message{}, time.Time{}, false, nil
	}
	role := m.Author.Role
	hidden := m.Metadata.Hidden != nil && *m.Metadata.Hidden || m.Weight != nil && *m.Weight == 0
	toTool := m.Recipient != nil && *m.Recipient != "" && *m.Recipient != "all"
	text := m.Content.ContentType == "text" || m.Content.ContentType == "multimodal_text"
	if role != "user" && role != "assistant" || hidden || toTool || !text {
		return Message{}, time.Time{}, false, nil
	}
	at, err := gptTime(path+".create_time", m.CreateTime)
	if err != nil {
		return Message{}, time.Time{}, false, err
	}
	body := gptText(m.Content.Parts, m.Metadata.Attachments)
	if strings.TrimSpace(body) == "" {
		return Message{}, time.Time{}, false, nil
	}
	return Message{Role: role, Text: body, Source: SourceChatGPT}, at, true, nil
}

// gptText joins a message's parts: text as it is, anything else (an image, a file,
// audio) as a short placeholder. The files the message lists keep their names, a
// line each (📎 chart.png): an image part in its place, the others (documents)
// before the text, as ChatGPT shows them. Their bytes are not in the file.
func gptText(parts []json.RawMessage, files []gptAttachment) string {
	names := make(map[string]string, len(files))
	for _, f := range files {
		if name := safeName(f.Name); name != "" && f.ID != "" {
			names[f.ID] = name
		}
	}
	used := map[string]bool{}
	var out []string
	for _, p := range parts {
		p = absent(p)
		if p == nil {
			continue
		}
		var s string
		if json.Unmarshal(p, &s) == nil {
			if strings.TrimSpace(s) != "" {
				out = append(out, s)
			}
			continue
		}
		if id := assetID(p); names[id] != "" {
			out = append(out, fileLine(names[id]))
			used[id] = true
			continue
		}
		out = append(out, placeholder(p))
	}
	var lines []string
	for _, f := range files {
		if name := safeName(f.Name); name != "" && !used[f.ID] {
			lines = append(lines, fileLine(name))
			used[f.ID] = true
		}
	}
	if len(lines) > 0 {
		out = append([]string{strings.Join(lines, "\n")}, out...)
	}
	return strings.Join(out, "\n\n")
}

// fileLine is the line that names a file a ChatGPT message listed.
func fileLine(name string) string { return "📎 " + name }

// assetID is the file id an image part points to: file-service://file-X or
// sediment://file_X name the file X of the message's attachments.
func assetID(part json.RawMessage) string {
	var obj struct {
		Pointer string `json:"asset_pointer"`
	}
	_ = json.Unmarshal(part, &obj)
	if _, id, ok := strings.Cut(obj.Pointer, "://"); ok {
		return id
	}
	return ""
}

// safeName is a file's name on one line, without control or bidi characters, at
// most 255 bytes (cut at a character's edge).
func safeName(name string) string {
	name = strings.Map(func(r rune) rune {
		switch {
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r == 0x200e, r == 0x200f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == utf8.RuneError:
			return ' '
		}
		return r
	}, name)
	name = strings.Join(strings.Fields(name), " ")
	for len(name) > 255 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}

func placeholder(part json.RawMessage) string {
	var obj struct {
		ContentType string `json:"content_type"`
	}
	_ = json.Unmarshal(part, &obj)
	switch {
	case strings.Contains(obj.ContentType, "image"):
		return "[image]"
	case strings.Contains(obj.ContentType, "audio"), strings.Contains(obj.ContentType, "video"):
		return "[audio]"
	}
	return "[attachment]"
}

// gptTime reads the time in Unix seconds at path (null or absent is the zero time).
func gptTime(path string, secs *float64) (time.Time, error) {
	if secs == nil {
		return time.Time{}, nil
	}
	ms := math.Round(*secs * 1000)
	if ms < 0 || ms > float64(latest.UnixMilli()) {
		return time.Time{}, invalid(path, "%s is out of range", clip(fmt.Sprint(*secs)))
	}
	return time.UnixMilli(int64(ms)), nil
}

func gptTitle(title *string) string {
	if title == nil || strings.TrimSpace(*title) == "" {
		return untitledChatGPT
	}
	t := strings.Join(strings.Fields(*title), " ")
	if utf8.RuneCountInString(t) <= maxTitleRunes {
		return t
	}
	return string([]rune(t)[:maxTitleRunes-1]) + "…"
}

// orTime is the first time of ts that is not zero.
func orTime(ts ...time.Time) time.Time {
	for _, t := range ts {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}
