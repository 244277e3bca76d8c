package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wispapp/wisp/internal/fault"
)

// entry is a zip entry to write: its bytes, or with raw a header that claims size
// bytes over body (what a zip made to hurt does).
type entry struct {
	name string
	body []byte
	raw  bool
	size uint64
}

func makeZip(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range entries {
		if e.raw {
			w, err := zw.CreateRaw(&zip.FileHeader{Name: e.name, Method: zip.Store, CRC32: crc32.ChecksumIEEE(e.body),
				CompressedSize64: uint64(len(e.body)), UncompressedSize64: e.size})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(e.body)
			continue
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(e.body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// zipDoc is a conversations.json whose one message lists noteBytes.
func zipDoc() []byte {
	sum := sha256.Sum256(noteBytes)
	return []byte(`{"format":"wisp-export","version":2,"exportedAt":"2026-11-21T09:30:00.000Z","conversations":[{"id":"c","createdAt":"2026-11-21T09:00:00Z",` +
		`"activeLeafId":"m","messages":[{"id":"m","parentId":null,"role":"user","text":"hi","createdAt":"2026-11-21T09:00:00Z","attachments":[` +
		`{"id":"a","name":"n.txt","size":18,"sha256":"` + hex.EncodeToString(sum[:]) + `"}]}]}]}`)
}

func noteEntry() string {
	sum := sha256.Sum256(noteBytes)
	return "attachments/" + hex.EncodeToString(sum[:])
}

// A zip made to hurt is refused whole, with what is wrong, and nothing saved: too
// many entries, entries or a whole that claim too much, names that climb or start
// at a root, a name twice, a conversations.json too big or missing, an entry that
// holds more than it says, an attachment without its entry; an entry whose bytes are
// not the ones named fails its conversation.
func TestZipRefused(t *testing.T) {
	doc := entry{name: ZipDocument, body: zipDoc()}
	note := entry{name: noteEntry(), body: noteBytes}
	many := make([]entry, MaxZipEntries+1)
	for i := range many {
		many[i] = entry{name: "x/" + strings.Repeat("a", 1+i%7) + string(rune('a'+i%26)) + itoa(i)}
	}
	for _, c := range []struct {
		name    string
		zip     []byte
		want    string
		partial bool // the import goes on; the conversation fails
	}{
		{"fine", makeZip(t, doc, note), "", false},
		{"not a zip", []byte("PK\x03\x04 nothing"), "is not a zip Wisp reads", false},
		{"too many entries", makeZip(t, many...), "entries: more than 100000 is refused", false},
		{"an entry too big", makeZip(t, doc, entry{name: "attachments/x", raw: true, size: MaxZipEntryBytes + 1}), "more than 1073741824 is refused", false},
		{"too big in all", makeZip(t, doc, entry{name: "a", raw: true, size: MaxZipEntryBytes}, entry{name: "b", raw: true, size: MaxZipEntryBytes},
			entry{name: "c", raw: true, size: MaxZipEntryBytes}, entry{name: "d", raw: true, size: MaxZipEntryBytes}, entry{name: "e", raw: true, size: 1}),
			"more than 4 GiB uncompressed", false},
		{"climbs", makeZip(t, doc, note, entry{name: "../../etc/passwd"}), `entry named "../../etc/passwd"`, false},
		{"climbs inside", makeZip(t, doc, note, entry{name: "attachments/../../x"}), "entry named", false},
		{"absolute", makeZip(t, doc, note, entry{name: "/etc/passwd"}), "entry named", false},
		{"drive", makeZip(t, doc, note, entry{name: "C:/x"}), "entry named", false},
		{"backslash", makeZip(t, doc, note, entry{name: `..\x`}), "entry named", false},
		{"NUL", makeZip(t, doc, note, entry{name: "a\x00b"}), "entry named", false},
		{"twice", makeZip(t, doc, note, doc), `has "conversations.json" twice`, false},
		{"document too big", makeZip(t, entry{name: ZipDocument, raw: true, size: MaxZipDocBytes + 1}), "conversations.json is 67108865 bytes", false},
		{"no document", makeZip(t, note), "the zip has no conversations.json", false},
		{"document lies", makeZip(t, entry{name: ZipDocument, raw: true, body: zipDoc(), size: 10}, note), "conversations.json cannot be read", false},
		{"no entry", makeZip(t, doc), "the zip has no attachments/", false},
		{"entry lies", makeZip(t, doc, entry{name: noteEntry(), raw: true, body: noteBytes, size: 5}), "cannot be read", true},
		{"other bytes", makeZip(t, doc, entry{name: noteEntry(), body: []byte("something else")}), "do not have the SHA-256", true},
		{"bad JSON", makeZip(t, entry{name: ZipDocument, body: []byte("{")}), "not valid JSON", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, st, _ := newServiceWithBlobs(t)
			res, err := s.ImportZip(context.Background(), bytes.NewReader(c.zip), int64(len(c.zip)), Detect)
			convs, _ := st.Conversations(context.Background())
			switch {
			case c.want == "":
				if err != nil || res.Imported != 1 || len(convs) != 1 {
					t.Fatalf("%+v %v", res, err)
				}
			case c.partial:
				if err != nil || res.Imported != 0 || len(res.Failed) != 1 || !strings.Contains(res.Failed[0].Error, c.want) {
					t.Fatalf("%+v %v, want a failed conversation: %s", res, err, c.want)
				}
			case !fault.Is(err, fault.Invalid) || !strings.Contains(err.Error(), c.want):
				t.Fatalf("%v, want %q", err, c.want)
			case len(err.Error()) > maxRefusal:
				t.Fatalf("a %d-byte refusal", len(err.Error()))
			}
			if c.want != "" && len(convs) != 0 {
				t.Fatalf("saved %d conversations", len(convs))
			}
		})
	}
}

func itoa(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		if i /= 10; i == 0 {
			return string(b)
		}
	}
}

// FuzzImportZip: whatever the zip, an import either succeeds or says what is wrong
// with it (fault.Invalid, in a short message): never a panic or a failure inside.
func FuzzImportZip(f *testing.F) {
	f.Add(makeZip(f, entry{name: ZipDocument, body: zipDoc()}, entry{name: noteEntry(), body: noteBytes}))
	f.Add(makeZip(f, entry{name: ZipDocument, body: zipDoc()}, entry{name: "../x"}))
	f.Add(makeZip(f, entry{name: ZipDocument, raw: true, body: zipDoc(), size: 3}))
	s, _, _ := newServiceWithBlobs(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := s.ImportZip(context.Background(), bytes.NewReader(data), int64(len(data)), Detect)
		if err != nil && (!fault.Is(err, fault.Invalid) || len(err.Error()) > maxRefusal) {
			t.Fatalf("%v", err)
		}
	})
}

// FuzzEntryName: a name the entry check passes never climbs out or starts at a root.
func FuzzEntryName(f *testing.F) {
	for _, s := range []string{"conversations.json", "attachments/ab", "../x", "a/../../b", "/etc", `a\b`, "C:x", "a\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if checkEntryName(name) != nil {
			return
		}
		if strings.HasPrefix(name, "/") || strings.Contains(name, "\\") || strings.ContainsRune(name, 0) ||
			slices.Contains(strings.Split(name, "/"), "..") || filepath.IsAbs(name) {
			t.Fatalf("%q passed", name)
		}
	})
}
