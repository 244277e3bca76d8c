package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxResultBytes is about how much of a tool's result the model gets: head and tail.
const MaxResultBytes = 32 << 10

// Result is a tool's answer as text for the model.
type Result struct {
	Text string
	// IsError: the tool ran and failed; Text says how (the model sees it and may retry).
	IsError bool
}

// resultOf turns a tool's answer into text: text content as it is, structured content
// as JSON (when no text says the same), images and audio as a short note, resource
// links as their address, embedded resources as their text or a note.
func resultOf(r *sdk.CallToolResult) Result {
	var parts []string
	for _, c := range r.Content {
		parts = append(parts, contentText(c))
	}
	if r.StructuredContent != nil && len(parts) == 0 {
		if b, err := json.Marshal(r.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	text := strings.Join(parts, "\n")
	if text == "" && !r.IsError {
		text = "(the tool returned nothing)"
	}
	return Result{Text: headTail(text, MaxResultBytes), IsError: r.IsError}
}

func contentText(c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[an image, %s, %d bytes, not shown]", orUnknown(c.MIMEType), len(c.Data))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio, %s, %d bytes, not played]", orUnknown(c.MIMEType), len(c.Data))
	case *sdk.ResourceLink:
		name := c.Title
		if name == "" {
			name = c.Name
		}
		if name != "" {
			return fmt.Sprintf("[resource %s: %s]", name, c.URI)
		}
		return fmt.Sprintf("[resource: %s]", c.URI)
	case *sdk.EmbeddedResource:
		if c.Resource == nil {
			return "[an empty resource]"
		}
		if c.Resource.Text != "" {
			return fmt.Sprintf("[resource %s]\n%s", c.Resource.URI, c.Resource.Text)
		}
		return fmt.Sprintf("[resource %s, %s, %d bytes, not shown]", c.Resource.URI, orUnknown(c.Resource.MIMEType), len(c.Resource.Blob))
	case nil:
		return ""
	}
	return fmt.Sprintf("[content of type %T, not shown]", c)
}

func orUnknown(mime string) string {
	if mime == "" {
		return "of unknown type"
	}
	return mime
}

// headTail keeps the head and tail of text, about max bytes in all, with a marker
// saying how much was left out; cuts fall on character boundaries.
func headTail(text string, max int) string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	if len(text) <= max {
		return text
	}
	head, tailFrom := max/2, len(text)-max/2
	for head > 0 && !utf8.RuneStart(text[head]) {
		head--
	}
	for tailFrom < len(text) && !utf8.RuneStart(text[tailFrom]) {
		tailFrom++
	}
	return fmt.Sprintf("%s\n[… %d bytes left out …]\n%s", text[:head], tailFrom-head, text[tailFrom:])
}
