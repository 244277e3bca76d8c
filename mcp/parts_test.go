package mcp

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

var modelName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func TestActionName(t *testing.T) {
	tests := []struct{ server, tool, want string }{
		{"github", "create_issue", "github__create_issue"},
		{"my server", "read.file", "my_server__read_file"},
		{"fs", "", "fs___"},
		{"ü", "ok", "___ok"},
	}
	for _, tt := range tests {
		if got := ActionName(tt.server, tt.tool); got != tt.want {
			t.Errorf("ActionName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
	}
	long := ActionName(strings.Repeat("s", 40), strings.Repeat("t", 40))
	if len(long) != MaxActionLen || !modelName.MatchString(long) {
		t.Errorf("long name %q (%d)", long, len(long))
	}
	if other := ActionName(strings.Repeat("s", 40), strings.Repeat("t", 41)); other == long {
		t.Error("two long names that differ after the cut are equal")
	}
	// Tools whose names clean to the same action still get distinct ones.
	got := names("srv", []string{"a.b", "a_b", "c"})
	if got[0] == got[1] || got[2] != "srv__c" || !modelName.MatchString(got[0]) || !modelName.MatchString(got[1]) {
		t.Errorf("names = %q", got)
	}
}

func FuzzActionName(f *testing.F) {
	f.Add("github", "create_issue")
	f.Add(strings.Repeat("é", 50), "\x00")
	f.Fuzz(func(t *testing.T, server, tool string) {
		if got := ActionName(server, tool); !modelName.MatchString(got) {
			t.Fatalf("ActionName(%q, %q) = %q: not a name the model APIs take", server, tool, got)
		}
	})
}

func TestSpecCheck(t *testing.T) {
	tests := []struct {
		name string
		spec Spec
		err  string // "" when valid
	}{
		{"fs", Spec{Command: "npx", Args: []string{"-y", "x"}, Env: map[string]string{"A": "1"}}, ""},
		{"web", Spec{URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer x"}}, ""},
		{"", Spec{Command: "x"}, "needs a name"},
		{"a/b", Spec{Command: "x"}, "slash"},
		{"none", Spec{}, "give a command"},
		{"both", Spec{Command: "x", URL: "http://h"}, "not both"},
		{"ftp", Spec{URL: "ftp://h/x"}, "http:// or https://"},
		{"mixed", Spec{URL: "http://h", Args: []string{"x"}}, "not a url"},
		{"hdr", Spec{Command: "x", Headers: map[string]string{"A": "b"}}, "not a command"},
		{"env", Spec{Command: "x", Env: map[string]string{"A=B": "1"}}, "not a variable name"},
		{"crlf", Spec{URL: "http://h", Headers: map[string]string{"X": "a\r\nInjected: 1"}}, "not a valid header"},
	}
	for _, tt := range tests {
		err := tt.spec.Check(tt.name)
		if (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%q: %v, want %q", tt.name, err, tt.err)
		}
	}
}

func TestTail(t *testing.T) {
	tl := newTail(3, 10)
	_, _ = tl.Write([]byte("one\ntwo\r\nthree is longer than ten\nfo"))
	_, _ = tl.Write([]byte("ur\nfive"))
	got := strings.Join(tl.Lines(), "|")
	if got != "three is l|four|five" {
		t.Errorf("lines = %q", got)
	}
	bad := newTail(2, 100)
	_, _ = bad.Write([]byte("\xff\xfe\n"))
	if l := bad.Lines(); len(l) != 1 || !utf8.ValidString(l[0]) {
		t.Errorf("invalid UTF-8 kept as %q", l)
	}
}

func TestResultOf(t *testing.T) {
	size := int64(3)
	res := resultOf(&sdk.CallToolResult{Content: []sdk.Content{
		&sdk.TextContent{Text: "hello"},
		&sdk.ImageContent{Data: []byte{1, 2, 3}, MIMEType: "image/png"},
		&sdk.ResourceLink{URI: "file:///a.txt", Name: "a.txt", Size: &size},
		&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://x", Text: "inside"}},
	}})
	want := "hello\n[an image, image/png, 3 bytes, not shown]\n[resource a.txt: file:///a.txt]\n[resource mem://x]\ninside"
	if res.Text != want || res.IsError {
		t.Errorf("result = %+v\nwant %q", res, want)
	}
	structured := resultOf(&sdk.CallToolResult{StructuredContent: map[string]any{"n": 1}})
	if structured.Text != `{"n":1}` {
		t.Errorf("structured = %q", structured.Text)
	}
	if empty := resultOf(&sdk.CallToolResult{}); empty.Text == "" {
		t.Error("an empty result says nothing")
	}
	huge := resultOf(&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("é", MaxResultBytes)}}})
	if len(huge.Text) > MaxResultBytes+100 || !strings.Contains(huge.Text, "bytes left out") || !utf8.ValidString(huge.Text) {
		t.Errorf("huge result: %d bytes, valid %v", len(huge.Text), utf8.ValidString(huge.Text))
	}
}
