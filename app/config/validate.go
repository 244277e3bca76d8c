package config

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"strings"
)

// Validate reports every invalid value at once.
func (c Config) Validate() error {
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	check(strings.TrimSpace(c.Server.Host) != "", "server.host must not be empty")
	check(c.Server.Port >= 0 && c.Server.Port <= 65535, "server.port must be 0-65535, got %d", c.Server.Port)
	check(oneOf(c.Model.Provider, "", "openai", "anthropic", "ollama"),
		"model.provider must be openai, anthropic or ollama, got %q", c.Model.Provider)
	check(c.Model.Temperature >= 0 && c.Model.Temperature <= 2, "model.temperature must be 0-2, got %g", c.Model.Temperature)
	check(c.Model.MaxTokens >= 1, "model.maxTokens must be at least 1, got %d", c.Model.MaxTokens)
	check(c.Model.ThinkingBudget == 0 || c.Model.ThinkingBudget >= 1024,
		"model.thinkingBudget must be 0 (off) or at least 1024, got %d", c.Model.ThinkingBudget)
	check(c.Model.ContextWindow == 0 || (c.Model.ContextWindow >= 512 && c.Model.ContextWindow <= 10_000_000),
		"model.contextWindow must be 0 (ask the provider) or 512-10000000, got %d", c.Model.ContextWindow)
	check(c.Model.SummarizeAt == 0 || (c.Model.SummarizeAt >= 50 && c.Model.SummarizeAt <= 95),
		"model.summarizeAt must be 50-95, got %d", c.Model.SummarizeAt)
	check(c.Terminal.MaxConcurrent >= 1 && c.Terminal.MaxConcurrent <= 16,
		"terminal.maxConcurrent must be 1-16, got %d", c.Terminal.MaxConcurrent)
	check(c.Terminal.MaxDurationMs >= 1000 && c.Terminal.MaxDurationMs <= 3600000,
		"terminal.maxDurationMs must be 1000-3600000, got %d", c.Terminal.MaxDurationMs)
	check(c.Autonomy.IntervalMs >= 0, "autonomy.intervalMs must not be negative, got %d", c.Autonomy.IntervalMs)
	check(c.Autonomy.MaxPerHour >= 0, "autonomy.maxPerHour must not be negative, got %d", c.Autonomy.MaxPerHour)
	check(c.Autonomy.CooldownMs >= 0, "autonomy.cooldownMs must not be negative, got %d", c.Autonomy.CooldownMs)
	check(c.Memory.MaxBytes >= MinMemoryBytes && c.Memory.MaxBytes <= MaxMemoryBytes,
		"memory.maxBytes must be %d-%d, got %d", MinMemoryBytes, MaxMemoryBytes, c.Memory.MaxBytes)
	a := c.Attachments
	check(a.FileMiB >= 1 && a.FileMiB <= MaxAttachmentFileMiB, "attachments.fileMiB must be 1-%d, got %d", MaxAttachmentFileMiB, a.FileMiB)
	check(a.MessageMiB >= 1 && a.MessageMiB <= 4*MaxAttachmentFileMiB, "attachments.messageMiB must be 1-%d, got %d",
		4*MaxAttachmentFileMiB, a.MessageMiB)
	check(a.MessageFiles >= 1 && a.MessageFiles <= MaxAttachmentFiles, "attachments.messageFiles must be 1-%d, got %d",
		MaxAttachmentFiles, a.MessageFiles)
	check(a.TotalMiB >= 1 && a.TotalMiB <= 1<<20, "attachments.totalMiB must be 1-%d, got %d", 1<<20, a.TotalMiB)
	check(oneOf(c.UI.Theme, "system", "light", "dark"), "ui.theme must be system, light or dark, got %q", c.UI.Theme)
	errs = append(errs, validatePrices(c.Prices)...)
	errs = append(errs, validateVoice(c.Voice)...)
	errs = append(errs, validateFiles(c.Files)...)
	errs = append(errs, validateWeb(c.Web)...)
	return errors.Join(errs...)
}

// validatePrices refuses more than MaxPrices models, a model without a name, and a
// price that is negative or not a number; the names are sorted so that a file's
// errors read the same every time.
func validatePrices(prices map[string]Price) []error {
	if len(prices) > MaxPrices {
		return []error{fmt.Errorf("prices may name at most %d models, got %d", MaxPrices, len(prices))}
	}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(prices)) {
		if strings.TrimSpace(name) == "" || len(name) > 200 {
			errs = append(errs, fmt.Errorf("prices: a model name must be 1-200 characters, got %q", name))
			continue
		}
		p := prices[name]
		for _, v := range []struct {
			key string
			n   float64
		}{{"input", p.Input}, {"output", p.Output}, {"cacheRead", p.CacheRead}, {"cacheWrite", p.CacheWrite}} {
			if math.IsNaN(v.n) || math.IsInf(v.n, 0) || v.n < 0 {
				errs = append(errs, fmt.Errorf("prices.%s.%s must be a number of dollars, 0 or more, got %g", name, v.key, v.n))
			}
		}
	}
	return errs
}

func oneOf(v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

// The longest voice settings: a URL, a model or voice name, an API key.
const (
	maxVoiceURL  = 2048
	maxVoiceName = 200
	maxVoiceKey  = 4096
)

// validateVoice refuses a voice server's base URL that is not an http(s) URL (empty
// is fine: that way is off), a speed out of bounds, and strings too long to be real.
func validateVoice(v Voice) []error {
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	for _, u := range []struct{ key, value string }{{"voice.tts.baseURL", v.TTS.BaseURL}, {"voice.stt.baseURL", v.STT.BaseURL}} {
		check(voiceURLValid(u.value), "%s must be an http(s) URL such as http://127.0.0.1:8880/v1, or empty (off), got %q", u.key, clip(u.value))
	}
	for _, s := range []struct {
		key, value string
		max        int
	}{
		{"voice.tts.model", v.TTS.Model, maxVoiceName}, {"voice.tts.voice", v.TTS.Voice, maxVoiceName},
		{"voice.stt.model", v.STT.Model, maxVoiceName},
		{"voice.tts.apiKey", v.TTS.APIKey, maxVoiceKey}, {"voice.stt.apiKey", v.STT.APIKey, maxVoiceKey},
	} {
		check(len(s.value) <= s.max, "%s must be at most %d bytes long, got %d", s.key, s.max, len(s.value))
	}
	check(v.TTS.Speed >= MinSpeechSpeed && v.TTS.Speed <= MaxSpeechSpeed,
		"voice.tts.speed must be %g-%g, got %g", MinSpeechSpeed, MaxSpeechSpeed, v.TTS.Speed)
	return errs
}

// voiceURLValid accepts "" and an http(s) URL with a host and no credentials in it
// (the key has its own setting), at most maxVoiceURL long.
func voiceURLValid(s string) bool {
	if s == "" {
		return true
	}
	u, err := url.Parse(s)
	return err == nil && len(s) <= maxVoiceURL && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil &&
		strings.TrimSpace(s) == s
}

// clip shortens a value quoted in an error.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
