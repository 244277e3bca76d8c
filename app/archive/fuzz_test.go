package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"
	"unicode/utf8"

	"github.com/wispapp/wisp/internal/fault"
)

// FuzzImport: whatever the file, an import either succeeds or says what is wrong
// with it (fault.Invalid, a 400, in a short message): it never panics, loops or
// fails inside (a 500). What it brought in then exports, as UTF-8 text, in a file
// that imports (parents before children, a leaf among the messages), and no
// conversation of ChatGPT's comes in empty.
func FuzzImport(f *testing.F) {
	fixture, err := os.ReadFile(chatgptFixture)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(fixture, "")
	if files, err := os.ReadFile("testdata/chatgpt/files.json"); err == nil {
		f.Add(files, "")
	}
	f.Add([]byte(`{"format":"wisp-export","version":2,"exportedAt":"2026-11-21T09:30:00Z","conversations":[{"id":"c","createdAt":"2026-11-21T09:00:00Z","activeLeafId":"m","messages":[{"id":"m","role":"user","text":"hi","createdAt":"2026-11-21T09:00:00Z","attachments":[{"id":"a","name":"n","size":2,"sha256":"0000000000000000000000000000000000000000000000000000000000000000","data":"aGk="}]}]}]}`), "")
	f.Add([]byte(`{"format":"wisp-export","version":1,"exportedAt":"2026-11-21T09:30:00.000Z","conversations":[{"id":"c","title":"t","createdAt":"2026-11-21T09:00:00Z","messages":[{"id":"m","role":"user","text":"hi","createdAt":"2026-11-21T09:00:00Z"}],"displayMessages":[{"id":"d","messageType":"tool","contentType":"tool_call","content":{"name":"x"},"status":"failed","createdAt":"2026-11-21T09:00:00Z"}],"runs":[{"id":"r","status":"active","startedAt":"2026-11-21T09:00:00Z","output":{}}]}]}`), "")
	f.Add([]byte(`[{"id":"x","current_node":"b","mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"multimodal_text","parts":[{"content_type":"image_asset_pointer"},"hi",null]}}},"b":{"parent":"a","message":{"author":{"role":"assistant"},"create_time":1.5,"content":{"content_type":"text","parts":["yo"]}}}}}]`), "chatgpt")
	f.Add([]byte(`{"format":"wisp-export","version":1}`), "wisp")
	f.Add([]byte("\xef\xbb\xbf[]"), "")
	f.Add([]byte(`{"mapping":{"a":{"parent":"a"}},"current_node":"a"}`), "")
	f.Add([]byte(`[{"mapping":null,"title":7}]`), "chatgpt")
	f.Add([]byte(`{"format":"wisp-export","version":1,"exportedAt":"2026-11-21T09:30:00Z","conversations":[{"id":"c","createdAt":"9999-12-31T23:59:59.999Z","title":"\u0000"}]}`), "")
	f.Add([]byte("{\"format\":\"wisp-export\",\"title\":\"caf\xe9\"}"), "")
	f.Add([]byte(`[{"mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["\ud800"]}}}}}]`), "")
	f.Add([]byte(`[{"title":"\ud83d\ude00","mapping":{"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["\\udc00"]}}}}}]`), "")
	f.Add([]byte(`[null]`), "chatgpt")
	f.Add([]byte(`[{"mapping":{"a":{"parent":"b","children":["b"]},"b":{"parent":"a","children":["a"]}}}]`), "chatgpt")
	branches, err := os.ReadFile(chatgptBranches)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(branches, "chatgpt")
	// Version 2: a tree, a loop, a parent in another conversation, a leaf that is not there.
	const v2 = `{"format":"wisp-export","version":2,"exportedAt":"2026-11-21T09:30:00Z","conversations":[`
	const at = `"createdAt":"2026-11-21T09:00:00Z"`
	f.Add([]byte(v2+`{"id":"c",`+at+`,"activeLeafId":"b","messages":[{"id":"a","parentId":null,"role":"user","text":"q",`+at+`},{"id":"b","parentId":"a","role":"assistant","text":"x",`+at+`},{"id":"e","parentId":"a","role":"assistant","text":"y",`+at+`},{"id":"f","role":"user","text":"q2",`+at+`}]}]}`), "")
	f.Add([]byte(v2+`{"id":"c",`+at+`,"activeLeafId":"a","messages":[{"id":"a","parentId":"b","role":"user","text":"q",`+at+`},{"id":"b","parentId":"a","role":"user","text":"q",`+at+`}]}]}`), "wisp")
	f.Add([]byte(v2+`{"id":"c",`+at+`,"activeLeafId":"a","messages":[{"id":"a","role":"user","text":"q",`+at+`}]},{"id":"d",`+at+`,"activeLeafId":"b","messages":[{"id":"b","parentId":"a","role":"user","text":"q",`+at+`}]}]}`), "")
	f.Add([]byte(v2+`{"id":"c",`+at+`,"activeLeafId":"zz","messages":[{"id":"a","role":"user","text":"q",`+at+`}]}]}`), "")
	f.Add([]byte(`{"mapping":{"r":{"children":["q","q"]},"q":{"parent":"r","children":["r"],"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}}},"t":{"parent":"gone","message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["yo"]}}}},"current_node":"r"}`), "")
	f.Add([]byte(`{"format":"wisp-export","version":1e99999,"exportedAt":"2026-11-21T09:30:00Z","conversations":[null]}`), "")
	ctx := context.Background()
	s, _, _ := newService(f)
	f.Fuzz(func(t *testing.T, data []byte, source string) {
		src, err := ParseSource(source)
		if err != nil {
			src = Detect
		}
		res, err := s.Import(ctx, data, src)
		if err != nil {
			if !fault.Is(err, fault.Invalid) {
				t.Fatalf("import failed inside: %v", err)
			}
			if len(err.Error()) > maxRefusal {
				t.Fatalf("a %d-byte refusal: %.300q", len(err.Error()), err.Error())
			}
			return
		}
		// What imports was UTF-8 (RFC 8259 §8.1), and what it stored is too: no
		// byte that is not and no lone surrogate reaches the export.
		if !utf8.Valid(data) {
			t.Fatalf("a file that is not UTF-8 was imported: %q", data)
		}
		for _, id := range res.Conversations {
			ex, err := s.ExportConversation(ctx, id, JSON)
			if err != nil {
				t.Fatalf("export %s: %v", id, err)
			}
			var b bytes.Buffer
			if err := ex.WriteTo(ctx, &b); err != nil || !json.Valid(b.Bytes()) {
				t.Fatalf("export %s: %v\n%s", id, err, b.Bytes())
			}
			if err := checkText(b.Bytes()); err != nil {
				t.Fatalf("export %s: %v\n%q", id, err, b.Bytes())
			}
			// No conversation of ChatGPT's comes in empty.
			if doc := decodeDocument(t, b.Bytes()); src == ChatGPT && len(doc.Conversations[0].Messages) == 0 {
				t.Fatalf("an empty ChatGPT conversation was imported from %q", data)
			}
			// What came in exports as a file that imports: its tree holds.
			if _, _, err := decodeFile(b.Bytes(), Wisp, exportTime); err != nil {
				t.Fatalf("export %s does not import: %v\n%s", id, err, b.Bytes())
			}
		}
	})
}
