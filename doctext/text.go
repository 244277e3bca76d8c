package doctext

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Text reads a text file's text: at most max bytes of it (truncated says there
// was more), as valid UTF-8 (invalid bytes become U+FFFD), without a byte order
// mark, NULs or carriage returns (CRLF and a lone CR end a line as LF does).
func Text(r io.Reader, max int64) (text string, truncated bool, err error) {
	if max <= 0 {
		max = DefaultText
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return "", false, fmt.Errorf("read the text: %w", err)
	}
	if int64(len(b)) > max {
		b, truncated = b[:max], true
		// Cut at a rune boundary: drop a rune the bound split.
		for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
			if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size > 1 {
				break
			}
			b = b[:len(b)-1]
		}
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	return clean(string(b)), truncated, nil
}

// clean makes text valid UTF-8 with LF line ends and no NULs.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if !strings.ContainsAny(s, "\r\x00") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.NewReplacer("\r", "\n", "\x00", "").Replace(s)
}
