// Package config owns Wisp's settings: the schema with its live/restart classification,
// defaults, loading and atomic saving of the JSON file, and environment overrides.
//
// It imports nothing from Wisp's services. Every leaf field carries tags: `apply` says
// whether a change is "hot" (applied while Wisp runs) or needs a "restart"; `label`
// names it in restart reasons; `secret` keeps it out of API answers; `edit:"file"`
// means only a hand edit of the file may change it (who may reach the API, and with
// which token); `unit:"ms"` shows durations readably. The Watcher follows the file.
package config

import "time"

// Config is the whole settings file. JSON keys are camelCase; a partial file is valid
// (missing keys take defaults) and keys Wisp does not know are kept when it saves.
type Config struct {
	Server    Server    `json:"server"`
	API       API       `json:"api"`
	Model     Model     `json:"model"`
	Character Character `json:"character"`
	Features  Features  `json:"features"`
	Terminal  Terminal  `json:"terminal"`
	Autonomy  Autonomy  `json:"autonomy"`
	UI        UI        `json:"ui"`
	Desktop   Desktop   `json:"desktop"`
	Memory    Memory    `json:"memory"`
	// Attachments bounds the files attached to messages (docs/attachments.md).
	Attachments Attachments `json:"attachments"`
	// Voice is speech out (TTS) and in (STT) through OpenAI-compatible audio servers
	// (docs/voice.md).
	Voice Voice `json:"voice"`
	// Files are the folders the agent may list, read and edit (docs/files.md).
	Files Files `json:"files"`
	// Web is what the agent may fetch and how it searches (docs/web.md).
	Web Web `json:"web"`
	// MCPServers are the Model Context Protocol servers whose tools the agent may
	// use, by name, in the notation of Claude Desktop, Cursor and LM Studio. Env and
	// header values are secrets: the API shows only their names.
	MCPServers map[string]MCPServer `json:"mcpServers" apply:"hot" edit:"mcp" label:"MCP servers"`
	// Prices are what models cost, by model name, over Wisp's built-in list (the
	// file's entry wins): usage is costed with the price when it is recorded
	// (docs/usage.md).
	Prices map[string]Price `json:"prices" apply:"hot" label:"Prices"`
}

// Price is what a model costs, in US dollars per million tokens: the prompt's tokens
// (Input), the reply's (Output), the prompt's tokens read from the provider's cache
// (CacheRead) and written to it (CacheWrite).
type Price struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
}

// MaxPrices bounds how many models the prices may name.
const MaxPrices = 1000

// MCPServer is one MCP server: a command to run (stdio) or a URL (Streamable HTTP).
type MCPServer struct {
	Command  string            `json:"command,omitempty"`
	Args     []string          `json:"args,omitempty"`
	Env      map[string]string `json:"env,omitempty"`
	Cwd      string            `json:"cwd,omitempty"`
	URL      string            `json:"url,omitempty"`
	Headers  map[string]string `json:"headers,omitempty"`
	Disabled bool              `json:"disabled,omitempty"`
}

// Server is where the local API listens and whom it answers.
type Server struct {
	Host           string   `json:"host" apply:"restart" edit:"file" label:"Listen address"`
	Port           int      `json:"port" apply:"restart" label:"Server port"`
	AllowedOrigins []string `json:"allowedOrigins" apply:"restart" edit:"file" label:"Allowed origins"`
	AllowedHosts   []string `json:"allowedHosts" apply:"restart" edit:"file" label:"Allowed hosts"`
}

// API holds the secrets that guard the local API.
type API struct {
	Token         string `json:"token" apply:"restart" secret:"true" edit:"file" label:"API token"`
	TerminalToken string `json:"terminalToken" apply:"restart" secret:"true" edit:"file" label:"Terminal token"`
}

// Model selects the LLM provider and how it is called.
type Model struct {
	Provider    string  `json:"provider" apply:"hot" label:"Model provider"`
	BaseURL     string  `json:"baseURL" apply:"hot" label:"Model base URL"`
	Name        string  `json:"name" apply:"hot" label:"Model"`
	Temperature float64 `json:"temperature" apply:"hot" label:"Temperature"`
	MaxTokens   int     `json:"maxTokens" apply:"hot" label:"Reply token limit"`
	APIKey      string  `json:"apiKey" apply:"hot" secret:"true" label:"Model API key"`
	// ThinkingBudget turns on Anthropic extended thinking with that many tokens (0: off).
	ThinkingBudget int `json:"thinkingBudget" apply:"hot" label:"Thinking budget"`
	// ContextWindow is the model's context window in tokens: used when the provider
	// does not say, and as a cap when it is lower than the provider's (0: ask the
	// provider, else a conservative default).
	ContextWindow int `json:"contextWindow" apply:"hot" label:"Context window"`
	// SummarizeAt is the percent of the context budget at which older messages are
	// summarised (50–95).
	SummarizeAt int `json:"summarizeAt" apply:"hot" label:"Summarize at"`
}

