package doctext

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// envChild marks the child process; its value is the bounds, "memory pages text
// pagetext" in bytes and counts.
const envChild = "WISP_DOCTEXT_CHILD"

// RunChildIfAsked turns this process into a PDF reader when PDF started it: it
// reads the PDF on standard input, writes its pages on standard output and exits.
// Otherwise it returns at once. Call it first thing in main (and in TestMain of
// the tests that read PDFs), before anything else starts.
func RunChildIfAsked() {
	spec, ok := os.LookupEnv(envChild)
	if !ok {
		return
	}
	os.Exit(runChild(spec, os.Stdin, os.Stdout))
}

// runChild is the child: bounds first, then the PDF in in, frames to out.
func runChild(spec string, in *os.File, out io.Writer) int {
	b, err := parseSpec(spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "doctext:", err)
		return 2
	}
	if err := limitChild(b.Memory); err != nil {
		fmt.Fprintln(os.Stderr, "doctext: limit memory:", err)
		return 2
	}
	debug.SetMemoryLimit(b.Memory)
	if err := confineChild(); err != nil {
		fmt.Fprintln(os.Stderr, "doctext: confine:", err)
		return 2
	}
	enc := newEncoder(out)
	truncated, err := extract(in, b, enc.page)
	if err != nil {
		if enc.fail(err.Error()) != nil {
			return 1
		}
		return 0
	}
	if enc.done(truncated) != nil {
		return 1
	}
	return 0
}

func (b Bounds) spec() string {
	return fmt.Sprintf("%d %d %d %d", b.Memory, b.Pages, b.Text, b.PageText)
}

func parseSpec(s string) (Bounds, error) {
	f := strings.Fields(s)
	if len(f) != 4 {
		return Bounds{}, fmt.Errorf("bad bounds %q", s)
	}
	var n [4]int64
	for i, v := range f {
		x, err := strconv.ParseInt(v, 10, 64)
		if err != nil || x <= 0 {
			return Bounds{}, fmt.Errorf("bad bounds %q", s)
		}
		n[i] = x
	}
	return Bounds{Memory: n[0], Pages: int(n[1]), Text: n[2], PageText: n[3]}.withDefaults(), nil
}

// extract reads the PDF in f and hands each page's text to page, within b. The
// library panics on malformed input: a panic reading the file is its error; one
// reading a page leaves that page empty (an error if no page could be read).
func extract(f *os.File, b Bounds, page func(n int, text string)) (truncated bool, err error) {
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	r, err := open(f, st.Size())
	if err != nil {
		return false, err
	}
	x := extractor{b: b, fonts: map[string]*pdf.Font{}}
	var failed, read int
	var firstErr error
	more := walkPages(r.Trailer().Key("Root").Key("Pages"), b.Pages, func(p pdf.Value) bool {
		read++
		text, cut, err := x.pageText(p, min(b.PageText, b.Text-x.total))
		if err != nil {
			failed++
			firstErr = cmpOr(firstErr, err)
		}
		x.total += int64(len(text))
		truncated = truncated || cut
		page(read, text)
		if x.total >= b.Text {
			truncated = true // no room for another page's text
			return false
		}
		return true
	})
	if failed > 0 && failed == read {
		return false, firstErr
	}
	return truncated || more, nil
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// open opens the PDF, turning the library's panics into an error.
func open(f io.ReaderAt, size int64) (r *pdf.Reader, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("%v", p)
		}
	}()
	r, err = pdf.NewReader(f, size)
	if err != nil {
		return nil, strippedErr(err)
	}
	if r.Trailer().Key("Root").Key("Pages").IsNull() {
		return nil, fmt.Errorf("it has no pages")
	}
	return r, nil
}

// strippedErr drops the library's "malformed PDF:" style prefixes the caller's
// sentence already says.
func strippedErr(err error) error {
	s := err.Error()
	for _, p := range []string{"malformed PDF file: ", "malformed PDF: ", "not a PDF file: "} {
		s = strings.TrimPrefix(s, p)
	}
	if strings.HasPrefix(err.Error(), "not a PDF file") {
		s = "not a PDF file: " + s
	}
	return fmt.Errorf("%s", s)
}

// maxDepth bounds how deep a page tree (and a page's chain of parents) is read:
// real trees are a few levels deep; a loop is not.
const maxDepth = 32

