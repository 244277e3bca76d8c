package voice

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzUpstreamMessage feeds an audio server's error answers: whatever it sends, the
// message passed on is one line of valid UTF-8, at most maxMessage characters.
func FuzzUpstreamMessage(f *testing.F) {
	for _, seed := range []string{
		`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`,
		`{"error":"model not found"}`, `{"detail":"Model not loaded"}`,
		`{"detail":[{"loc":["body","input"],"msg":"Field required"}]}`, `{"message":"nope"}`,
		"<html>500</html>", "busy\r\nretry", "\xff\xfe", `{"error":{"message":null}}`, `{"detail":{}}`, "",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		msg := upstreamMessage(body)
		if !utf8.ValidString(msg) || strings.ContainsAny(msg, "\r\n\t") || utf8.RuneCountInString(msg) > maxMessage {
			t.Errorf("upstreamMessage(%q) = %q", body, msg)
		}
	})
}

// FuzzFormatOf feeds declared types and first bytes: a format is found or refused,
// never a format without a name.
func FuzzFormatOf(f *testing.F) {
	f.Add("audio/wav", []byte("RIFF\x00\x00\x00\x00WAVEfmt "))
	f.Add("", []byte("OggS"))
	f.Add("application/octet-stream", []byte("\x1a\x45\xdf\xa3"))
	f.Add("audio/webm;codecs=opus", []byte{})
	f.Add("text/plain; x", []byte("\xff\xfb"))
	f.Fuzz(func(t *testing.T, declared string, head []byte) {
		format, err := formatOf(declared, head)
		if err == nil && (format.ext == "" || !strings.HasPrefix(format.mime, "audio/")) {
			t.Errorf("formatOf(%q, %q) = %+v", declared, head, format)
		}
	})
}
