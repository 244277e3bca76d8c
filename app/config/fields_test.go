package config

import "testing"

// The hot/restart split, documented in the README. Model provider and base URL are
// hot: the model client is rebuilt from the settings on the next turn.
func TestEveryFieldIsClassified(t *testing.T) {
	type want struct {
		apply    Apply
		secret   bool
		editable bool
	}
	r, h := Restart, Hot
	table := map[string]want{
		"server.host":              {r, false, false},
		"server.port":              {r, false, true},
		"server.allowedOrigins":    {r, false, false},
		"server.allowedHosts":      {r, false, false},
		"api.token":                {r, true, false},
		"api.terminalToken":        {r, true, false},
		"model.provider":           {h, false, true},
		"model.baseURL":            {h, false, true},
		"model.name":               {h, false, true},
		"model.temperature":        {h, false, true},
		"model.maxTokens":          {h, false, true},
		"model.apiKey":             {h, true, true},
		"model.thinkingBudget":     {h, false, true},
		"model.contextWindow":      {h, false, true},
		"model.summarizeAt":        {h, false, true},
		"character.name":           {h, false, true},
		"character.system":         {h, false, true},
		"character.bio":            {h, false, true},
		"features.shellEnabled":    {r, false, true},
		"terminal.maxConcurrent":   {r, false, true},
		"terminal.maxDurationMs":   {r, false, true},
		"terminal.cwd":             {r, false, true},
		"terminal.notifyLongRuns":  {h, false, true},
		"autonomy.enabled":         {h, false, true},
		"autonomy.intervalMs":      {h, false, true},
		"autonomy.maxPerHour":      {h, false, true},
		"autonomy.cooldownMs":      {h, false, true},
		"ui.theme":                 {h, false, true},
		"ui.notifications":         {h, false, true},
		"desktop.openAtLogin":      {h, false, true},
		"memory.autoSave":          {h, false, true},
		"memory.maxBytes":          {h, false, true},
		"attachments.fileMiB":      {h, false, true},
		"attachments.messageMiB":   {h, false, true},
		"attachments.messageFiles": {h, false, true},
		"attachments.totalMiB":     {h, false, true},
		"voice.tts.baseURL":        {h, false, true},
		"voice.tts.model":          {h, false, true},
		"voice.tts.voice":          {h, false, true},
		"voice.tts.apiKey":         {h, true, true},
		"voice.tts.speed":          {h, false, true},
		"voice.stt.baseURL":        {h, false, true},
		"voice.stt.model":          {h, false, true},
		"voice.stt.apiKey":         {h, true, true},
		"voice.speakReplies":       {h, false, true},
		"voice.autoSend":           {h, false, true},
		"files.roots":              {h, false, true},
		"web.allowHosts":           {h, false, true},
		"web.search.provider":      {h, false, true},
		"web.search.baseURL":       {h, false, true},
		"web.search.apiKey":        {h, true, true},
		"mcpServers":               {h, false, false}, // through /api/mcp/servers
		"prices":                   {h, false, true},
	}
	seen := map[string]bool{}
	for _, f := range Fields() {
		seen[f.Path] = true
		w, ok := table[f.Path]
		if !ok {
			t.Errorf("%s is not in this table (and the README's): classify it", f.Path)
			continue
		}
		if got := (want{f.Apply, f.Secret, f.Editable}); got != w {
			t.Errorf("%s = %+v, want %+v", f.Path, got, w)
		}
		if f.Label == "" {
			t.Errorf("%s has no label for restart reasons", f.Path)
		}
	}
	for p := range table {
		if !seen[p] {
			t.Errorf("field %s missing from the schema", p)
		}
	}
	if _, ok := FieldAt("server.port"); !ok {
		t.Error("FieldAt(server.port) not found")
	}
	if _, ok := FieldAt("server"); ok {
		t.Error("FieldAt(server) found a section")
	}
}
