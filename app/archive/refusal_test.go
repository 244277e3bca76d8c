package archive

import (
	"context"
	"strings"
	"testing"

	"github.com/wispapp/wisp/internal/fault"
)

// maxRefusal is how long a refusal may be: it names what is wrong and where, and
// quotes no more of the file than a glance takes.
const maxRefusal = 1024

// shortRefusal expects err to be a short fault.Invalid with want in it.
func shortRefusal(t *testing.T, err error, want string) {
	t.Helper()
	if !fault.Is(err, fault.Invalid) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %.300q, want an invalid error with %q", err, want)
	}
	t.Log(err)
	if n := len(err.Error()); n > maxRefusal {
		t.Fatalf("a %d-byte refusal: %.300q…", n, err.Error())
	}
}

func TestRefusalsQuoteLittleOfTheFile(t *testing.T) {
	huge := strings.Repeat("7", 20<<20) // a 20 MB number
	long := strings.Repeat("x", 1<<20)
	wisp := func(head, conv string) string {
		return `{"format":"wisp-export",` + head + `"exportedAt":"2026-11-21T09:30:00.000Z","conversations":[` + conv + `]}`
	}
	conv := func(fields string) string {
		return wisp(`"version":1,`, `{"messages":[],"id":"c1","createdAt":"2026-11-21T09:00:00.000Z",`+fields+`"roomId":"r"}`)
	}
	message := func(field string) string {
		return conv(`"messages":[{"id":"m1","role":"user","createdAt":"2026-11-21T09:00:00.000Z",` + field + `}],`)
	}
	gpt := func(fields, node string) string {
		return `[{"id":"g",` + fields + `"mapping":{"a":{"message":{"author":{"role":"user"},` + node + `"content":{"content_type":"text","parts":["hi"]}}}}}]`
	}
	cases := []struct{ name, data, want string }{
		{"a 20 MB version", wisp(`"version":`+huge+`,`, ""), "version 7777"},
		{"a 20 MB negative version", wisp(`"version":-`+huge+`,`, ""), "is not a whole number in range"},
		{"a 20 MB create_time", gpt(`"create_time":`+huge+`,`, ""), "create_time 7777"},
		{"a 20 MB update_time", gpt(`"update_time":1`+huge+`,`, ""), "update_time 17777"},
		{"a 20 MB message create_time", gpt("", `"create_time":`+huge+`,`), "mapping.message.create_time 777"},
		{"a 20 MB weight", gpt("", `"weight":`+huge+`,`), "weight 777"},
		{"a 20 MB number as a text", message(`"text":` + huge), "text must be a string, not number"},
		{"a 20 MB number as an id", conv(`"id":` + huge + `,`), "id must be a string"},
		{"a long format", `{"format":"` + long + `","version":1}`, `format "xxx`},
		{"a long version in a string", wisp(`"version":"`+long+`",`, ""), "version must be a number, not string"},
		{"a long id", conv(`"id":"` + long + `",`), `conversations[0].id: "xxx`},
		{"a long title", conv(`"title":"` + long + `",`), "conversations[0].title: is longer than 200"},
		{"a long time", conv(`"updatedAt":"` + long + `",`), `conversations[0].updatedAt: "xxx`},
		{"a long role", message(`"role":"` + long + `"`), `role: "xxx`},
		{"a long source", message(`"source":"` + long + `"`), "source: is longer than 256 bytes"},
		{"a long status", conv(`"runs":[{"id":"r","status":"` + long + `","startedAt":"2026-11-21T09:00:00Z"}],`), `status: "xxx`},
		{"a long node id in a loop", `[{"mapping":{"` + long + `":{"parent":"b"},"b":{"parent":"` + long + `"}}}]`, "loop"},
		{"a long node id with a bad time", `[{"mapping":{"` + long + `":{"message":{"author":{"role":"user"},"create_time":-1,"content":{"content_type":"text","parts":["hi"]}}}}}]`, "out of range"},
		{"a long key with a bad value", `{"format":"wisp-export","version":1,"` + long + `":1,"exportedAt":"no","conversations":[]}`, "exportedAt"},
		{"a syntax error after a long number", `{"format":"wisp-export","version":` + huge + `x}`, "not valid JSON"},
		{"a syntax error in a long string", `{"format":"` + long + "\t" + `"}`, "not valid JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, st, _ := newService(t)
			_, err := s.Import(context.Background(), []byte(tc.data), Detect)
			shortRefusal(t, err, tc.want)
			if convs, _ := st.Conversations(context.Background()); len(convs) != 0 {
				t.Fatalf("a refused file saved %+v", convs)
			}
		})
	}
}

func TestUnknownFormatNamesAreClipped(t *testing.T) {
	long := strings.Repeat("z", 1<<20)
	_, err := ParseSource(long)
	shortRefusal(t, err, `unknown import format "zzz`)
	_, err = ParseFormat(long)
	shortRefusal(t, err, `unknown export format "zzz`)
}

func TestClip(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"short", "short"},
		{strings.Repeat("a", maxQuoted), strings.Repeat("a", maxQuoted)},
		{strings.Repeat("a", maxQuoted+1), strings.Repeat("a", maxQuoted) + "…"},
		// Not inside a character: "é" is two bytes.
		{"a" + strings.Repeat("é", maxQuoted), "a" + strings.Repeat("é", maxQuoted/2-1) + "…"},
	} {
		if got := clip(tc.in); got != tc.want {
			t.Errorf("clip(%.20q…) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A syntax error names its byte in the file as uploaded: a byte order mark and the
// spaces before the JSON count.
func TestSyntaxErrorsCountTheWholeFile(t *testing.T) {
	for _, tc := range []struct {
		data string
		src  Source
		want string
	}{
		{"{nope", Detect, "the file is not valid JSON (at byte 2)"},
		{"\xef\xbb\xbf  {nope", Detect, "the file is not valid JSON (at byte 7)"},
		{"\xef\xbb\xbf{nope", Wisp, "the Wisp export is not valid JSON (at byte 5)"},
		{"\xef\xbb\xbf [1,}", ChatGPT, "the ChatGPT export is not valid JSON (at byte 8)"},
		{"\xef\xbb\xbf\n{\"mapping\": x}", ChatGPT, "conversations[0] is not valid JSON (at byte 17)"},
	} {
		s, _, _ := newService(t)
		_, err := s.Import(context.Background(), []byte(tc.data), tc.src)
		shortRefusal(t, err, tc.want)
	}
}
