package llmtest

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"reflect"
	"strings"
	"testing"
	"time"
)

func postSpeech(t *testing.T, s *Server, body string) (*http.Response, []byte) {
	t.Helper()
	res, err := http.Post(s.OpenAIURL()+"/audio/speech", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, data
}

func TestSpeechIsAToneAsLongAsTheText(t *testing.T) {
	s := New()
	defer s.Close()
	input := strings.Repeat("a", 50) // 3 s
	res, wav := postSpeech(t, s, `{"model":"tts-1","input":"`+input+`","voice":"nova","response_format":"wav","speed":1.25}`)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "audio/wav" {
		t.Fatalf("status %d, type %q: %s", res.StatusCode, res.Header.Get("Content-Type"), wav)
	}
	if string(wav[:4]) != "RIFF" || string(wav[8:16]) != "WAVEfmt " || string(wav[36:40]) != "data" {
		t.Fatalf("not a WAV header: %q", wav[:44])
	}
	if rate := binary.LittleEndian.Uint32(wav[24:]); rate != SpeechRate {
		t.Errorf("rate = %d", rate)
	}
	dataLen := int(binary.LittleEndian.Uint32(wav[40:]))
	if want := 3 * SpeechRate * 2; dataLen != want || len(wav) != 44+want {
		t.Errorf("data = %d bytes (file %d), want %d", dataLen, len(wav), want)
	}
	var loudest int16
	for i := 44; i < len(wav); i += 2 {
		loudest = max(loudest, int16(binary.LittleEndian.Uint16(wav[i:])))
	}
	if loudest < 5000 {
		t.Errorf("the tone is silent: peak %d", loudest)
	}
	_, again := postSpeech(t, s, `{"model":"tts-1","input":"`+input+`","voice":"nova"}`)
	if !bytes.Equal(wav, again) {
		t.Error("the same text gave different audio")
	}
	got := s.SpeechRequests()
	if len(got) != 2 {
		t.Fatalf("recorded %d requests", len(got))
	}
	if r := got[0]; r.Model != "tts-1" || r.Input != input || r.Voice != "nova" || r.Format != "wav" || r.Speed != 1.25 {
		t.Errorf("recorded %+v", r)
	}
	if r := got[1]; r.Format != "" || r.Speed != 0 {
		t.Errorf("absent fields recorded as %+v", r)
	}
}

func TestSpeechDurationIsClamped(t *testing.T) {
	for _, c := range []struct {
		input string
		want  time.Duration
	}{
		{"Hi", 300 * time.Millisecond},
		{strings.Repeat("é", 10), 600 * time.Millisecond},
		{strings.Repeat("x", 4000), 30 * time.Second},
	} {
		if got := SpeechDuration(c.input); got != c.want {
			t.Errorf("SpeechDuration(%d runes) = %v, want %v", len([]rune(c.input)), got, c.want)
		}
	}
}

func TestSpeechRefusesBadRequests(t *testing.T) {
	s := New()
	defer s.Close()
	for _, c := range []struct{ name, body, want string }{
		{"no model", `{"input":"hi"}`, "model"},
		{"no input", `{"model":"tts-1"}`, "'input'"},
		{"empty input", `{"model":"tts-1","input":""}`, "'input'"},
		{"too long", `{"model":"tts-1","input":"` + strings.Repeat("a", 4097) + `"}`, "at most 4096"},
		{"speed", `{"model":"tts-1","input":"hi","speed":9}`, "speed"},
		{"format", `{"model":"tts-1","input":"hi","response_format":"ogg"}`, "Supported values"},
		{"not json", `{`, "JSON"},
	} {
		res, body := postSpeech(t, s, c.body)
		if res.StatusCode != 400 || !strings.Contains(string(body), `"type":"invalid_request_error"`) || !strings.Contains(string(body), c.want) {
			t.Errorf("%s: %d %s", c.name, res.StatusCode, body)
		}
	}
}

func TestSpeechPCMAndFailure(t *testing.T) {
	s := New()
	defer s.Close()
	res, pcm := postSpeech(t, s, `{"model":"m","input":"hello","response_format":"pcm"}`)
	if res.Header.Get("Content-Type") != "audio/pcm" || len(pcm) != int(0.3*SpeechRate)*2 {
		t.Errorf("pcm: %q, %d bytes", res.Header.Get("Content-Type"), len(pcm))
	}
	s.FailAudio(401, "Incorrect API key provided: sk-bad.")
	res, body := postSpeech(t, s, `{"model":"m","input":"hello"}`)
	if res.StatusCode != 401 || !strings.Contains(string(body), `"message":"Incorrect API key provided: sk-bad."`) {
		t.Errorf("failure: %d %s", res.StatusCode, body)
	}
	s.FailAudio(0, "")
	if res, _ := postSpeech(t, s, `{"model":"m","input":"hello"}`); res.StatusCode != 200 {
		t.Errorf("after FailAudio(0): %d", res.StatusCode)
	}
}

func TestSpeechDelayHoldsTheFirstByte(t *testing.T) {
	s := New()
	defer s.Close()
	s.SetSpeechDelay(time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", s.OpenAIURL()+"/audio/speech", strings.NewReader(`{"model":"m","input":"hi"}`))
	done := make(chan error, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	// The request is recorded before the delay: once it is, the answer is held.
	for len(s.SpeechRequests()) == 0 {
		time.Sleep(time.Millisecond)
	}
	select {
	case err := <-done:
		t.Fatalf("answered during the delay: %v", err)
	default:
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("a cancelled request succeeded")
	}
}

func transcriptionForm(t *testing.T, fields map[string]string, fileName, mime string, data []byte) (string, *bytes.Buffer) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if fileName != "" {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="file"; filename="`+fileName+`"`)
		h.Set("Content-Type", mime)
		w, err := mw.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	mw.Close()
	return mw.FormDataContentType(), &b
}

func postTranscription(t *testing.T, s *Server, typ string, body io.Reader) (int, string) {
	t.Helper()
	res, err := http.Post(s.OpenAIURL()+"/audio/transcriptions", typ, body)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(data)
}

func TestTranscriptionAnswersTheScript(t *testing.T) {
	s := New()
	defer s.Close()
	typ, body := transcriptionForm(t, map[string]string{"model": "whisper-1", "language": "en"}, "speech.wav", "audio/wav", make([]byte, 3200))
	if code, got := postTranscription(t, s, typ, body); code != 200 || got != `{"text":"What is the weather like today?"}`+"\n" {
		t.Errorf("default: %d %s", code, got)
	}
	s.SetTranscript("Set a timer.")
	typ, body = transcriptionForm(t, map[string]string{"model": "whisper-1", "response_format": "text"}, "a.webm", "audio/webm", []byte("x"))
	if code, got := postTranscription(t, s, typ, body); code != 200 || got != "Set a timer.\n" {
		t.Errorf("text format: %d %q", code, got)
	}
	got := s.TranscriptionRequests()
	want := TranscriptionRequest{Model: "whisper-1", FileName: "speech.wav", MIME: "audio/wav", Bytes: 3200, Language: "en"}
	if len(got) != 2 {
		t.Fatalf("recorded %d", len(got))
	}
	if got[0].Header.Get("Content-Type") == "" {
		t.Error("the header was not recorded")
	}
	got[0].Header = nil
	if !reflect.DeepEqual(got[0], want) {
		t.Errorf("recorded %+v, want %+v", got[0], want)
	}
	s.ForgetRequests()
	if n := len(s.TranscriptionRequests()); n != 0 {
		t.Errorf("after ForgetRequests: %d", n)
	}
}

func TestTranscriptionRefusesBadRequests(t *testing.T) {
	s := New()
	defer s.Close()
	for _, c := range []struct {
		name       string
		fields     map[string]string
		file, mime string
		data       []byte
		status     int
		want       string
	}{
		{"no file", map[string]string{"model": "whisper-1"}, "", "", nil, 400, "'file'"},
		{"no model", nil, "a.wav", "audio/wav", []byte("x"), 400, "model"},
		{"empty file", map[string]string{"model": "whisper-1"}, "a.wav", "audio/wav", nil, 400, "too short"},
		{"too large", map[string]string{"model": "whisper-1"}, "a.wav", "audio/wav", make([]byte, 25<<20+1), 413, "Maximum content size"},
	} {
		typ, body := transcriptionForm(t, c.fields, c.file, c.mime, c.data)
		if code, got := postTranscription(t, s, typ, body); code != c.status || !strings.Contains(got, c.want) {
			t.Errorf("%s: %d %s", c.name, code, got)
		}
	}
	if code, got := postTranscription(t, s, "audio/wav", strings.NewReader("RIFF")); code != 400 || !strings.Contains(got, "multipart/form-data") {
		t.Errorf("not multipart: %d %s", code, got)
	}
}
