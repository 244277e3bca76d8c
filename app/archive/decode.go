package archive

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/wispapp/wisp/internal/fault"
)

// Source is the kind of file an import reads.
type Source string

// The sources an import reads; Detect looks at the file to tell.
const (
	Detect  Source = ""
	Wisp    Source = "wisp"
	ChatGPT Source = "chatgpt"
)

// ParseSource reads a source's name: wisp, chatgpt, or auto (also "") to tell by
// the file.
func ParseSource(name string) (Source, error) {
	switch strings.ToLower(name) {
	case "", "auto":
		return Detect, nil
	case "wisp":
		return Wisp, nil
	case "chatgpt":
		return ChatGPT, nil
	}
	return "", fault.Invalid.Errorf("unknown import format %q: use wisp, chatgpt or auto", clip(name))
}

// decodeFile reads an import file into checked conversations, or says what is wrong
// with it (fault.Invalid) before anything is saved. It returns the source it read.
func decodeFile(data []byte, src Source, now time.Time) ([]checked, Source, error) {
	if err := checkText(data); err != nil {
		return nil, src, err
	}
	body := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a byte order mark some editors write
	base := len(data) - len(body)
	if src == Detect {
		var err error
		if src, err = detect(body, base); err != nil {
			return nil, src, err
		}
	}
	var convs []checked
	var err error
	if src == ChatGPT {
		convs, err = decodeChatGPT(body, base, now)
	} else {
		convs, err = decodeWisp(body, base)
	}
	return convs, src, err
}

// detect tells a Wisp export (an object with "format") from ChatGPT's export (an
// array of conversations, or one conversation: an object with "mapping"). data
// starts at byte base of the file.
func detect(data []byte, base int) (Source, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return "", fault.Invalid.Errorf("the file is empty")
	}
	switch trimmed[0] {
	case '[':
		return ChatGPT, nil
	case '{':
		var probe struct {
			Format  json.RawMessage `json:"format"`
			Mapping json.RawMessage `json:"mapping"`
		}
		if err := json.Unmarshal(data, &probe); err != nil {
			return "", jsonError("the file", err, base)
		}
		switch {
		case probe.Format != nil:
			return Wisp, nil
		case probe.Mapping != nil:
			return ChatGPT, nil
		}
	}
	return "", fault.Invalid.Errorf("this is neither a Wisp export (an object with \"format\": %q) nor ChatGPT's conversations.json (an array of conversations)", FormatName)
}

// wispFile is a Wisp export as read: what is missing stays nil, so it can be told.
// Its conversations are read one by one, so that what is refused is named by its
// place in the file.
type wispFile struct {
	Format        *string            `json:"format"`
	Version       *int               `json:"version"`
	ExportedAt    *string            `json:"exportedAt"`
	Conversations *[]json.RawMessage `json:"conversations"`
}

// decodeWisp reads a Wisp export into checked conversations; data starts at byte
// base of the file.
func decodeWisp(data []byte, base int) ([]checked, error) {
	var f wispFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, jsonError("the Wisp export", err, base)
	}
	switch {
	case f.Format == nil:
		return nil, fault.Invalid.Errorf("format is required: a Wisp export says \"format\": %q", FormatName)
	case *f.Format != FormatName:
		return nil, fault.Invalid.Errorf("format %q is not a Wisp export (%q)", clip(*f.Format), FormatName)
	case f.Version == nil:
		return nil, fault.Invalid.Errorf("version is required")
	case *f.Version < OldestVersion || *f.Version > Version:
		return nil, fault.Invalid.Errorf("version %d is not one this Wisp reads (%d to %d): use a Wisp of that version",
			*f.Version, OldestVersion, Version)
	case f.ExportedAt == nil:
		return nil, fault.Invalid.Errorf("exportedAt is required")
	case f.Conversations == nil:
		return nil, fault.Invalid.Errorf("conversations is required")
	}
	k := &checker{}
	exportedAt := k.time("exportedAt", *f.ExportedAt, true)
	if k.err != nil {
		return nil, k.err
	}
	raws := *f.Conversations
	ids := seen{}
	out := make([]checked, 0, len(raws))
	for i, raw := range raws {
		path := fmt.Sprintf("conversations[%d]", i)
		if err := notAnObject(path, raw); err != nil {
			return nil, err
		}
		var c Conversation
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, jsonError(path, err, base)
		}
		ch, err := checkConversation(c, path, ids, exportedAt, *f.Version)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
		raws[i] = nil // read: its bytes can go
	}
	return out, nil
}

// notAnObject refuses a conversation of a file (at path) that is not a JSON object:
// null, a number, a string, an array, true or false.
func notAnObject(path string, raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] == '{' {
		return nil // nothing to tell: the decoder says what is wrong
	}
	what := "a number"
	switch raw[0] {
	case 'n':
		what = "null"
	case '[':
		what = "an array"
	case '"':
		what = "a string"
	case 't':
		what = "true"
	case 'f':
		what = "false"
	}
	return fault.Invalid.Errorf("%s is %s: a conversation must be an object", path, what)
}
