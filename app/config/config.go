// Package config owns Wisp's settings: the schema with its live/restart classification,
// defaults, loading and atomic saving of the JSON file, and environment overrides.
//
// It imports nothing from the rest of Wisp. Every leaf field carries an `apply` tag:
// "hot" fields can change while Wisp runs, "restart" fields take effect only after a
// restart. The config watcher uses the tags to decide what a change needs.
package config

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
}

// Server is where the local API listens and whom it answers.
type Server struct {
	Host           string   `json:"host" apply:"restart"`
	Port           int      `json:"port" apply:"restart"`
	AllowedOrigins []string `json:"allowedOrigins" apply:"restart"`
	AllowedHosts   []string `json:"allowedHosts" apply:"restart"`
}

// API holds the secrets that guard the local API.
type API struct {
	Token         string `json:"token" apply:"restart" secret:"true"`
	TerminalToken string `json:"terminalToken" apply:"restart" secret:"true"`
}

// Model selects the LLM provider and how it is called.
type Model struct {
	Provider    string  `json:"provider" apply:"restart"`
	BaseURL     string  `json:"baseURL" apply:"restart"`
	Name        string  `json:"name" apply:"hot"`
	Temperature float64 `json:"temperature" apply:"hot"`
	MaxTokens   int     `json:"maxTokens" apply:"hot"`
	APIKey      string  `json:"apiKey" apply:"hot" secret:"true"`
	// ThinkingBudget turns on Anthropic extended thinking with that many tokens (0: off).
	ThinkingBudget int `json:"thinkingBudget" apply:"hot"`
}

// Character is who the assistant is.
type Character struct {
	Name   string `json:"name" apply:"hot"`
	System string `json:"system" apply:"hot"`
	Bio    string `json:"bio" apply:"hot"`
}

// Features are capabilities the user must opt into.
type Features struct {
	ShellEnabled bool `json:"shellEnabled" apply:"restart"`
}

// Terminal bounds shell runs.
type Terminal struct {
	MaxConcurrent int    `json:"maxConcurrent" apply:"restart"`
	MaxDurationMs int    `json:"maxDurationMs" apply:"restart"`
	Cwd           string `json:"cwd" apply:"restart"`
}

// Autonomy controls the proactive loop.
type Autonomy struct {
	Enabled    bool `json:"enabled" apply:"hot"`
	IntervalMs int  `json:"intervalMs" apply:"hot"`
	MaxPerHour int  `json:"maxPerHour" apply:"hot"`
	CooldownMs int  `json:"cooldownMs" apply:"hot"`
}

// UI holds presentation preferences.
type UI struct {
	Theme string `json:"theme" apply:"hot"`
}

// DefaultPort is the port Wisp listens on unless told otherwise.
const DefaultPort = 2138

// Default returns the settings of a fresh installation.
func Default() Config {
	return Config{
		Server: Server{Host: "127.0.0.1", Port: DefaultPort, AllowedOrigins: []string{}, AllowedHosts: []string{}},
		Model:  Model{Temperature: 0.7, MaxTokens: 2048},
		Character: Character{
			Name: "Wisp",
			System: "You are Wisp, a friendly desktop assistant. Be concise and helpful. " +
				"You have an animated avatar: now and then, when it fits the moment, play an emote " +
				"(wave hello, dance to celebrate), but not in every reply.",
			Bio: "A small, quick assistant that lives on your desktop.",
		},
		Terminal: Terminal{MaxConcurrent: 2, MaxDurationMs: 300000},
		Autonomy: Autonomy{IntervalMs: 30000, MaxPerHour: 4, CooldownMs: 120000},
		UI:       UI{Theme: "system"},
	}
}
