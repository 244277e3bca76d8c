package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/internal/fault"
)

// fakeBlobs keeps files in a folder by hash, as app/attach does, with its limit on
// one file; kind and type are read from the bytes' first one (enough here).
type fakeBlobs struct {
	dir   string
	st    *store.Store
	limit int64
	mu    sync.Mutex
	n     int
}

func newBlobs(t testing.TB, st *store.Store) *fakeBlobs {
	return &fakeBlobs{dir: t.TempDir(), st: st, limit: 20 << 20}
}

func (b *fakeBlobs) Open(_ context.Context, a store.Attachment) (*os.File, error) {
	return os.Open(filepath.Join(b.dir, a.SHA256))
}

func (b *fakeBlobs) Upload(ctx context.Context, name, _ string, body io.Reader) (store.Attachment, error) {
	data, err := io.ReadAll(io.LimitReader(body, b.limit+1))
	if err != nil {
		return store.Attachment{}, err
	}
	if int64(len(data)) > b.limit {
		return store.Attachment{}, fault.TooLarge.Errorf("a file may be at most %d bytes", b.limit)
	}
	sum := sha256.Sum256(data)
	sha := hex.EncodeToString(sum[:])
	if err := os.WriteFile(filepath.Join(b.dir, sha), data, 0o600); err != nil {
		return store.Attachment{}, err
	}
	mime, kind := "text/plain; charset=utf-8", "text"
	if len(data) > 0 && data[0] == 0x89 {
		mime, kind = "image/png", "image"
	}
	now := time.UnixMilli(t0)
	if _, err := b.st.PutBlob(ctx, store.Blob{SHA256: sha, Size: int64(len(data)), MIME: mime, Kind: kind, CreatedAt: now}); err != nil {
		return store.Attachment{}, err
	}
	b.mu.Lock()
	b.n++
	id := fmt.Sprintf("up-%d", b.n)
	b.mu.Unlock()
	return b.st.CreateAttachment(ctx, store.Attachment{ID: id, SHA256: sha, Name: name, CreatedAt: now})
}

func newServiceWithBlobs(t testing.TB) (*Service, *store.Store, *fakeBlobs) {
	t.Helper()
	st := openStore(t)
	b := newBlobs(t, st)
	return New(Options{Store: st, Events: &frames{}, Now: func() time.Time { return exportTime },
		AgentName: func() string { return "Wisp" }, Blobs: b}), st, b
}

var (
	pngBytes  = append([]byte{0x89, 'P', 'N', 'G'}, bytes.Repeat([]byte{1, 2, 3}, 300)...)
	noteBytes = []byte("line one\nline two\n")
)

