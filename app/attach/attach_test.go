package attach

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"image"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/runtime/llm"
)

var ctx = context.Background()

func upload(t testing.TB, s *Service, name string, data []byte) store.Attachment {
	t.Helper()
	a, err := s.Upload(ctx, name, "application/x-whatever", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestUploadStoresOnceByContent(t *testing.T) {
	s, st, _ := newService(t, DefaultLimits())
	data := pngBytes(t, 64, 48, false)
	a := upload(t, s, "../shot.png", data)
	b := upload(t, s, "again\u202E.png", data)
	sum := sha256.Sum256(data)
	sha := hex.EncodeToString(sum[:])
	if a.ID == b.ID || a.SHA256 != sha || b.SHA256 != sha {
		t.Fatalf("ids %s %s, shas %s %s", a.ID, b.ID, a.SHA256, b.SHA256)
	}
	if a.Name != "shot.png" || b.Name != "again.png" {
		t.Errorf("names %q %q", a.Name, b.Name)
	}
	if a.Blob.Kind != "image" || a.Blob.MIME != "image/png" || a.Blob.Width != 64 || a.Blob.Height != 48 || a.Blob.Size != int64(len(data)) {
		t.Errorf("blob %+v", a.Blob)
	}
	if got := files(t, s); len(got) != 1 || got[0] != sha[:2]+"/"+sha {
		t.Errorf("files %v", got)
	}
	if n, _ := st.BlobBytes(ctx); n != int64(len(data)) {
		t.Errorf("one blob row: %d bytes", n)
	}
	f, err := s.Open(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, _ := io.ReadAll(f); !bytes.Equal(got, data) {
		t.Error("the bytes differ")
	}
	if got, err := s.Get(ctx, b.ID); err != nil || got.Name != "again.png" {
		t.Errorf("Get: %+v %v", got, err)
	}
	if _, err := s.Get(ctx, "nope"); !fault.Is(err, fault.NotFound) {
		t.Errorf("Get unknown: %v", err)
	}
}

// The bytes decide the type, never the name or the declared type.
func TestUploadSniffsTheBytes(t *testing.T) {
	s, _, _ := newService(t, DefaultLimits())
	a, err := s.Upload(ctx, "cat.png", "image/png", strings.NewReader("just text, not a picture"))
	if err != nil || a.Blob.Kind != "text" || a.Blob.MIME != "text/plain; charset=utf-8" {
		t.Errorf("text claiming PNG: %+v %v", a.Blob, err)
	}
	a, err = s.Upload(ctx, "cat.png", "image/png", strings.NewReader("<html><body><script>fetch('/api')</script>"))
	if err != nil || a.Blob.Kind != "text" || a.Blob.MIME != "text/html; charset=utf-8" {
		t.Errorf("HTML named .png: %+v %v", a.Blob, err)
	}
	a, err = s.Upload(ctx, "notes.txt", "text/plain", bytes.NewReader([]byte{'h', 0, 'i'}))
	if err != nil || a.Blob.Kind != "file" || a.Blob.MIME != "application/octet-stream" {
		t.Errorf("binary named .txt: %+v %v", a.Blob, err)
	}
}

// A body that ends early or fails stores nothing.
func TestCutUploadStoresNothing(t *testing.T) {
	s, st, _ := newService(t, DefaultLimits())
	body := io.MultiReader(bytes.NewReader(bytes.Repeat([]byte("a"), 300<<10)), errReader{io.ErrUnexpectedEOF})
	_, err := s.Upload(ctx, "log.txt", "", body)
	if !fault.Is(err, fault.Invalid) || !strings.Contains(err.Error(), "cut") {
		t.Errorf("cut upload: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Upload(cctx, "log.txt", "", strings.NewReader("x")); err == nil {
		t.Error("an upload whose request is gone succeeded")
	}
	if got := files(t, s); len(got) != 0 {
		t.Errorf("left %v", got)
	}
	if n, _ := st.BlobBytes(ctx); n != 0 {
		t.Errorf("blob rows: %d bytes", n)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestUploadLimits(t *testing.T) {
	lim := DefaultLimits()
	lim.FileBytes, lim.TotalBytes = 1000, 2500
	s, _, _ := newService(t, lim)
	counted := &countingReader{r: bytes.NewReader(make([]byte, 1<<20))}
	_, err := s.Upload(ctx, "big.bin", "", counted)
	if !fault.Is(err, fault.TooLarge) || err.Error() != "the file is larger than 1000 bytes, the limit for one attachment" {
		t.Errorf("over the file limit: %v", err)
	}
	if counted.n > 1000+copyBuffer {
		t.Errorf("read %d bytes of a body over the limit", counted.n)
	}
	upload(t, s, "a", bytes.Repeat([]byte("a"), 1000))
	upload(t, s, "b", bytes.Repeat([]byte("b"), 1000))
	upload(t, s, "b again", bytes.Repeat([]byte("b"), 1000)) // stored already: no room needed
	_, err = s.Upload(ctx, "c", "", bytes.NewReader(bytes.Repeat([]byte("c"), 1000)))
	if !fault.Is(err, fault.TooLarge) || !strings.Contains(err.Error(), "attachments.totalMiB") {
		t.Errorf("over the folder limit: %v", err)
	}
	if got := files(t, s); len(got) != 2 {
		t.Errorf("files %v", got)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestHugeImageRefusedBeforeDecoding(t *testing.T) {
	s, _, _ := newService(t, DefaultLimits())
	bomb := hugePNG(t, 40000, 40000)
	_, err := s.Upload(ctx, "bomb.png", "image/png", bytes.NewReader(bomb))
	if !fault.Is(err, fault.TooLarge) || err.Error() != "the image is 40000×40000 pixels; Wisp reads at most 50 megapixels" {
		t.Fatalf("upload: %v", err)
	}
	_, err = s.FitImage(ctx, llm.Image{MIME: "image/png", Data: bomb}, llm.ImageLimits{MaxEdge: 1568})
	if !fault.Is(err, fault.TooLarge) {
		t.Fatalf("FitImage: %v", err)
	}
	if got := files(t, s); len(got) != 0 {
		t.Errorf("left %v", got)
	}
}

func TestResolve(t *testing.T) {
	lim := DefaultLimits()
	lim.MessageFiles, lim.MessageBytes = 2, 1500
	s, _, _ := newService(t, lim)
	a := upload(t, s, "a", bytes.Repeat([]byte("a"), 1000))
	b := upload(t, s, "b", bytes.Repeat([]byte("b"), 400))
	c := upload(t, s, "c", bytes.Repeat([]byte("c"), 600))
	got, err := s.Resolve(ctx, []string{b.ID, a.ID})
	if err != nil || len(got) != 2 || got[0].ID != b.ID || got[1].ID != a.ID {
		t.Fatalf("resolve: %v %v", got, err)
	}
	if _, err := s.Resolve(ctx, []string{a.ID, c.ID}); !fault.Is(err, fault.TooLarge) {
		t.Errorf("over the message's bytes: %v", err)
	}
	if _, err := s.Resolve(ctx, []string{a.ID, b.ID, c.ID}); !fault.Is(err, fault.TooLarge) {
		t.Errorf("over the message's files: %v", err)
	}
	if _, err := s.Resolve(ctx, []string{"nope"}); !fault.Is(err, fault.Invalid) || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown: %v", err)
	}
	if got, err := s.Resolve(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("none: %v %v", got, err)
	}
}

func TestImageFitsTheLimits(t *testing.T) {
	s, _, _ := newService(t, DefaultLimits())
	small := upload(t, s, "small.png", pngBytes(t, 100, 80, false))
	img, err := s.Image(ctx, small, llm.ImageLimits{MaxEdge: 1568, Formats: []string{"png", "jpeg"}})
	if err != nil || img.MIME != "image/png" || img.Width != 100 || !bytes.Equal(img.Data, pngBytes(t, 100, 80, false)) {
		t.Fatalf("a fitting image is not its own bytes: %s %dx%d %v", img.MIME, img.Width, img.Height, err)
	}
	big := upload(t, s, "big.png", pngBytes(t, 900, 300, false))
	lim := llm.ImageLimits{MaxEdge: 600, MaxShortEdge: 150, MaxBytes: 20 << 20, Formats: []string{"image/png", "image/jpeg"}}
	img, err = s.Image(ctx, big, lim)
	if err != nil || img.MIME != "image/jpeg" || img.Width != 450 || img.Height != 150 {
		t.Fatalf("fit: %s %dx%d %v", img.MIME, img.Width, img.Height, err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(img.Data))
	if err != nil || format != "jpeg" || cfg.Width != 450 {
		t.Fatalf("the fitted bytes: %v %s %v", cfg, format, err)
	}
	cached := 0
	for _, f := range files(t, s) {
		if strings.HasPrefix(f, "derived/"+big.SHA256) {
			cached++
		}
	}
	if cached != 1 {
		t.Errorf("cached %d fitted images: %v", cached, files(t, s))
	}
	again, err := s.Image(ctx, big, lim)
	if err != nil || !bytes.Equal(again.Data, img.Data) || again.Width != 450 {
		t.Errorf("from the cache: %v", err)
	}
	alpha := upload(t, s, "alpha.png", pngBytes(t, 400, 300, true))
	img, err = s.Image(ctx, alpha, llm.ImageLimits{MaxEdge: 200})
	if err != nil || img.MIME != "image/png" || img.Width != 200 || img.Height != 150 {
		t.Errorf("transparent: %s %dx%d %v", img.MIME, img.Width, img.Height, err)
	}
	anim := upload(t, s, "anim.gif", gifBytes(t, 40, 40))
	img, err = s.Image(ctx, anim, llm.ImageLimits{Formats: []string{"png", "jpeg"}})
	if err != nil || img.MIME != "image/jpeg" {
		t.Fatalf("gif: %s %v", img.MIME, err)
	}
	first, _, _ := image.Decode(bytes.NewReader(img.Data))
	if r, _, b, _ := first.At(20, 20).RGBA(); r < 0xc000 || b > 0x4000 {
		t.Errorf("not the first frame: %v", first.At(20, 20))
	}
	text := upload(t, s, "t.txt", []byte("text"))
	if _, err := s.Image(ctx, text, lim); !fault.Is(err, fault.Invalid) {
		t.Errorf("a text as an image: %v", err)
	}
}

func TestThumbnail(t *testing.T) {
	s, _, _ := newService(t, DefaultLimits())
	a := upload(t, s, "big.png", pngBytes(t, 640, 320, false))
	data, mt, err := s.Thumbnail(ctx, a.ID)
	if err != nil || mt != "image/jpeg" {
		t.Fatalf("thumbnail: %s %v", mt, err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width != 320 || cfg.Height != 160 {
		t.Errorf("thumbnail %dx%d %v", cfg.Width, cfg.Height, err)
	}
	text := upload(t, s, "t.txt", []byte("text"))
	if _, _, err := s.Thumbnail(ctx, text.ID); !fault.Is(err, fault.NotFound) {
		t.Errorf("a text's thumbnail: %v", err)
	}
}

func TestFitImageTrustsOnlyTheBytes(t *testing.T) {
	s, _, _ := newService(t, DefaultLimits())
	if _, err := s.FitImage(ctx, llm.Image{MIME: "image/png", Data: []byte("<svg/>")}, llm.ImageLimits{}); !fault.Is(err, fault.Invalid) {
		t.Errorf("text claiming PNG: %v", err)
	}
	data := pngBytes(t, 50, 50, false)
	img, err := s.FitImage(ctx, llm.Image{MIME: "image/jpeg", Data: data}, llm.ImageLimits{MaxEdge: 100})
	if err != nil || img.MIME != "image/png" || img.Width != 50 || !bytes.Equal(img.Data, data) {
		t.Errorf("a fitting PNG declared JPEG: %s %v", img.MIME, err)
	}
	img, err = s.FitImage(ctx, llm.Image{Data: data}, llm.ImageLimits{MaxEdge: 25, Formats: []string{"jpeg"}})
	if err != nil || img.MIME != "image/jpeg" || img.Width != 25 {
		t.Errorf("scaled: %s %d %v", img.MIME, img.Width, err)
	}
	if got := files(t, s); len(got) != 0 {
		t.Errorf("FitImage wrote %v", got)
	}
}

func TestCollect(t *testing.T) {
	s, st, clk := newService(t, DefaultLimits())
	kept := upload(t, s, "kept.png", pngBytes(t, 400, 400, false))
	link(t, st, kept.ID)
	if _, _, err := s.Thumbnail(ctx, kept.ID); err != nil {
		t.Fatal(err)
	}
	old := upload(t, s, "old.png", pngBytes(t, 400, 401, false))
	if _, _, err := s.Thumbnail(ctx, old.ID); err != nil {
		t.Fatal(err)
	}
	shared := upload(t, s, "shared.txt", []byte("shared"))
	sharedToo := upload(t, s, "shared too.txt", []byte("shared"))
	link(t, st, sharedToo.ID)
	clk.t = clk.t.Add(Grace - time.Minute)
	young := upload(t, s, "young.txt", []byte("young"))
	// What a crash leaves: an upload file, a blob file with no row.
	os.WriteFile(s.dir+"/tmp/upload-123", []byte("half"), 0o600)
	os.MkdirAll(s.dir+"/ab", 0o700)
	os.WriteFile(s.dir+"/ab/"+strings.Repeat("ab", 32), []byte("orphan"), 0o600)
	// An upload being written now.
	busy, err := s.createTemp()
	if err != nil {
		t.Fatal(err)
	}
	defer s.dropTemp(busy)

	clk.t = clk.t.Add(2 * time.Minute) // old and shared are past the grace, young is not
	stats, err := s.Collect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Attachments != 2 || stats.Blobs != 1 || stats.Files != 2 || stats.Derived != 1 {
		t.Errorf("stats %+v", stats)
	}
	for _, a := range []store.Attachment{kept, sharedToo, young} {
		if _, err := s.Get(ctx, a.ID); err != nil {
			t.Errorf("%s: %v", a.Name, err)
		}
		if _, err := os.Stat(s.BlobPath(a.SHA256)); err != nil {
			t.Errorf("%s's bytes: %v", a.Name, err)
		}
	}
	for _, a := range []store.Attachment{old, shared} {
		if _, err := s.Get(ctx, a.ID); !fault.Is(err, fault.NotFound) {
			t.Errorf("%s kept: %v", a.Name, err)
		}
	}
	if _, err := os.Stat(s.BlobPath(old.SHA256)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("old's file: %v", err)
	}
	if _, err := os.Stat(busy.Name()); err != nil {
		t.Errorf("the upload being written: %v", err)
	}
	want := map[string]bool{}
	for _, a := range []store.Attachment{kept, shared, young} {
		want[a.SHA256[:2]+"/"+a.SHA256] = true
	}
	for _, f := range files(t, s) {
		if !want[f] && !strings.HasPrefix(f, "derived/"+kept.SHA256) && "tmp/"+strings.TrimPrefix(busy.Name(), s.dir+"/tmp/") != f {
			t.Errorf("left %s", f)
		}
	}
	// Deleting the message frees its attachment after the grace.
	if again, err := s.Collect(ctx); err != nil || again.Attachments != 0 {
		t.Errorf("a second collection: %+v %v", again, err)
	}
}

// Uploads of the same bytes racing collections never lose the bytes of an
// attachment that exists.
func TestCollectRacesUploads(t *testing.T) {
	s, _, clk := newService(t, DefaultLimits())
	data := []byte("racing bytes")
	upload(t, s, "first", data)
	clk.t = clk.t.Add(2 * Grace) // every unlisted attachment made before now is collectable
	var wg sync.WaitGroup
	ids := make(chan string, 40)
	for range 40 {
		wg.Go(func() {
			a, err := s.Upload(ctx, "x", "", bytes.NewReader(data))
			if err != nil {
				t.Error(err)
				return
			}
			ids <- a.ID
		})
	}
	for range 10 {
		wg.Go(func() {
			if _, err := s.Collect(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	close(ids)
	for id := range ids {
		a, err := s.Get(ctx, id)
		if err != nil {
			t.Fatal(err) // made after the clock moved: within the grace
		}
		f, err := s.Open(ctx, a)
		if err != nil {
			t.Fatalf("an attachment without its bytes: %v", err)
		}
		f.Close()
	}
}

func TestKinds(t *testing.T) {
	for _, k := range wire.AttachmentKinds {
		if k == "" {
			t.Fatal("empty kind")
		}
	}
}
