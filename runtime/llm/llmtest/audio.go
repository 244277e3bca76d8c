package llmtest

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// The fake's audio routes speak OpenAI's audio API: POST /v1/audio/speech answers a
// deterministic tone whose length follows the text, and POST /v1/audio/transcriptions
// answers a scripted transcript. Both record what they were sent.

// SpeechRequest is one POST /v1/audio/speech as the fake understood it.
type SpeechRequest struct {
	Model, Input, Voice string
	Format              string  // response_format as sent ("" when absent)
	Speed               float64 // 0 when absent
	Header              http.Header
}

// TranscriptionRequest is one POST /v1/audio/transcriptions as the fake understood it.
type TranscriptionRequest struct {
	Model    string
	FileName string // the file part's file name
	MIME     string // the file part's Content-Type
	Bytes    int    // the file's size
	Language string // "" when absent
	Format   string // response_format ("" when absent)
	Header   http.Header
}

// DefaultTranscript is what the fake transcribes every audio file to until
// SetTranscript says otherwise.
const DefaultTranscript = "What is the weather like today?"

// The fake tone: 24 kHz mono s16le WAV, 60 ms per character of input, clamped.
const (
	SpeechRate        = 24000
	SpeechPerChar     = 60 * time.Millisecond
	SpeechMinDuration = 300 * time.Millisecond
	SpeechMaxDuration = 30 * time.Second

	speechMaxInput   = 4096     // OpenAI's limit, in characters
	transcriptionMax = 25 << 20 // OpenAI's limit on the file, in bytes
	speechChunk      = 4800     // bytes per written chunk: 100 ms of audio
)

// audioState is the fake's audio script and record, guarded by Server.mu.
type audioState struct {
	transcript    string
	transcriptSet bool
	speechDelay   time.Duration
	failStatus    int
	failMessage   string
	speech        []SpeechRequest
	transcription []TranscriptionRequest
}

// SetTranscript sets the text every transcription answers (DefaultTranscript until
// set; "" answers an empty transcript).
func (s *Server) SetTranscript(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.audio.transcript = text
	s.audio.transcriptSet = true
}

// SetSpeechDelay delays the first byte of every speech answer by d (the server's
// time to first byte).
func (s *Server) SetSpeechDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.audio.speechDelay = d
}

// FailAudio makes both audio routes answer status with OpenAI's error shape and
// message (after recording the request) until called again with status 0.
func (s *Server) FailAudio(status int, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.audio.failStatus, s.audio.failMessage = status, message
}

// SpeechRequests returns the speech requests received so far, in order (refused
// ones included).
func (s *Server) SpeechRequests() []SpeechRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SpeechRequest(nil), s.audio.speech...)
}

// TranscriptionRequests returns the transcription requests received so far, in
// order (refused ones included, as far as they could be read).
func (s *Server) TranscriptionRequests() []TranscriptionRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]TranscriptionRequest(nil), s.audio.transcription...)
}

// SpeechDuration is how long the fake's speech for input lasts.
func SpeechDuration(input string) time.Duration {
	d := time.Duration(utf8.RuneCountInString(input)) * SpeechPerChar
	return min(max(d, SpeechMinDuration), SpeechMaxDuration)
}

// audioFailure is the scripted failure, if any.
func (s *Server) audioFailure() (int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.audio.failStatus, s.audio.failMessage
}

type speechBody struct {
	Model          string   `json:"model"`
	Input          *string  `json:"input"`
	Voice          string   `json:"voice"`
	ResponseFormat string   `json:"response_format"`
	Speed          *float64 `json:"speed"`
}

// audioSpeech answers POST /v1/audio/speech.
func (s *Server) audioSpeech(w http.ResponseWriter, r *http.Request) error {
	var body speechBody
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&body); err != nil {
		return writeOpenAIError(w, http.StatusBadRequest, "We could not parse the JSON body of your request.", "invalid_request_error")
	}
	req := SpeechRequest{Model: body.Model, Voice: body.Voice, Format: body.ResponseFormat, Header: r.Header.Clone()}
	if body.Input != nil {
		req.Input = *body.Input
	}
	if body.Speed != nil {
		req.Speed = *body.Speed
	}
	s.mu.Lock()
	s.audio.speech = append(s.audio.speech, req)
	delay := s.audio.speechDelay
	s.mu.Unlock()

	if status, msg := s.audioFailure(); status != 0 {
		return writeOpenAIError(w, status, msg, "")
	}
	switch {
	case body.Model == "":
		return writeOpenAIError(w, http.StatusBadRequest, "you must provide a model parameter", "invalid_request_error")
	case body.Input == nil || *body.Input == "":
		return writeOpenAIError(w, http.StatusBadRequest, "Missing required parameter: 'input'.", "invalid_request_error")
	case utf8.RuneCountInString(*body.Input) > speechMaxInput:
		return writeOpenAIError(w, http.StatusBadRequest,
			fmt.Sprintf("[{'type': 'string_too_long', 'loc': ('body', 'input'), 'msg': 'String should have at most %d characters'}]", speechMaxInput), "invalid_request_error")
	case body.Speed != nil && (*body.Speed < 0.25 || *body.Speed > 4):
		return writeOpenAIError(w, http.StatusBadRequest,
			fmt.Sprintf("%g is greater than the maximum of 4 - 'speed'", *body.Speed), "invalid_request_error")
	}
	pcmOnly := false
	switch body.ResponseFormat {
	case "", "wav", "mp3", "opus", "aac", "flac":
		// The fake encodes WAV whatever was asked for, and says so in Content-Type.
	case "pcm":
		pcmOnly = true
	default:
		return writeOpenAIError(w, http.StatusBadRequest,
			fmt.Sprintf("Invalid value: '%s'. Supported values are: 'mp3', 'opus', 'aac', 'flac', 'wav', and 'pcm'.", body.ResponseFormat), "invalid_request_error")
	}

	if delay > 0 {
		t := time.NewTimer(delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return nil
		case <-s.done:
			return nil
		}
	}
	pcm := Tone(SpeechDuration(req.Input))
	out := pcm
	w.Header().Set("Content-Type", "audio/pcm")
	if !pcmOnly {
		out = append(WAVHeader(len(pcm), SpeechRate), pcm...)
		w.Header().Set("Content-Type", "audio/wav")
	}
	w.Header().Set("Content-Length", fmt.Sprint(len(out)))
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for len(out) > 0 {
		select {
		case <-r.Context().Done():
			return nil
		case <-s.done:
			return errCut
		default:
		}
		n := min(speechChunk, len(out))
		if _, err := w.Write(out[:n]); err != nil {
			return nil
		}
		out = out[n:]
		if flusher != nil {
			flusher.Flush()
		}
	}
	return nil
}

