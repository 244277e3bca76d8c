package api

import (
	"bytes"
	"encoding/binary"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/voice"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

// voiceOn serves the API with a voice service whose settings are *cfg (read live).
func voiceOn(t *testing.T, token string, cfg *atomic.Pointer[config.Voice]) *served {
	t.Helper()
	svc := voice.New(voice.Options{Config: func() config.Voice { return *cfg.Load() }, Log: slog.New(slog.DiscardHandler)})
	return serveAPI(t, token, Options{Voice: svc})
}

// fakeVoice starts the fake audio servers and settings pointing both ways at them.
func fakeVoice(t *testing.T) (*llmtest.Server, *atomic.Pointer[config.Voice]) {
	t.Helper()
	fake := llmtest.New()
	t.Cleanup(fake.Close)
	cfg := config.Default().Voice
	cfg.TTS.BaseURL, cfg.TTS.APIKey, cfg.TTS.Voice, cfg.TTS.Speed = fake.OpenAIURL(), "sk-tts", "nova", 1.5
	cfg.STT.BaseURL, cfg.STT.APIKey = fake.OpenAIURL()+"/", "sk-stt"
	var p atomic.Pointer[config.Voice]
	p.Store(&cfg)
	return fake, &p
}

// postRaw posts body with the token and headers, and returns the answer's status,
// header and bytes.
func (s *served) postRaw(path string, body io.Reader, header map[string]string) (int, http.Header, []byte) {
	s.t.Helper()
	r, err := http.NewRequest("POST", s.url+path, body)
	if err != nil {
		s.t.Fatal(err)
	}
	if s.token != "" {
		r.Header.Set("Authorization", "Bearer "+s.token)
	}
	for k, v := range header {
		r.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data
}

func wavOf(samples int) []byte {
	return append(llmtest.WAVHeader(2*samples, 16000), make([]byte, 2*samples)...)
}

func TestSpeechStreamsTheServersAudio(t *testing.T) {
	fake, cfg := fakeVoice(t)
	s := voiceOn(t, "tok", cfg)
	text := "Hello there, this is Wisp speaking." // 35 characters: 2.1 s
	status, h, audio := s.postRaw("/api/speech", strings.NewReader(`{"text":"`+text+`"}`), map[string]string{"Content-Type": "application/json"})
	if status != 200 || h.Get("Content-Type") != "audio/wav" || h.Get("Cache-Control") != "no-store" {
		t.Fatalf("speech: %d %v %s", status, h, audio)
	}
	want := 44 + int(llmtest.SpeechDuration(text).Seconds()*llmtest.SpeechRate)*2
	if len(audio) != want || string(audio[:4]) != "RIFF" || binary.LittleEndian.Uint32(audio[24:]) != llmtest.SpeechRate {
		t.Errorf("audio: %d bytes, want %d", len(audio), want)
	}
	status, _, _ = s.postRaw("/api/speech", strings.NewReader(`{"text":"Hi","voice":"echo"}`), map[string]string{"Content-Type": "application/json"})
	if status != 200 {
		t.Fatalf("with a voice: %d", status)
	}
	got := fake.SpeechRequests()
	if len(got) != 2 {
		t.Fatalf("the fake got %d requests", len(got))
	}
	r := got[0]
	if r.Model != "tts-1" || r.Input != text || r.Voice != "nova" || r.Format != "wav" || r.Speed != 1.5 ||
		r.Header.Get("Authorization") != "Bearer sk-tts" || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("the fake got %+v", r)
	}
	if got[1].Voice != "echo" || got[1].Input != "Hi" {
		t.Errorf("the voice asked for: %+v", got[1])
	}
}

func TestTranscriptionThroughTheServer(t *testing.T) {
	fake, cfg := fakeVoice(t)
	fake.SetTranscript("Remind me at noon.")
	s := voiceOn(t, "", cfg)
	wav := wavOf(8000)
	for _, c := range []struct{ ctype, marker, name, mime string }{
		{"audio/wav", "", "speech.wav", "audio/wav"},
		{"audio/webm;codecs=opus", "", "speech.webm", "audio/webm"},
		{"", "1", "speech.wav", "audio/wav"}, // no type: the bytes say WAV
		{"application/octet-stream", "", "speech.wav", "audio/wav"},
	} {
		fake.ForgetRequests()
		status, _, body := s.postRaw("/api/transcriptions", bytes.NewReader(wav), map[string]string{"Content-Type": c.ctype, UploadHeader: c.marker})
		if status != 200 || string(body) != `{"text":"Remind me at noon."}`+"\n" {
			t.Errorf("%q: %d %s", c.ctype, status, body)
			continue
		}
		got := fake.TranscriptionRequests()
		if len(got) != 1 || got[0].FileName != c.name || got[0].MIME != c.mime || got[0].Bytes != len(wav) || got[0].Model != "whisper-1" ||
			got[0].Header.Get("Authorization") != "Bearer sk-stt" {
			t.Errorf("%q: the fake got %+v", c.ctype, got)
		}
	}
}

func TestVoiceNotSetUp(t *testing.T) {
	var cfg atomic.Pointer[config.Voice]
	v := config.Default().Voice
	cfg.Store(&v)
	s := voiceOn(t, "", &cfg)
	if got := s.call("GET", "/api/voice", nil, nil); got.status != 200 || got.body["canSpeak"] != false || got.body["canListen"] != false {
		t.Errorf("status: %d %v", got.status, got.body)
	}
	if got := s.call("POST", "/api/speech", `{"text":"Hi"}`, nil); got.status != 503 || got.body["error"] != "speech is not set up: Settings → Voice" {
		t.Errorf("speech: %d %v", got.status, got.body)
	}
	status, _, body := s.postRaw("/api/transcriptions", bytes.NewReader(wavOf(10)), map[string]string{"Content-Type": "audio/wav"})
	if status != 503 || !strings.Contains(string(body), "transcription is not set up: Settings → Voice") {
		t.Errorf("transcription: %d %s", status, body)
	}
	v.TTS.BaseURL = "http://127.0.0.1:1/v1"
	if got := s.call("GET", "/api/voice", nil, nil); got.body["canSpeak"] != true || got.body["canListen"] != false {
		t.Errorf("status after setting TTS: %v", got.body)
	}
}

func TestVoiceRefusals(t *testing.T) {
	fake, cfg := fakeVoice(t)
	s := voiceOn(t, "tok", cfg)
	s.checkGuarded([]route{{"POST", "/api/speech", `{"text":"Hi"}`}, {"GET", "/api/voice", ""}})
	if got := s.call("POST", "/api/transcriptions", "RIFF", map[string]string{"Content-Type": "audio/wav", "Authorization": ""}); got.status != 401 {
		t.Errorf("transcription without the token: %d", got.status)
	}
	json := map[string]string{"Content-Type": "application/json"}
	for _, c := range []struct {
		name, path, ctype, marker, body string
		status                          int
		want                            string
	}{
		{"a cross-site form", "/api/transcriptions", "text/plain", "", "RIFF", 415, UploadHeader},
		{"a cross-site multipart", "/api/transcriptions", "multipart/form-data; boundary=x", "", "RIFF", 415, UploadHeader},
		{"empty audio", "/api/transcriptions", "audio/wav", "", "", 400, "no audio"},
		{"not audio", "/api/transcriptions", "image/png", "", "\x89PNG....", 400, "not one a transcription server takes"},
		{"empty text", "/api/speech", "application/json", "", `{"text":"  "}`, 400, "no text"},
		{"long text", "/api/speech", "application/json", "", `{"text":"` + strings.Repeat("a", 4097) + `"}`, 413, "4097 characters"},
		{"speech as a form", "/api/speech", "text/plain", "1", `{"text":"Hi"}`, 415, "application/json"},
	} {
		status, _, body := s.postRaw(c.path, strings.NewReader(c.body), map[string]string{"Content-Type": c.ctype, UploadHeader: c.marker})
		if status != c.status || !strings.Contains(string(body), c.want) {
			t.Errorf("%s: %d %s", c.name, status, body)
		}
	}
	if n := len(fake.TranscriptionRequests()) + len(fake.SpeechRequests()); n != 0 {
		t.Errorf("%d refused requests reached the fake", n)
	}
	fake.FailAudio(401, "Incorrect API key provided: sk-tts.")
	status, _, body := s.postRaw("/api/speech", strings.NewReader(`{"text":"Hi"}`), json)
	if status != 502 || !strings.Contains(string(body), "the speech server answered 401: Incorrect API key provided: sk-tts.") {
		t.Errorf("upstream 401: %d %s", status, body)
	}
	fake.FailAudio(500, "The server had an error while processing your request.")
	status, _, body = s.postRaw("/api/transcriptions", bytes.NewReader(wavOf(10)), map[string]string{"Content-Type": "audio/wav"})
	if status != 502 || !strings.Contains(string(body), "the transcription server answered 500: The server had an error") {
		t.Errorf("upstream 500: %d %s", status, body)
	}
}

func TestTranscriptionTooLarge(t *testing.T) {
	fake, cfg := fakeVoice(t)
	s := voiceOn(t, "", cfg)
	big := make([]byte, MaxTranscriptionBytes+1)
	status, _, body := s.postRaw("/api/transcriptions", bytes.NewReader(big), map[string]string{"Content-Type": "audio/wav"})
	if status != 413 || !strings.Contains(string(body), "larger than 25 MiB") {
		t.Errorf("declared too large: %d %s", status, body)
	}
	// Without a declared length (chunked), the limit stops the body as it passes.
	status, _, body = s.postRaw("/api/transcriptions", io.MultiReader(bytes.NewReader(big)), map[string]string{"Content-Type": "audio/wav"})
	if status != 413 || !strings.Contains(string(body), "larger than 25 MiB") {
		t.Errorf("chunked too large: %d %s", status, body)
	}
	if n := len(fake.TranscriptionRequests()); n != 0 {
		t.Errorf("%d too large requests reached the fake", n)
	}
}

// The speech answer is passed on as it arrives: the first chunk reaches the client
// while the server still holds the rest.
func TestSpeechIsStreamed(t *testing.T) {
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "audio/wav")
		w.Write([]byte("RIFF-first-chunk"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.Write([]byte("-the-rest"))
	}))
	defer upstream.Close()
	defer close(release)
	var cfg atomic.Pointer[config.Voice]
	v := config.Voice{TTS: config.TTS{BaseURL: upstream.URL + "/v1"}}
	cfg.Store(&v)
	s := voiceOn(t, "", &cfg)
	r, _ := http.NewRequest("POST", s.url+"/api/speech", strings.NewReader(`{"text":"Hi"}`))
	r.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	first := make([]byte, len("RIFF-first-chunk"))
	if _, err := io.ReadFull(resp.Body, first); err != nil || string(first) != "RIFF-first-chunk" {
		t.Fatalf("first chunk: %q %v", first, err)
	}
	release <- struct{}{}
	rest, _ := io.ReadAll(resp.Body)
	if string(rest) != "-the-rest" {
		t.Errorf("rest: %q", rest)
	}
}
