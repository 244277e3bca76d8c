// Command webfetch is Wisp's benchmark of FETCH_URL (docs/web.md): the time from
// the request to the Markdown the model gets, for a 1 MiB article page served on
// loopback (as fast as it goes, and shaped like a real site), against the floor,
// a bare Go http.Client fetching the same bytes (GET, io.ReadAll); and the peak
// heap each adds while it runs.
//
// Wisp's side is app/web's Service.Fetch, as the action calls it after consent:
// the checked dialer (the host is in web.allowHosts, as a page on the user's
// network would be), the bounded read, the charset, the HTML parse, readability and
// the Markdown converter. Two more cases say where the time goes: the same bytes
// served as text/plain through the same client (no HTML work), and the HTML parse
// alone (x/net/html, no fetch), which readability and the converter need first.
//
// Loopback sends 1 MiB in a millisecond or two, which no real site does. So the
// same server also serves the page shaped like a real site's (--rtt, --mbit,
// --chunk: by default the headers 20 ms after the request, then the body at
// 100 Mbit/s in 16 KiB chunks), and the floor and FETCH_URL fetch it too, in the
// same run. The cases alternate, after unrecorded warm-up rounds.
//
// Usage (see `make bench`):
//
//	go run ./bench/webfetch --out BENCHMARKS.md
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/net/html"

	"github.com/wispapp/wisp/app/web"
	"github.com/wispapp/wisp/bench/benchkit"
)

type config struct {
	kib, rounds, warmup int
	out, profile        string
	shape               shape
}

// shape is how the fixture server sends the shaped page, as a real site would: the
// first byte after one round trip, then the body at a fixed rate, in chunks.
type shape struct {
	rtt   time.Duration
	mbit  float64 // the rate, in Mbit/s
	chunk int     // bytes written (and flushed) at a time
}

// at is when byte n is due, after the first.
func (s shape) at(n int) time.Duration {
	return time.Duration(float64(n) * 8 / (s.mbit * 1e6) * float64(time.Second))
}

func main() {
	var cfg config
	flag.IntVar(&cfg.kib, "kib", 1024, "the page's size in KiB")
	flag.IntVar(&cfg.rounds, "rounds", 15, "recorded fetches of each case")
	flag.IntVar(&cfg.warmup, "warmup", 3, "unrecorded rounds before them")
	flag.StringVar(&cfg.out, "out", "", "Markdown file whose webfetch section is replaced (e.g. BENCHMARKS.md); empty: stdout only")
	flag.StringVar(&cfg.profile, "cpuprofile", "", "write a CPU profile to this file")
	flag.DurationVar(&cfg.shape.rtt, "rtt", 20*time.Millisecond, "the shaped page: the delay before its first byte")
	flag.Float64Var(&cfg.shape.mbit, "mbit", 100, "the shaped page: its rate in Mbit/s")
	flag.IntVar(&cfg.shape.chunk, "chunk", 16<<10, "the shaped page: bytes written at a time")
	flag.Parse()
	benchkit.Main("webfetch", cfg.profile, func(ctx context.Context, _ string) error { return run(ctx, cfg) })
}

// sample is one fetch: its time and the peak heap above the heap before it.
type sample struct {
	d    time.Duration
	heap uint64
}

type results struct {
	wisp, text, floor, parse []sample // on loopback, as fast as it goes
	shapedWisp, shapedFloor  []sample // the same page, shaped like a real site's
}

func run(ctx context.Context, cfg config) error {
	page := article(cfg.kib << 10)
	base, stop, err := serve(page, cfg.shape)
	if err != nil {
		return err
	}
	defer stop()
	svc := web.New(web.Options{Version: "bench", Settings: func() web.Settings {
		return web.Settings{AllowHosts: []string{"127.0.0.1"}}
	}})
	htmlURL, _ := url.Parse(base + "/article.html")
	textURL, _ := url.Parse(base + "/article.txt")
	shapedURL, _ := url.Parse(base + "/shaped/article.html")
	// A fetch of a page is a one-off: the floor connects anew each time too, as
	// FETCH_URL does.
	floor := &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	var md, shapedMD string
	cases := []struct {
		name string
		out  *[]sample
		do   func() error
	}{
		{"wisp", nil, func() error {
			p, err := svc.Fetch(ctx, htmlURL)
			if err == nil {
				md = p.Markdown
			}
			return err
		}},
		{"text", nil, func() error { _, err := svc.Fetch(ctx, textURL); return err }},
		{"floor", nil, func() error { return bare(ctx, floor, htmlURL.String(), len(page)) }},
		{"parse", nil, func() error { _, err := html.Parse(bytes.NewReader(page)); return err }},
		{"shaped wisp", nil, func() error {
			p, err := svc.Fetch(ctx, shapedURL)
			if err == nil {
				shapedMD = p.Markdown
			}
			return err
		}},
		{"shaped floor", nil, func() error { return bare(ctx, floor, shapedURL.String(), len(page)) }},
	}
	var res results
	cases[0].out, cases[1].out, cases[2].out, cases[3].out = &res.wisp, &res.text, &res.floor, &res.parse
	cases[4].out, cases[5].out = &res.shapedWisp, &res.shapedFloor
	for i := range cfg.warmup + cfg.rounds {
		for j := range cases {
			c := cases[(i+j)%len(cases)]
			s, err := measure(c.do)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if i >= cfg.warmup {
				*c.out = append(*c.out, s)
			}
		}
	}
	if !strings.Contains(md, "## Section 7") || !strings.Contains(md, "KEYWORD-42") {
		return fmt.Errorf("the Markdown lacks the article: %.300q", md)
	}
	if shapedMD != md {
		return errors.New("the shaped page gave other Markdown than the same page on loopback")
	}
	return benchkit.Publish(cfg.out, "webfetch", intro, report(cfg, len(page), len(md), res))
}

