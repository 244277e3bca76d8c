package voice

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"time"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/internal/fault"
)

// audioFormat is a kind of audio file a transcription server takes, by the file
// name's extension (OpenAI reads the extension).
type audioFormat struct {
	ext, mime string
}

// formats are the audio types accepted, by MIME type (aliases included).
var formats = map[string]audioFormat{
	"audio/wav": {"wav", "audio/wav"}, "audio/x-wav": {"wav", "audio/wav"}, "audio/wave": {"wav", "audio/wav"},
	"audio/vnd.wave": {"wav", "audio/wav"},
	"audio/webm":     {"webm", "audio/webm"}, "video/webm": {"webm", "audio/webm"},
	"audio/ogg": {"ogg", "audio/ogg"}, "audio/opus": {"ogg", "audio/ogg"},
	"audio/mpeg": {"mp3", "audio/mpeg"}, "audio/mp3": {"mp3", "audio/mpeg"},
	"audio/mp4": {"m4a", "audio/mp4"}, "audio/x-m4a": {"m4a", "audio/mp4"}, "audio/m4a": {"m4a", "audio/mp4"},
	"audio/flac": {"flac", "audio/flac"}, "audio/x-flac": {"flac", "audio/flac"},
}

// sniffFormat reads the type of audio from its first bytes, for a body sent without
// an audio Content-Type.
func sniffFormat(b []byte) (audioFormat, bool) {
	switch {
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WAVE":
		return formats["audio/wav"], true
	case len(b) >= 4 && string(b[:4]) == "OggS":
		return formats["audio/ogg"], true
	case len(b) >= 4 && string(b[:4]) == "\x1a\x45\xdf\xa3":
		return formats["audio/webm"], true
	case len(b) >= 4 && string(b[:4]) == "fLaC":
		return formats["audio/flac"], true
	case len(b) >= 3 && string(b[:3]) == "ID3", len(b) >= 2 && b[0] == 0xff && b[1]&0xe0 == 0xe0:
		return formats["audio/mpeg"], true
	case len(b) >= 8 && string(b[4:8]) == "ftyp":
		return formats["audio/mp4"], true
	}
	return audioFormat{}, false
}

// formatOf is the audio's format: its declared MIME type when it names one, else
// what its bytes say.
func formatOf(declared string, audio []byte) (audioFormat, error) {
	mt, _, _ := mime.ParseMediaType(declared)
	if f, ok := formats[strings.ToLower(mt)]; ok {
		return f, nil
	}
	if f, ok := sniffFormat(audio); ok {
		return f, nil
	}
	return audioFormat{}, fault.Invalid.Errorf("the audio's type %q is not one a transcription server takes: send WAV, WebM, Ogg, MP3, M4A or FLAC", or(declared, "(none)"))
}

// Transcribe sends the audio (of MIME type mimeType; the bytes decide when it names no
// audio type) to the transcription server and returns what it heard. It waits
// FirstByteTimeout plus a second per 100 KiB of audio, at most five minutes.
func (s *Service) Transcribe(ctx context.Context, audio io.Reader, mimeType string) (string, error) {
	stt := s.config().STT
	if strings.TrimSpace(stt.BaseURL) == "" {
		return "", ErrNoTranscription
	}
	data, err := io.ReadAll(io.LimitReader(audio, MaxAudio+1))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig) || len(data) > MaxAudio:
		return "", fault.TooLarge.Errorf("the audio is larger than 25 MiB, the most transcribed at once")
	case err != nil:
		return "", err
	case len(data) == 0:
		return "", fault.Invalid.Errorf("there is no audio to transcribe")
	}
	format, err := formatOf(mimeType, data)
	if err != nil {
		return "", err
	}
	url, err := endpoint(stt.BaseURL, "/audio/transcriptions")
	if err != nil {
		return "", err
	}
	body, contentType := transcriptionForm(data, format, or(stt.Model, config.DefaultSTTModel))
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return "", fault.Unavailable.Errorf("the transcription server's URL is not usable: %v", err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json")
	wait := min(s.firstByte+time.Duration(len(data)/(100<<10))*time.Second, max(s.firstByte, maxTranscribeWait))
	res, stop, err := s.send(ctx, req, stt.APIKey, wait, "transcription server")
	if err != nil {
		return "", err
	}
	defer stop(nil)
	defer res.Body.Close()
	answer := readBounded(res, maxTranscriptBody+1)
	if len(answer) > maxTranscriptBody {
		return "", fault.Upstream.Errorf("the transcription server's answer is larger than 1 MiB")
	}
	return transcriptText(answer)
}

// transcriptionForm is the multipart body: the file, named for its type, and the model.
func transcriptionForm(data []byte, f audioFormat, model string) ([]byte, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="speech.`+f.ext+`"`)
	h.Set("Content-Type", f.mime)
	part, _ := mw.CreatePart(h) // writes to a buffer: no error
	part.Write(data)
	mw.WriteField("model", model)
	mw.WriteField("response_format", "json")
	mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}

// transcriptText reads {"text": "..."} (trimmed: whisper.cpp starts with a space).
func transcriptText(answer []byte) (string, error) {
	var t struct {
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(answer, &t); err != nil || t.Text == nil {
		return "", fault.Upstream.Errorf("the transcription server's answer has no text: %s", or(oneLine(string(answer)), "an empty answer"))
	}
	return strings.TrimSpace(*t.Text), nil
}