// Tone is the fake's speech: d of 16-bit mono PCM at SpeechRate, a 220 Hz tone whose
// loudness rises and falls four times a second like syllables. It is deterministic.
func Tone(d time.Duration) []byte {
	n := int(d.Seconds() * SpeechRate)
	out := make([]byte, 2*n)
	for i := range n {
		t := float64(i) / SpeechRate
		envelope := math.Abs(math.Sin(math.Pi * 4 * t))
		v := 0.3 * envelope * math.Sin(2*math.Pi*220*t)
		binary.LittleEndian.PutUint16(out[2*i:], uint16(int16(v*math.MaxInt16)))
	}
	return out
}

// WAVHeader is the 44-byte header of a PCM WAV file holding dataLen bytes of 16-bit
// mono samples at rate.
func WAVHeader(dataLen, rate int) []byte {
	h := make([]byte, 44)
	copy(h, "RIFF")
	binary.LittleEndian.PutUint32(h[4:], uint32(36+dataLen))
	copy(h[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(h[16:], 16) // fmt chunk size
	binary.LittleEndian.PutUint16(h[20:], 1)  // PCM
	binary.LittleEndian.PutUint16(h[22:], 1)  // mono
	binary.LittleEndian.PutUint32(h[24:], uint32(rate))
	binary.LittleEndian.PutUint32(h[28:], uint32(rate*2)) // bytes per second
	binary.LittleEndian.PutUint16(h[32:], 2)              // block align
	binary.LittleEndian.PutUint16(h[34:], 16)             // bits per sample
	copy(h[36:], "data")
	binary.LittleEndian.PutUint32(h[40:], uint32(dataLen))
	return h
}

// audioTranscriptions answers POST /v1/audio/transcriptions.
func (s *Server) audioTranscriptions(w http.ResponseWriter, r *http.Request) error {
	// The whole body is read (up to a bound) before a file over OpenAI's limit is
	// refused, so the connection closes cleanly.
	r.Body = http.MaxBytesReader(w, r.Body, 2*transcriptionMax)
	req := TranscriptionRequest{Header: r.Header.Clone()}
	err := s.readTranscription(r, &req)
	s.mu.Lock()
	s.audio.transcription = append(s.audio.transcription, req)
	text := DefaultTranscript
	if s.audio.transcriptSet {
		text = s.audio.transcript
	}
	s.mu.Unlock()

	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge) || req.Bytes > transcriptionMax:
		return writeOpenAIError(w, http.StatusRequestEntityTooLarge,
			fmt.Sprintf("Maximum content size limit (%d) exceeded.", transcriptionMax), "invalid_request_error")
	case err != nil:
		return writeOpenAIError(w, http.StatusBadRequest, err.Error(), "invalid_request_error")
	}
	if status, msg := s.audioFailure(); status != 0 {
		return writeOpenAIError(w, status, msg, "")
	}
	switch {
	case req.Model == "":
		return writeOpenAIError(w, http.StatusBadRequest, "you must provide a model parameter", "invalid_request_error")
	case req.FileName == "":
		return writeOpenAIError(w, http.StatusBadRequest, "Missing required parameter: 'file'.", "invalid_request_error")
	case req.Bytes == 0:
		return writeOpenAIError(w, http.StatusBadRequest, "Audio file is too short. Minimum audio length is 0.1 seconds.", "invalid_request_error")
	}
	if req.Format == "text" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, err := io.WriteString(w, text+"\n")
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"text": text})
}

// readTranscription reads the multipart form's parts into req, counting the file's
// bytes without keeping them.
func (s *Server) readTranscription(r *http.Request, req *TranscriptionRequest) error {
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/form-data" {
		return errors.New("Invalid Content-Type header: expected multipart/form-data")
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return fmt.Errorf("Could not parse multipart form: %v", err)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("Could not parse multipart form: %w", err)
		}
		name := part.FormName()
		if name == "file" {
			req.FileName = part.FileName()
			req.MIME = part.Header.Get("Content-Type")
			n, err := io.Copy(io.Discard, part)
			req.Bytes = int(n)
			if err != nil {
				return fmt.Errorf("Could not parse multipart form: %w", err)
			}
			continue
		}
		value, err := io.ReadAll(io.LimitReader(part, 4096))
		if err != nil {
			return fmt.Errorf("Could not parse multipart form: %w", err)
		}
		switch v := strings.TrimSpace(string(value)); name {
		case "model":
			req.Model = v
		case "language":
			req.Language = v
		case "response_format":
			req.Format = v
		}
	}
}
