package voice

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxMessage bounds the upstream message passed on to the user, in characters.
const maxMessage = 300

// readBounded reads at most limit bytes of res's body.
func readBounded(res *http.Response, limit int64) []byte {
	data, _ := io.ReadAll(io.LimitReader(res.Body, limit))
	return data
}

// upstreamMessage is what an audio server's error answer says, in one short line:
// OpenAI's {"error":{"message"}}, {"error":"..."}, FastAPI's {"detail":...} (Kokoro,
// Speaches), {"message":"..."}, or the body as plain text. Control characters and
// markup-looking bodies (an HTML error page) are dropped.
func upstreamMessage(body []byte) string {
	var shaped struct {
		Error   json.RawMessage `json:"error"`
		Detail  json.RawMessage `json:"detail"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &shaped) == nil {
		var nested struct {
			Message string `json:"message"`
		}
		var text string
		switch {
		case json.Unmarshal(shaped.Error, &nested) == nil && nested.Message != "":
			return oneLine(nested.Message)
		case json.Unmarshal(shaped.Error, &text) == nil && text != "":
			return oneLine(text)
		case json.Unmarshal(shaped.Detail, &text) == nil && text != "":
			return oneLine(text)
		case len(shaped.Detail) > 0 && string(shaped.Detail) != "null":
			return oneLine(detailMessage(shaped.Detail))
		case shaped.Message != "":
			return oneLine(shaped.Message)
		}
	}
	text := strings.TrimSpace(string(body))
	if strings.HasPrefix(text, "<") {
		return "" // an HTML page says nothing a user can read here
	}
	return oneLine(text)
}

// detailMessage reads FastAPI's validation detail, a list of {"msg", "loc"}.
func detailMessage(raw json.RawMessage) string {
	var items []struct {
		Msg string `json:"msg"`
		Loc []any  `json:"loc"`
	}
	if json.Unmarshal(raw, &items) != nil || len(items) == 0 {
		return string(raw)
	}
	msgs := make([]string, 0, len(items))
	for _, it := range items {
		if it.Msg != "" {
			msgs = append(msgs, it.Msg)
		}
	}
	return strings.Join(msgs, "; ")
}

// oneLine folds s to one line of printable characters, at most maxMessage long.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "")
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	out := b.String()
	if utf8.RuneCountInString(out) > maxMessage {
		out = string([]rune(out)[:maxMessage-1]) + "…"
	}
	return out
}
