package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"
)

// listModels serves GET /v1/models in OpenAI's shape, or Anthropic's when the request
// carries an anthropic-version header.
func (s *Server) listModels(w http.ResponseWriter, r *http.Request) error {
	names := s.modelNames()
	data := make([]map[string]any, 0, len(names))
	if r.Header.Get("Anthropic-Version") != "" {
		for _, n := range names {
			data = append(data, map[string]any{"type": "model", "id": n, "display_name": n, "created_at": "2025-01-01T00:00:00Z"})
		}
		first, last := "", ""
		if len(names) > 0 {
			first, last = names[0], names[len(names)-1]
		}
		return writeJSON(w, http.StatusOK, map[string]any{"data": data, "has_more": false, "first_id": first, "last_id": last})
	}
	window := s.Window()
	for _, n := range names {
		m := map[string]any{"id": n, "object": "model", "created": 0, "owned_by": "llmtest"}
		if window > 0 {
			m["context_length"] = window // OpenRouter's field
		}
		data = append(data, m)
	}
	return writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

// ollamaTags serves Ollama's GET /api/tags.
func (s *Server) ollamaTags(w http.ResponseWriter, r *http.Request) error {
	names := s.modelNames()
	models := make([]map[string]any, 0, len(names))
	for _, n := range names {
		models = append(models, map[string]any{
			"name": n, "model": n, "modified_at": time.Unix(0, 0).UTC().Format(time.RFC3339), "size": 0,
			"digest":  "llmtest",
			"details": map[string]any{"format": "gguf", "family": "llmtest", "parameter_size": "0B", "quantization_level": "none"},
		})
	}
	return writeJSON(w, http.StatusOK, map[string]any{"models": models})
}

// ollamaShow serves Ollama's POST /api/show {"model": name}: 404 for a model it does
// not list; else the model's info, with, when a window is set, the architecture's
// context_length and a Modelfile parameter num_ctx of that size, as Ollama reports a
// model created with PARAMETER num_ctx; its capabilities list "vision" unless
// SetVision(false).
func (s *Server) ollamaShow(w http.ResponseWriter, r *http.Request) error {
	var q struct {
		Model string `json:"model"`
		Name  string `json:"name"` // the older spelling
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&q); err != nil {
		return writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid JSON body: " + err.Error()})
	}
	name := q.Model
	if name == "" {
		name = q.Name
	}
	if !slices.Contains(s.modelNames(), name) {
		return writeJSON(w, http.StatusNotFound, map[string]any{"error": fmt.Sprintf("model '%s' not found", name)})
	}
	capabilities := []string{"completion", "tools"}
	if s.Vision() {
		capabilities = append(capabilities, "vision")
	}
	info := map[string]any{"general.architecture": "llama"}
	params := ""
	if window := s.Window(); window > 0 {
		info["llama.context_length"] = window
		params = fmt.Sprintf("num_ctx                        %d", window)
	}
	return writeJSON(w, http.StatusOK, map[string]any{
		"modelfile": "FROM llmtest", "parameters": params, "template": "{{ .Prompt }}",
		"details":    map[string]any{"format": "gguf", "family": "llama", "parameter_size": "0B", "quantization_level": "none"},
		"model_info": info, "capabilities": capabilities,
	})
}
