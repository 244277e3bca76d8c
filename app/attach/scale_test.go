package attach

import (
	"image"
	"testing"

	"golang.org/x/image/draw"
)

// BenchmarkScale measures the scalers on a 12-megapixel photo fitted to
// Anthropic's 1568-pixel edge (docs/attachments.md#images records the choice).
func BenchmarkScale(b *testing.B) {
	src := image.NewRGBA(image.Rect(0, 0, 4000, 3000))
	for i := range src.Pix {
		src.Pix[i] = uint8(i * 7)
	}
	for _, sc := range []struct {
		name string
		s    draw.Scaler
	}{{"CatmullRom", draw.CatmullRom}, {"ApproxBiLinear", draw.ApproxBiLinear}, {"BiLinear", draw.BiLinear}} {
		b.Run(sc.name, func(b *testing.B) {
			b.ReportAllocs()
			dst := image.NewRGBA(image.Rect(0, 0, 1568, 1176))
			for b.Loop() {
				sc.s.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
			}
		})
	}
}

func BenchmarkScaleByHalves(b *testing.B) {
	src := image.NewRGBA(image.Rect(0, 0, 4000, 3000))
	for i := range src.Pix {
		src.Pix[i] = uint8(i * 7)
	}
	b.ReportAllocs()
	for b.Loop() {
		resize(src, 1568, 1176)
	}
}