// walkPages calls page for each page of the tree under root in order, at most
// max of them and until page answers false; more reports pages left unread. A
// node of the tree that is its own ancestor is skipped, as is anything deeper
// than maxDepth, and a bounded number of nodes is visited.
func walkPages(root pdf.Value, max int, page func(pdf.Value) bool) (more bool) {
	visits, budget := 0, 4*max+1024
	n := 0
	var ancestors []string
	var walk func(v pdf.Value) bool
	walk = func(v pdf.Value) bool {
		if visits++; visits > budget {
			return false
		}
		kids := v.Key("Kids")
		if v.Key("Type").Name() == "Pages" || kids.Kind() == pdf.Array {
			// A node's dictionary as written (its references unresolved) names it.
			self := v.String()
			if len(ancestors) >= maxDepth || slices.Contains(ancestors, self) {
				return true
			}
			ancestors = append(ancestors, self)
			defer func() { ancestors = ancestors[:len(ancestors)-1] }()
			for i := 0; i < kids.Len(); i++ {
				if !walk(kids.Index(i)) {
					return false
				}
			}
			return true
		}
		if v.Kind() != pdf.Dict {
			return true
		}
		if n == max {
			more = true
			return false
		}
		n++
		return page(v)
	}
	walk(root)
	return more
}

// extractor reads the text of pages, sharing parsed fonts between them.
type extractor struct {
	b     Bounds
	fonts map[string]*pdf.Font
	total int64
}

// stopPage ends a page's interpretation once its text is at its bound.
type stopPage struct{}

// pageText is the text of page p, at most limit bytes (cut: there was more).
func (x *extractor) pageText(p pdf.Value, limit int64) (text string, cut bool, err error) {
	var sb strings.Builder
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopPage); ok {
				cut = true
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
		text = tidy(sb.String(), limit)
	}()
	contents := p.Key("Contents")
	if contents.IsNull() {
		return "", false, nil
	}
	fonts := inherited(p, "Resources").Key("Font")
	enc := x.font(fonts, "")
	write := func(s string) {
		sb.WriteString(s)
		if int64(sb.Len()) > limit {
			panic(stopPage{})
		}
	}
	newline := func() {
		if sb.Len() > 0 && !strings.HasSuffix(sb.String(), "\n") {
			write("\n")
		}
	}
	pdf.Interpret(contents, func(stk *pdf.Stack, op string) {
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		last := func() pdf.Value {
			if len(args) == 0 {
				return pdf.Value{}
			}
			return args[len(args)-1]
		}
		switch op {
		case "BT", "T*", "Tm":
			newline()
		case "Td", "TD":
			if len(args) == 2 && args[1].Float64() != 0 {
				newline()
			} else if sb.Len() > 0 {
				write(" ")
			}
		case "Tf":
			if len(args) == 2 {
				enc = x.font(fonts, args[0].Name())
			}
		case "'", "\"":
			newline()
			write(enc.Decode(last().RawString()))
		case "Tj":
			write(enc.Decode(last().RawString()))
		case "TJ":
			a := last()
			for i := 0; i < a.Len(); i++ {
				switch v := a.Index(i); v.Kind() {
				case pdf.String:
					write(enc.Decode(v.RawString()))
				case pdf.Integer, pdf.Real:
					if v.Float64() < -250 { // a gap wider than a quarter em: a space
						write(" ")
					}
				}
			}
		}
	})
	return "", false, nil
}

// font is the encoding of the font named in a page's font resources (the default
// encoding if it has none), parsed once per document.
func (x *extractor) font(fonts pdf.Value, name string) pdf.TextEncoding {
	v := fonts.Key(name)
	key := name + "\x00" + v.Key("BaseFont").Name() + "\x00" + v.Key("Encoding").String() +
		"\x00" + strconv.FormatInt(v.Key("ToUnicode").Key("Length").Int64(), 10)
	f, ok := x.fonts[key]
	if !ok {
		f = &pdf.Font{V: v}
		x.fonts[key] = f
	}
	return f.Encoder()
}

// inherited is key of the page or of its nearest ancestor that has it.
func inherited(p pdf.Value, key string) pdf.Value {
	for i := 0; i < maxDepth && !p.IsNull(); i++ {
		if v := p.Key(key); !v.IsNull() {
			return v
		}
		p = p.Key("Parent")
	}
	return pdf.Value{}
}

// tidy makes a page's text valid UTF-8 of at most limit bytes, without NULs,
// control characters but newlines and tabs, or blank lines at its ends.
func tidy(s string, limit int64) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r >= ' ' && r != 0x7f {
			return r
		}
		if r == '\r' {
			return '\n'
		}
		return -1
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if int64(len(s)) > limit {
		s = s[:limit]
		for len(s) > 0 && !utf8.ValidString(s[max(0, len(s)-utf8.UTFMax):]) {
			s = s[:len(s)-1]
		}
	}
	return strings.TrimSpace(s)
}
