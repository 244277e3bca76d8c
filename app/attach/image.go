package attach

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/image/draw"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/runtime/llm"
)

// ThumbnailEdge is a thumbnail's longest edge in pixels.
const ThumbnailEdge = 320

// jpegQuality is the quality of a re-encoded image without transparency.
const jpegQuality = 85

// thumbnailLimits are what a thumbnail is fitted to.
var thumbnailLimits = llm.ImageLimits{MaxEdge: ThumbnailEdge, MaxBytes: 1 << 20,
	Formats: []string{llm.MIMEPNG, llm.MIMEJPEG, llm.MIMEGIF, llm.MIMEWebP}}

// Image is a stored image fitted to lim: its own bytes when they already fit, else
// scaled down and re-encoded (JPEG, or PNG when it has transparency; a GIF's first
// frame), cached on disk per limits.
func (s *Service) Image(ctx context.Context, a store.Attachment, lim llm.ImageLimits) (llm.Image, error) {
	if a.Blob.Kind != string(wire.AttachmentImage) {
		return llm.Image{}, fault.Invalid.Errorf("attachment %s (%s) is not an image", a.ID, a.Name)
	}
	return s.fitStored(ctx, a, lim, "fit-"+limitsKey(lim))
}

// Thumbnail is an image attachment's thumbnail (at most ThumbnailEdge pixels on its
// long edge) and its MIME type, cached on disk.
func (s *Service) Thumbnail(ctx context.Context, id string) ([]byte, string, error) {
	a, err := s.Get(ctx, id)
	if err != nil {
		return nil, "", err
	}
	if a.Blob.Kind != string(wire.AttachmentImage) {
		return nil, "", fault.NotFound.Errorf("attachment %s is not an image: it has no thumbnail", id)
	}
	img, err := s.fitStored(ctx, a, thumbnailLimits, fmt.Sprintf("thumb%d", ThumbnailEdge))
	return img.Data, img.MIME, err
}

// FitImage checks image bytes that came from elsewhere (the /v1 routes): their
// format from the bytes (PNG, JPEG, GIF or WebP, whatever img.MIME says) and their
// pixels, and fits them to lim. Nothing is cached.
func (s *Service) FitImage(ctx context.Context, img llm.Image, lim llm.ImageLimits) (llm.Image, error) {
	mt := imageMIME(img.Data)
	if mt == "" {
		return llm.Image{}, fault.Invalid.Errorf("the image is not PNG, JPEG, GIF or WebP")
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return llm.Image{}, fault.Invalid.Errorf("the %s image cannot be read", imageFormats[mt])
	}
	if err := checkPixels(cfg.Width, cfg.Height, s.limits().MaxPixels); err != nil {
		return llm.Image{}, err
	}
	orig := llm.Image{MIME: mt, Data: img.Data, Width: cfg.Width, Height: cfg.Height}
	if fits(orig, lim) {
		return orig, nil
	}
	return s.scale(ctx, bytes.NewReader(img.Data), orig, lim)
}

// fitStored fits a stored image, reading and writing the cache under <Dir>/derived.
func (s *Service) fitStored(ctx context.Context, a store.Attachment, lim llm.ImageLimits, key string) (llm.Image, error) {
	orig := llm.Image{MIME: a.Blob.MIME, Width: a.Blob.Width, Height: a.Blob.Height}
	if err := checkPixels(orig.Width, orig.Height, s.limits().MaxPixels); err != nil {
		return llm.Image{}, err
	}
	if fits(llm.Image{MIME: orig.MIME, Width: orig.Width, Height: orig.Height, Data: make([]byte, 0)}, lim) &&
		(lim.MaxBytes <= 0 || a.Blob.Size <= int64(lim.MaxBytes)) {
		data, err := s.readBlob(ctx, a)
		orig.Data = data
		return orig, err
	}
	if img, ok := s.cached(a.SHA256, key); ok {
		return img, nil
	}
	f, err := s.Open(ctx, a)
	if err != nil {
		return llm.Image{}, err
	}
	defer f.Close()
	img, err := s.scale(ctx, f, orig, lim)
	if err != nil {
		return llm.Image{}, err
	}
	s.keep(a.SHA256, key, img)
	return img, nil
}

func (s *Service) readBlob(ctx context.Context, a store.Attachment) ([]byte, error) {
	f, err := s.Open(ctx, a)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, a.Blob.Size+1))
}

// fits reports whether an image is within lim as it is: format, edges, pixels and
// (when its bytes are known) size.
func fits(img llm.Image, lim llm.ImageLimits) bool {
	w, h := img.Width, img.Height
	return formatAllowed(img.MIME, lim.Formats) &&
		(lim.MaxEdge <= 0 || max(w, h) <= lim.MaxEdge) &&
		(lim.MaxShortEdge <= 0 || min(w, h) <= lim.MaxShortEdge) &&
		(lim.MaxPixels <= 0 || w*h <= lim.MaxPixels) &&
		(lim.MaxBytes <= 0 || len(img.Data) <= lim.MaxBytes)
}

// formatAllowed reports whether a MIME type is among formats, which name formats
// ("png") or MIME types ("image/png"); no formats allow any.
func formatAllowed(mt string, formats []string) bool {
	if len(formats) == 0 {
		return true
	}
	name := imageFormats[mt]
	return slices.ContainsFunc(formats, func(f string) bool {
		f = strings.ToLower(f)
		return f == mt || f == name || (name == "jpeg" && f == "jpg")
	})
}