// Character is who the assistant is.
type Character struct {
	Name   string `json:"name" apply:"hot" label:"Character name"`
	System string `json:"system" apply:"hot" label:"System prompt"`
	Bio    string `json:"bio" apply:"hot" label:"Bio"`
}

// Features are capabilities the user must opt into.
type Features struct {
	ShellEnabled bool `json:"shellEnabled" apply:"restart" label:"Shell access"`
}

// Terminal bounds shell runs.
type Terminal struct {
	MaxConcurrent int    `json:"maxConcurrent" apply:"restart" label:"Terminal run limit"`
	MaxDurationMs int    `json:"maxDurationMs" apply:"restart" unit:"ms" label:"Terminal time limit"`
	Cwd           string `json:"cwd" apply:"restart" label:"Terminal folder"`
	// NotifyLongRuns has Wisp say how a run of 30 s or more ended.
	NotifyLongRuns bool `json:"notifyLongRuns" apply:"hot" label:"Long run notices"`
}

// Autonomy controls the proactive loop. IntervalMs is clamped to MinInterval –
// MaxInterval when used (see Interval), so a hand-edited 1000 means 5 s, not an error.
type Autonomy struct {
	Enabled    bool `json:"enabled" apply:"hot" label:"Autonomy"`
	IntervalMs int  `json:"intervalMs" apply:"hot" unit:"ms" label:"Autonomy interval"`
	MaxPerHour int  `json:"maxPerHour" apply:"hot" label:"Autonomy messages per hour"`
	CooldownMs int  `json:"cooldownMs" apply:"hot" unit:"ms" label:"Autonomy cooldown"`
}

// The bounds of the autonomy interval.
const (
	MinInterval = 5 * time.Second
	MaxInterval = 10 * time.Minute
)

// Interval is the autonomy interval in effect: IntervalMs clamped to MinInterval –
// MaxInterval.
func (a Autonomy) Interval() time.Duration {
	return min(max(time.Duration(a.IntervalMs)*time.Millisecond, MinInterval), MaxInterval)
}

// Cooldown is how long after the user last spoke the loop stays quiet.
func (a Autonomy) Cooldown() time.Duration { return time.Duration(a.CooldownMs) * time.Millisecond }

// UI holds presentation preferences.
type UI struct {
	Theme string `json:"theme" apply:"hot" label:"Theme"`
	// Notifications lets the UI notify (the desktop's, or the browser's) about what
	// Wisp says on its own and approvals waiting while its window is not in front.
	Notifications bool `json:"notifications" apply:"hot" label:"Notifications"`
}

// Desktop is how Wisp fits into the user's desktop session.
type Desktop struct {
	// OpenAtLogin asks for an XDG autostart entry that starts this Wisp at login. The
	// entry on disk is what counts: the settings view shows whether it is there.
	OpenAtLogin bool `json:"openAtLogin" apply:"hot" label:"Open at login"`
}

// Memory bounds what the agent remembers about the user (docs/memory.md). AutoSave
// saves what the agent proposes to remember without asking: only the user turns it
// on (Settings or the file); no action of the agent's changes the settings.
type Memory struct {
	AutoSave bool `json:"autoSave" apply:"hot" label:"Save memories without asking"`
	MaxBytes int  `json:"maxBytes" apply:"hot" label:"Memory size limit"`
}

// Attachments bounds the files users attach (docs/attachments.md#limits): one file,
// the files of one message (their size together and their count), and everything the
// attachments folder keeps. They apply to the next upload or message.
type Attachments struct {
	FileMiB      int `json:"fileMiB" apply:"hot" label:"Attachment size limit"`
	MessageMiB   int `json:"messageMiB" apply:"hot" label:"Attachments per message, in MiB"`
	MessageFiles int `json:"messageFiles" apply:"hot" label:"Attachments per message"`
	TotalMiB     int `json:"totalMiB" apply:"hot" label:"Attachments folder limit"`
}

// Voice is how Wisp speaks and listens: any OpenAI-compatible /v1/audio/speech and
// /v1/audio/transcriptions server (docs/voice.md). An empty base URL turns that side off.
type Voice struct {
	TTS TTS `json:"tts"`
	STT STT `json:"stt"`
	// SpeakReplies reads every reply aloud as it streams (the window that sent it).
	SpeakReplies bool `json:"speakReplies" apply:"hot" label:"Speak replies"`
	// AutoSend sends a transcript at once instead of leaving it in the composer.
	AutoSend bool `json:"autoSend" apply:"hot" label:"Send what I say at once"`
}

