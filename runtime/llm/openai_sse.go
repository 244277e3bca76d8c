package llm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// openAIChunk is what Wisp reads of one Chat Completions chunk. The SDK's own chunk
// type is decoded through reflection field by field and cost more CPU than the rest
// of a streamed token's path together, so the stream is read here with encoding/json
// into this small struct; the SDK's types still build the request's body.
type openAIChunk struct {
	Choices []openAIChoice `json:"choices"`
	Usage   *openAIUsage   `json:"usage"`
	// Error is set when the chunk is an error event (any value, null included).
	Error json.RawMessage `json:"error"`
}

// openAIUsage is a chunk's usage. Cached prompt tokens are in
// prompt_tokens_details.cached_tokens (OpenAI, OpenRouter, vLLM); OpenRouter adds
// cache_write_tokens there, and DeepSeek says prompt_cache_hit_tokens instead.
type openAIUsage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens     int64 `json:"cached_tokens"`
		CacheWriteTokens int64 `json:"cache_write_tokens"`
	} `json:"prompt_tokens_details"`
	PromptCacheHitTokens int64 `json:"prompt_cache_hit_tokens"`
}

// usage is the chunk's usage in Wisp's terms, each count made sane.
func (u *openAIUsage) usage() Usage {
	out := Usage{
		InputTokens:     reported(u.PromptTokens),
		OutputTokens:    reported(u.CompletionTokens),
		CacheReadTokens: reported(u.PromptCacheHitTokens),
	}
	if d := u.PromptTokensDetails; d != nil {
		if d.CachedTokens != 0 {
			out.CacheReadTokens = reported(d.CachedTokens)
		}
		out.CacheWriteTokens = reported(d.CacheWriteTokens)
	}
	return out
}

type openAIChoice struct {
	Index int64 `json:"index"`
	Delta struct {
		Content string `json:"content"`
		Refusal string `json:"refusal"`
		// Reasoning as servers put it in non-standard fields: reasoning_content
		// (DeepSeek, llama.cpp, LM Studio) and reasoning (Ollama, OpenRouter).
		// Raw, so that a value of another type is skipped, not an error.
		ReasoningContent json.RawMessage  `json:"reasoning_content"`
		Reasoning        json.RawMessage  `json:"reasoning"`
		ToolCalls        []openAIToolFrag `json:"tool_calls"`
	} `json:"delta"`
	FinishReason string `json:"finish_reason"`
}

type openAIToolFrag struct {
	Index    int64  `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// reasoning is the delta's reasoning text: reasoning_content's, else reasoning's,
// when it is a non-empty string.
func (c *openAIChoice) reasoning() string {
	for _, raw := range []json.RawMessage{c.Delta.ReasoningContent, c.Delta.Reasoning} {
		if len(raw) == 0 || raw[0] != '"' {
			continue
		}
		var text string
		if json.Unmarshal(raw, &text) == nil && text != "" {
			return text
		}
	}
	return ""
}

// decodeOpenAIChunk decodes one chunk. A field of an unexpected type is left zero
// rather than failing the stream, as the SDK's decoder did; only malformed JSON is
// an error.
func decodeOpenAIChunk(data []byte, c *openAIChunk) error {
	// The choices' memory is reused, cleared: encoding/json only sets the fields
	// present, and a previous chunk's text must not leak into this one.
	choices := c.Choices[:cap(c.Choices)]
	clear(choices)
	*c = openAIChunk{Choices: choices[:0]}
	err := json.Unmarshal(data, c)
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return nil
	}
	return err
}

// sseReader reads a server-sent event stream's data, event by event: the lines of
// one event's data joined by (and each ending with) "\n", as the SDK's decoder gave
// them. Comments, event names and other fields are skipped; an event without data
// is no event.
type sseReader struct {
	sc      *bufio.Scanner
	data    []byte
	tooLong error
}

// maxSSEEvent bounds one event's data, a line as much as many lines of it: the
// model's server is not trusted to end its events.
const maxSSEEvent = bufio.MaxScanTokenSize << 9 // 32 MiB

// errSSEEventTooLong ends a stream whose event outgrew maxSSEEvent.
var errSSEEventTooLong = errors.New("an event of the model's stream is larger than 32 MiB")

func newSSEReader(r io.Reader) *sseReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxSSEEvent)
	return &sseReader{sc: sc}
}

// next returns the next event's data, valid until the following call, or false at
// the end of the stream (Err tells whether reading failed). Data left without its
// closing blank line at the end is dropped.
func (r *sseReader) next() ([]byte, bool) {
	r.data = r.data[:0]
	for r.sc.Scan() {
		line := r.sc.Bytes()
		if len(line) == 0 {
			if len(r.data) > 0 {
				return r.data, true
			}
			continue
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		if string(name) != "data" {
			continue
		}
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		if len(r.data)+len(value) >= maxSSEEvent {
			r.tooLong = errSSEEventTooLong
			return nil, false
		}
		r.data = append(r.data, value...)
		r.data = append(r.data, '\n')
	}
	return nil, false
}

func (r *sseReader) err() error {
	if r.tooLong != nil {
		return r.tooLong
	}
	return r.sc.Err()
}
