package archive

import (
	"strings"
	"time"
)

// maxSlug is how much of a title a file name keeps.
const maxSlug = 48

// conversationFilename is a file name for one conversation's export: its title made
// safe (ASCII letters and digits joined by dashes) and the export's time.
func conversationFilename(title string, at time.Time, f Format) string {
	return "wisp-" + slug(title) + "-" + stamp(at) + "." + string(f)
}

// allFilename is a file name for the export of every conversation.
func allFilename(at time.Time, f Format) string {
	return "wisp-conversations-" + stamp(at) + "." + string(f)
}

func stamp(at time.Time) string { return at.UTC().Format("20060102-150405") }

// slug keeps a title's ASCII letters and digits, lower-cased, with one dash for each
// stretch of anything else; "conversation" when nothing is left.
func slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			if b.Len()+2 > maxSlug {
				break
			}
			b.WriteByte('-')
		}
		if b.Len()+1 > maxSlug {
			break
		}
		b.WriteRune(r)
		dash = false
	}
	if b.Len() == 0 {
		return "conversation"
	}
	return b.String()
}
