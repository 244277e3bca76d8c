package attach

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/store/storetest"
)

// pngBytes is a w×h PNG, half transparent when alpha.
func pngBytes(t testing.TB, w, h int, alpha bool) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			a := uint8(255)
			if alpha && x < w/2 {
				a = 100
			}
			img.Set(x, y, color.NRGBA{uint8(x), uint8(y), uint8(x ^ y), a})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// gifBytes is a two-frame w×h GIF: red, then blue.
func gifBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	pal := color.Palette{color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}}
	red, blue := image.NewPaletted(image.Rect(0, 0, w, h), pal), image.NewPaletted(image.Rect(0, 0, w, h), pal)
	for i := range blue.Pix {
		blue.Pix[i] = 1
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &gif.GIF{Image: []*image.Paletted{red, blue}, Delay: []int{10, 10}}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// hugePNG is a small file whose header declares a w×h RGBA picture, with a little
// compressed data: a decoder that trusted it would allocate w×h×4 bytes.
func hugePNG(t testing.TB, w, h uint32) []byte {
	t.Helper()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		binary.Write(&out, binary.BigEndian, uint32(len(data)))
		crc := crc32.NewIEEE()
		crc.Write([]byte(kind))
		crc.Write(data)
		out.WriteString(kind)
		out.Write(data)
		binary.Write(&out, binary.BigEndian, crc.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk("IHDR", ihdr)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 1<<20)) // a megabyte of zeros: the start of the rows
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// clock is a settable time.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// newService is a service on a fresh store in a temporary folder.
func newService(t testing.TB, lim Limits) (*Service, *store.Store, *clock) {
	t.Helper()
	st := storetest.Open(t, "c1")
	c := &clock{t: time.Now()}
	s, err := New(Options{Dir: filepath.Join(t.TempDir(), "attachments"), Store: st, Limits: func() Limits { return lim }, Now: c.now,
		Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return s, st, c
}

// files lists the files under the service's folder, relative to it.
func files(t testing.TB, s *Service) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(s.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(s.dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// link lists attachments on a new message of conversation c1.
func link(t testing.TB, st *store.Store, ids ...string) store.Message {
	t.Helper()
	m, err := st.AddMessage(context.Background(), store.Message{ID: "m-" + ids[0], ConversationID: "c1", Role: "user",
		Text: "see", CreatedAt: time.Now(), AttachmentIDs: ids})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