// target is the size an image of w×h pixels is scaled to for lim: never larger.
func target(w, h int, lim llm.ImageLimits) (int, int) {
	scale := 1.0
	if lim.MaxEdge > 0 {
		scale = min(scale, float64(lim.MaxEdge)/float64(max(w, h)))
	}
	if lim.MaxShortEdge > 0 {
		scale = min(scale, float64(lim.MaxShortEdge)/float64(min(w, h)))
	}
	if lim.MaxPixels > 0 {
		scale = min(scale, math.Sqrt(float64(lim.MaxPixels)/(float64(w)*float64(h))))
	}
	return max(1, int(math.Floor(float64(w)*scale))), max(1, int(math.Floor(float64(h)*scale)))
}

// scale decodes an image (one at a time), scales it to lim and re-encodes it: JPEG,
// or PNG when it has transparency (or when lim does not take JPEG). An encoding over
// lim.MaxBytes is scaled down further.
func (s *Service) scale(ctx context.Context, r io.Reader, orig llm.Image, lim llm.ImageLimits) (llm.Image, error) {
	select {
	case s.decode <- struct{}{}:
	case <-ctx.Done():
		return llm.Image{}, ctx.Err()
	}
	defer func() { <-s.decode }()
	src, _, err := image.Decode(r)
	if err != nil {
		return llm.Image{}, fault.Invalid.Errorf("the %s image cannot be decoded: %v", imageFormats[orig.MIME], err)
	}
	w, h := target(src.Bounds().Dx(), src.Bounds().Dy(), lim)
	for range 6 {
		if err := ctx.Err(); err != nil {
			return llm.Image{}, err
		}
		img, err := encode(resize(src, w, h), opaque(src), lim)
		if err != nil {
			return llm.Image{}, err
		}
		if lim.MaxBytes <= 0 || len(img.Data) <= lim.MaxBytes {
			return img, nil
		}
		w, h = max(1, w*3/4), max(1, h*3/4)
	}
	return llm.Image{}, fault.TooLarge.Errorf("the image does not fit in %d bytes", lim.MaxBytes)
}

// resize scales src to w×h: halved with an approximate bilinear step while it is
// at least twice the target (at exactly half, that averages each 2×2 block: a box
// filter, without aliasing), then the same step to the exact size, less than half
// down. Catmull-Rom to the end looks a little sharper but takes 1.5 s for a
// 12-megapixel photo (BiLinear 0.9 s), this 0.1–0.4 s (BenchmarkScale,
// docs/attachments.md#images).
func resize(src image.Image, w, h int) *image.RGBA {
	b := src.Bounds()
	for b.Dx() >= 2*w && b.Dy() >= 2*h {
		half := image.NewRGBA(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
		draw.ApproxBiLinear.Scale(half, half.Bounds(), src, b, draw.Src, nil)
		src, b = half, half.Bounds()
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	return dst
}

func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

func encode(img *image.RGBA, opaque bool, lim llm.ImageLimits) (llm.Image, error) {
	var buf bytes.Buffer
	mt := "image/png"
	if opaque && formatAllowed("image/jpeg", lim.Formats) || !formatAllowed("image/png", lim.Formats) {
		mt = "image/jpeg"
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: jpegQuality}); err != nil {
			return llm.Image{}, fmt.Errorf("encode jpeg: %w", err)
		}
	} else if err := png.Encode(&buf, img); err != nil {
		return llm.Image{}, fmt.Errorf("encode png: %w", err)
	}
	b := img.Bounds()
	return llm.Image{MIME: mt, Data: buf.Bytes(), Width: b.Dx(), Height: b.Dy()}, nil
}

// limitsKey names a set of limits in a cache file's name.
func limitsKey(lim llm.ImageLimits) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%d/%d/%d/%d/%s", lim.MaxEdge, lim.MaxShortEdge, lim.MaxPixels, lim.MaxBytes,
		strings.Join(lim.Formats, ",")))
	return hex.EncodeToString(h[:6])
}

// derivedPath is where a fitted image of a blob is cached: <Dir>/derived/<sha>.<key>.<ext>.
func (s *Service) derivedPath(sha, key, mt string) string {
	return filepath.Join(s.dir, derivedDir, sha+"."+key+"."+imageFormats[mt])
}

// cached reads a fitted image from the cache.
func (s *Service) cached(sha, key string) (llm.Image, bool) {
	for _, mt := range []string{"image/jpeg", "image/png"} {
		data, err := os.ReadFile(s.derivedPath(sha, key, mt))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return llm.Image{}, false
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return llm.Image{}, false
		}
		return llm.Image{MIME: mt, Data: data, Width: cfg.Width, Height: cfg.Height}, true
	}
	return llm.Image{}, false
}

// keep writes a fitted image to the cache (through a temporary file renamed into
// place); a failure only costs a decode next time.
func (s *Service) keep(sha, key string, img llm.Image) {
	f, err := os.CreateTemp(filepath.Join(s.dir, derivedDir), ".derived-*")
	if err != nil {
		s.log.Warn("cache fitted image", "sha256", sha, "err", err)
		return
	}
	_, err = f.Write(img.Data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), s.derivedPath(sha, key, img.MIME))
	}
	if err != nil {
		os.Remove(f.Name())
		s.log.Warn("cache fitted image", "sha256", sha, "err", err)
	}
}