// bare is the floor: GET and read the whole body.
func bare(ctx context.Context, c *http.Client, u string, want int) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && len(b) != want {
		err = fmt.Errorf("read %d bytes, want %d", len(b), want)
	}
	return err
}

// measure runs do after a GC, timing it and sampling the heap's objects every
// 100 µs from another goroutine: the peak above the heap it started with.
func measure(do func() error) (sample, error) {
	runtime.GC()
	before := heapObjects()
	var peak atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			if h := heapObjects(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	start := time.Now()
	err := do()
	d := time.Since(start)
	if h := heapObjects(); h > peak.Load() {
		peak.Store(h)
	}
	close(done)
	<-sampled
	var above uint64
	if p := peak.Load(); p > before {
		above = p - before
	}
	return sample{d: d, heap: above}, err
}

var heapMetric = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: heapMetric[0].Name}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// serve serves the page on loopback as HTML and as text, as fast as it goes, and
// as HTML shaped by sh (/shaped/article.html).
func serve(page []byte, sh shape) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	mux := http.NewServeMux()
	for path, ctype := range map[string]string{"/article.html": "text/html; charset=utf-8", "/article.txt": "text/plain; charset=utf-8"} {
		mux.HandleFunc(path, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Content-Length", fmt.Sprint(len(page)))
			w.Write(page)
		})
	}
	mux.HandleFunc("/shaped/article.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", fmt.Sprint(len(page)))
		time.Sleep(sh.rtt) // the request's way there and the first byte's way back
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		start := time.Now()
		for off := 0; off < len(page); off += sh.chunk {
			end := min(off+sh.chunk, len(page))
			// A chunk leaves when its last byte is due, on a schedule from the
			// first, so late wake-ups do not add up.
			time.Sleep(time.Until(start.Add(sh.at(end))))
			if _, err := w.Write(page[off:end]); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})
	srv := &http.Server{Handler: mux}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "server:", err)
		}
	}()
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// article is an HTML page of about size bytes shaped like a long article: a
// header with navigation, an article of sections (headings, paragraphs with links
// and emphasis, lists, a table, code), a sidebar, a footer, scripts and styles.
func article(size int) []byte {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A Long Article | Example News</title>
<style>body{font-family:sans-serif}.nav a{margin:0 4px}</style><script>window.dataLayer=[];</script></head><body>
<header class="site-header"><nav class="nav">`)
	for i := range 40 {
		fmt.Fprintf(&b, `<a href="/section/%d">Section %d</a>`, i, i)
	}
	b.WriteString(`</nav></header><main><article class="post"><h1>A Long Article</h1><p class="byline">By A. Writer</p>`)
	words := strings.Fields("the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing matches near old river banks and green tea cools in the afternoon light")
	n, para := 0, 0
	for sec := 0; b.Len() < size-4096; sec++ {
		fmt.Fprintf(&b, "<section><h2>Section %d</h2>\n", sec)
		for p := 0; p < 6 && b.Len() < size-4096; p++ {
			para++
			b.WriteString("<p>")
			for w := range 90 {
				word := words[n%len(words)]
				n++
				switch {
				case w == 10:
					fmt.Fprintf(&b, `<a href="/story/%d">%s</a> `, n, word)
				case w == 40:
					fmt.Fprintf(&b, "<em>%s</em> ", word)
				case w == 70:
					fmt.Fprintf(&b, "<strong>KEYWORD-%d</strong> ", para)
				default:
					b.WriteString(word + " ")
				}
			}
			b.WriteString("</p>\n")
		}
		switch sec % 3 {
		case 0:
			b.WriteString("<ul><li>first point</li><li>second point with <code>code</code></li><li>third point</li></ul>\n")
		case 1:
			b.WriteString("<table><tr><th>Name</th><th>Value</th></tr><tr><td>alpha</td><td>1</td></tr><tr><td>beta</td><td>2</td></tr></table>\n")
		case 2:
			b.WriteString("<pre><code>func main() {\n\tfmt.Println(\"hello\")\n}\n</code></pre>\n")
		}
		b.WriteString("</section>\n")
	}
	b.WriteString(`</article><aside class="sidebar"><h3>Related</h3><ul>`)
	for i := range 20 {
		fmt.Fprintf(&b, `<li><a href="/related/%d">Related story %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></aside></main><footer class="site-footer">Copyright Example News. All rights reserved.</footer>`)
	b.WriteString(`<script>console.log("analytics")</script></body></html>`)
	for b.Len() < size {
		b.WriteString("\n")
	}
	return []byte(b.String())
}