// seedFiles adds a conversation whose question lists an image and a note, and whose
// edited question lists the same image again (one file, two messages).
func seedFiles(t *testing.T, st *store.Store, b *fakeBlobs) {
	t.Helper()
	ctx := context.Background()
	img, err := b.Upload(ctx, "shot.png", "image/png", bytes.NewReader(pngBytes))
	if err != nil {
		t.Fatal(err)
	}
	note, err := b.Upload(ctx, "notes.txt", "text/plain", bytes.NewReader(noteBytes))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateConversation(ctx, store.Conversation{ID: "c-files", Title: "Files", RoomID: "c-files", CreatedAt: ms(t0)}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []store.Message{
		{ID: "f1", ConversationID: "c-files", Role: "user", Text: "what is this?", AttachmentIDs: []string{img.ID, note.ID}, CreatedAt: ms(t0 + 1000)},
		{ID: "f2", ConversationID: "c-files", ParentID: "f1", Role: "assistant", Text: "A picture.", CreatedAt: ms(t0 + 2000)},
		{ID: "f3", ConversationID: "c-files", Role: "user", Text: "", AttachmentIDs: []string{img.ID}, CreatedAt: ms(t0 + 3000)},
	} {
		if _, err := st.AddMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
}

// The JSON export carries each message's files inline; importing it into a fresh
// Wisp restores the same messages listing the same files (ids, names, bytes), and
// its export is the same file again.
func TestAttachmentsJSONRoundTrip(t *testing.T) {
	s, st, b := newServiceWithBlobs(t)
	seedFiles(t, st, b)
	data := exportOne(t, s, "c-files", JSON)
	doc := decodeDocument(t, data)
	m := doc.Conversations[0].Messages
	if doc.Version != Version || len(m) != 3 || len(m[0].Attachments) != 2 || len(m[2].Attachments) != 1 || m[1].Attachments != nil {
		t.Fatalf("%s", data)
	}
	a := m[0].Attachments[0]
	sum := sha256.Sum256(pngBytes)
	if a.Name != "shot.png" || a.MIME != "image/png" || a.Kind != "image" || a.Size != int64(len(pngBytes)) ||
		a.SHA256 != hex.EncodeToString(sum[:]) || !bytes.Equal(a.Data, pngBytes) || !bytes.Equal(m[0].Attachments[1].Data, noteBytes) {
		t.Fatalf("attachment %+v", a)
	}

	s2, st2, _ := newServiceWithBlobs(t)
	if res := mustImport(t, s2, data, Detect); res.Imported != 1 || len(res.Failed) != 0 {
		t.Fatalf("import %+v", res)
	}
	checkFiles(t, st, st2, s2)
	if again := exportOne(t, s2, "c-files", JSON); !bytes.Equal(again, data) {
		t.Fatalf("the export of the import differs\nwant:\n%s\ngot:\n%s", data, again)
	}
	if res := mustImport(t, s2, data, Detect); res.Skipped != 1 || res.Imported != 0 {
		t.Fatalf("twice: %+v", res)
	}
	// Back into the Wisp it came from, after it was deleted there: its files are
	// still there under their ids, and are not stored again.
	if err := st.DeleteConversation(context.Background(), "c-files"); err != nil {
		t.Fatal(err)
	}
	uploads := b.n
	if res := mustImport(t, s, data, Detect); res.Imported != 1 || b.n != uploads {
		t.Fatalf("back: %+v, %d uploads", res, b.n-uploads)
	}
	if again := exportOne(t, s, "c-files", JSON); !bytes.Equal(again, data) {
		t.Fatalf("the export of the import back differs")
	}
}

// checkFiles compares the files each message of c-files lists in two stores.
func checkFiles(t *testing.T, want, got *store.Store, s *Service) {
	t.Helper()
	ctx := context.Background()
	ids := []string{"f1", "f2", "f3"}
	w, err := want.MessageAttachments(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	g, err := got.MessageAttachments(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if len(w[id]) != len(g[id]) {
			t.Fatalf("%s: %d files, want %d", id, len(g[id]), len(w[id]))
		}
		for i := range w[id] {
			if w[id][i].ID != g[id][i].ID || w[id][i].Name != g[id][i].Name || w[id][i].SHA256 != g[id][i].SHA256 {
				t.Errorf("%s[%d]: %+v, want %+v", id, i, g[id][i], w[id][i])
			}
			data, err := s.readBlob(ctx, g[id][i])
			if err != nil || int64(len(data)) != w[id][i].Blob.Size {
				t.Errorf("%s[%d]: bytes %v", id, i, err)
			}
		}
	}
}

// The zip holds conversations.json without the bytes and each file once; importing
// it into a fresh Wisp restores the same conversation and files.
func TestAttachmentsZipRoundTrip(t *testing.T) {
	s, st, b := newServiceWithBlobs(t)
	seed(t, st)
	seedFiles(t, st, b)
	data := exportAll(t, s, Zip)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	sumPNG, sumNote := sha256.Sum256(pngBytes), sha256.Sum256(noteBytes)
	shas := []string{hex.EncodeToString(sumPNG[:]), hex.EncodeToString(sumNote[:])}
	if shas[0] > shas[1] {
		shas[0], shas[1] = shas[1], shas[0]
	}
	if want := "conversations.json attachments/" + shas[0] + " attachments/" + shas[1]; strings.Join(names, " ") != want {
		t.Fatalf("entries %v, want %s", names, want)
	}
	doc, _ := readEntry(zr.File[0], MaxZipDocBytes)
	if bytes.Contains(doc, []byte(`"data"`)) || !bytes.Contains(doc, []byte(`"sha256": "`+shas[0])) {
		t.Fatalf("conversations.json:\n%s", doc)
	}

	s2, st2, _ := newServiceWithBlobs(t)
	res, err := s2.ImportZip(context.Background(), bytes.NewReader(data), int64(len(data)), Detect)
	if err != nil || res.Imported != 3 || len(res.Failed) != 0 {
		t.Fatalf("import %+v %v", res, err)
	}
	checkFiles(t, st, st2, s2)
	if want, got := exportAll(t, s, JSON), exportAll(t, s2, JSON); !bytes.Equal(want, got) {
		t.Fatalf("the import differs\nwant:\n%s\ngot:\n%s", want, got)
	}
	// The Markdown export names the files.
	if md := exportOne(t, s2, "c-files", Markdown); !bytes.Contains(md, []byte("what is this?\n\n📎 shot.png (904 B)\n📎 notes.txt (18 B)\n")) {
		t.Fatalf("markdown:\n%s", md)
	}
}

// A JSON export carries at most 8 MiB of files: a bigger one is refused with a 413
// saying to export a zip; without Blobs the files are listed without their bytes,
// and an import of a file with attachments is refused.
func TestAttachmentsJSONBounds(t *testing.T) {
	s, st, b := newServiceWithBlobs(t)
	seedFiles(t, st, b)
	big, err := b.Upload(context.Background(), "big.bin", "", bytes.NewReader(bytes.Repeat([]byte("x"), JSONInlineMaxBytes)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddMessage(context.Background(), store.Message{ID: "f4", ConversationID: "c-files", ParentID: "f3", Role: "user",
		AttachmentIDs: []string{big.ID}, CreatedAt: ms(t0 + 4000)}); err != nil {
		t.Fatal(err)
	}
	for _, export := range []func() (*Export, error){
		func() (*Export, error) { return s.ExportConversation(context.Background(), "c-files", JSON) },
		func() (*Export, error) { return s.ExportAll(context.Background(), JSON) },
	} {
		if _, err := export(); !fault.Is(err, fault.TooLarge) || !strings.Contains(err.Error(), "export it as a .zip (format=zip)") {
			t.Errorf("a JSON export of 8 MiB and more: %v", err)
		}
	}
	if _, err := s.ExportConversation(context.Background(), "c-files", Zip); err != nil {
		t.Errorf("zip: %v", err)
	}

	plain := New(Options{Store: st, Now: func() time.Time { return exportTime }})
	data := exportOne(t, plain, "c-files", JSON)
	if bytes.Contains(data, []byte(`"data"`)) || !bytes.Contains(data, []byte(`"name": "shot.png"`)) {
		t.Fatalf("without blobs:\n%s", data)
	}
	fresh, st2 := New(Options{Store: openStore(t), Events: &frames{}}), (*store.Store)(nil)
	_ = st2
	if _, err := fresh.Import(context.Background(), data, Detect); !fault.Is(err, fault.Invalid) || err.Error() != errNoBlobs.Error() {
		t.Errorf("import without blobs: %v", err)
	}
	s3, _, _ := newServiceWithBlobs(t)
	if _, err := s3.Import(context.Background(), data, Detect); !fault.Is(err, fault.Invalid) ||
		!strings.Contains(err.Error(), "its bytes (data) are not in the file: import the .zip export instead") {
		t.Errorf("import without data: %v", err)
	}
}

// What an import refuses of a file's attachments, with nothing saved.
func TestAttachmentsRefused(t *testing.T) {
	sum := sha256.Sum256(noteBytes)
	sha := hex.EncodeToString(sum[:])
	file := func(att string) []byte {
		return []byte(`{"format":"wisp-export","version":2,"exportedAt":"2026-11-21T09:30:00.000Z","conversations":[{"id":"c","createdAt":"2026-11-21T09:00:00Z",` +
			`"activeLeafId":"m","messages":[{"id":"m","parentId":null,"role":"user","text":"hi","createdAt":"2026-11-21T09:00:00Z","attachments":[` + att + `]}]}]}`)
	}
	data := func(b []byte) string { j, _ := json.Marshal(b); return string(j) }
	for _, c := range []struct{ name, att, want string }{
		{"other bytes", `{"id":"a","name":"n.txt","size":18,"sha256":"` + sha + `","data":` + data([]byte("line one\nline tw0\n")) + `}`,
			"attachments[0].data: is not the file named"},
		{"other size", `{"id":"a","name":"n.txt","size":17,"sha256":"` + sha + `","data":` + data(noteBytes) + `}`, "is not the file named"},
		{"bad sha", `{"id":"a","name":"n.txt","size":18,"sha256":"ABC","data":` + data(noteBytes) + `}`, "is not a SHA-256 in lower-case hex"},
		{"no name", `{"id":"a","name":"","size":18,"sha256":"` + sha + `","data":` + data(noteBytes) + `}`, ".name: is required"},
		{"bad id", `{"id":"a/b","name":"n","size":18,"sha256":"` + sha + `","data":` + data(noteBytes) + `}`, `.id: "a/b" is not an id`},
		{"not base64", `{"id":"a","name":"n","size":18,"sha256":"` + sha + `","data":"%%%"}`, "is not valid JSON"},
		{"too many", strings.Repeat(`{"id":"a","name":"n","size":18,"sha256":"`+sha+`","data":`+data(noteBytes)+`},`, 100) +
			`{"id":"a","name":"n","size":18,"sha256":"` + sha + `","data":` + data(noteBytes) + `}`, "lists 101 files: at most 100 are read"},
	} {
		s, st, _ := newServiceWithBlobs(t)
		_, err := s.Import(context.Background(), file(c.att), Detect)
		if !fault.Is(err, fault.Invalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if convs, _ := st.Conversations(context.Background()); len(convs) != 0 {
			t.Errorf("%s: saved %d conversations", c.name, len(convs))
		}
	}
	// A file the attachment limits refuse fails its conversation, not the import.
	s, st, b := newServiceWithBlobs(t)
	b.limit = 10
	res, err := s.Import(context.Background(), file(`{"id":"a","name":"n.txt","size":18,"sha256":"`+sha+`","data":`+data(noteBytes)+`}`), Detect)
	if err != nil || res.Imported != 0 || len(res.Failed) != 1 || !strings.Contains(res.Failed[0].Error, "at most 10 bytes") {
		t.Fatalf("too big for the limits: %+v %v", res, err)
	}
	if convs, _ := st.Conversations(context.Background()); len(convs) != 0 {
		t.Errorf("saved %d conversations", len(convs))
	}
}
