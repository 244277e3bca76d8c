package llmtest

import (
	"net/http"
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
	for _, n := range names {
		data = append(data, map[string]any{"id": n, "object": "model", "created": 0, "owned_by": "llmtest"})
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