// TTS is the speech server: POST <BaseURL>/audio/speech {model, input, voice, speed,
// response_format}. BaseURL ends with /v1 (like model.baseURL).
type TTS struct {
	BaseURL string  `json:"baseURL" apply:"hot" label:"Speech server"`
	Model   string  `json:"model" apply:"hot" label:"Speech model"`
	Voice   string  `json:"voice" apply:"hot" label:"Voice"`
	APIKey  string  `json:"apiKey" apply:"hot" secret:"true" label:"Speech server API key"`
	Speed   float64 `json:"speed" apply:"hot" label:"Speech speed"`
}

// STT is the transcription server: POST <BaseURL>/audio/transcriptions (multipart
// file and model).
type STT struct {
	BaseURL string `json:"baseURL" apply:"hot" label:"Transcription server"`
	Model   string `json:"model" apply:"hot" label:"Transcription model"`
	APIKey  string `json:"apiKey" apply:"hot" secret:"true" label:"Transcription server API key"`
}

// Files are the folders the agent's file actions work in: none by default. A
// root is an absolute path; the state folder and the config file stay out of
// reach even under one (docs/files.md).
type Files struct {
	Roots []string `json:"roots" apply:"hot" label:"Folders the agent may work in"`
}

// Web is what FETCH_URL may reach besides the public internet, and the search
// backend of WEB_SEARCH (docs/web.md).
type Web struct {
	// AllowHosts are hosts the user lets the agent fetch even though they resolve
	// to a loopback, private or link-local address ("nas.local", "192.168.1.20").
	AllowHosts []string  `json:"allowHosts" apply:"hot" label:"Hosts on your network the agent may fetch"`
	Search     WebSearch `json:"search"`
}

// WebSearch is the search backend: SearXNG's JSON API at BaseURL, or Brave
// Search's API with a key. An empty provider turns WEB_SEARCH off.
type WebSearch struct {
	Provider string `json:"provider" apply:"hot" label:"Web search provider"`
	BaseURL  string `json:"baseURL" apply:"hot" label:"Web search server"`
	APIKey   string `json:"apiKey" apply:"hot" secret:"true" label:"Web search API key"`
}

// The web search providers.
const (
	SearchSearXNG = "searxng"
	SearchBrave   = "brave"
)

// The bounds of the file and web settings.
const (
	MaxFileRoots  = 50
	MaxAllowHosts = 100
)

// The defaults and bounds of the voice.
const (
	DefaultTTSModel = "tts-1"
	DefaultTTSVoice = "alloy"
	DefaultSTTModel = "whisper-1"
	MinSpeechSpeed  = 0.25
	MaxSpeechSpeed  = 4.0
)

// The defaults and bounds of the attachments' limits.
const (
	DefaultAttachmentFileMiB    = 20
	DefaultAttachmentMessageMiB = 50
	DefaultAttachmentFiles      = 10
	DefaultAttachmentTotalMiB   = 2048
	MaxAttachmentFileMiB        = 1024
	MaxAttachmentFiles          = 100
)

// The bounds of the memory's size.
const (
	DefaultMemoryBytes = 16 << 10
	MaxMemoryBytes     = 64 << 10
	MinMemoryBytes     = 1 << 10
)

// DefaultPort is the port Wisp listens on unless told otherwise.
const DefaultPort = 2138

// Default returns the settings of a fresh installation.
func Default() Config {
	return Config{
		Server: Server{Host: "127.0.0.1", Port: DefaultPort, AllowedOrigins: []string{}, AllowedHosts: []string{}},
		Model:  Model{Temperature: 0.7, MaxTokens: 2048, SummarizeAt: 80},
		Character: Character{
			Name: "Wisp",
			System: "You are Wisp, a friendly desktop assistant. Be concise and helpful. " +
				"You have an animated avatar: now and then, when it fits the moment, play an emote " +
				"(wave hello, dance to celebrate), but not in every reply.",
			Bio: "A small, quick assistant that lives on your desktop.",
		},
		Terminal: Terminal{MaxConcurrent: 2, MaxDurationMs: 300000, NotifyLongRuns: true},
		Autonomy: Autonomy{IntervalMs: 30000, MaxPerHour: 4, CooldownMs: 120000},
		UI:       UI{Theme: "system", Notifications: true},
		Memory:   Memory{MaxBytes: DefaultMemoryBytes},
		Attachments: Attachments{FileMiB: DefaultAttachmentFileMiB, MessageMiB: DefaultAttachmentMessageMiB,
			MessageFiles: DefaultAttachmentFiles, TotalMiB: DefaultAttachmentTotalMiB},
		Voice: Voice{TTS: TTS{Model: DefaultTTSModel, Voice: DefaultTTSVoice, Speed: 1},
			STT: STT{Model: DefaultSTTModel}},
		Files:      Files{Roots: []string{}},
		Web:        Web{AllowHosts: []string{}},
		MCPServers: map[string]MCPServer{},
		Prices:     map[string]Price{},
	}
}
