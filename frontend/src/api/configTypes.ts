// Wire types of the settings API (GET/PUT /api/config, PUT
// /api/permissions/shell, POST /api/agent/restart) and of the /ws frames
// the config watcher sends. The fields, the secret store, the shell access
// answer and the frames are generated from the Go types (wire.gen.ts); the config
// itself is a map on the Go side, typed here. Decoders live in configDecode.ts.

import type { ProviderKind } from './chatTypes'
import type { JsonObject } from './json'
import type { AgentStatus } from './statusTypes'

export type {
  ApplyMode,
  ConfigField,
  SecretStore,
  ShellView as ShellAccessResult,
  ConnectionInfo as ServerEndpoint,
  RestartRequired as RestartRequiredMessage,
  ConfigError as ConfigErrorMessage,
  ConfigChanged as ConfigChangedMessage,
} from './wire.gen'
import type { ConfigField, Price, ConnectionInfo as ServerEndpoint, SecretStore } from './wire.gen'

export type ThemeChoice = 'system' | 'light' | 'dark'

/** '' means not chosen: Wisp looks for a local Ollama. */
export type ModelProviderChoice = ProviderKind | ''

/** The config file's values with defaults filled in; secret keys are never sent. */
export interface WispConfig {
  server: { host: string; port: number; allowedOrigins: string[]; allowedHosts: string[] }
  model: {
    provider: ModelProviderChoice
    baseURL: string
    name: string
    temperature: number
    maxTokens: number
    thinkingBudget: number
    /** The model's context window in tokens; 0: ask the model server (else a cautious default). */
    contextWindow: number
    /** Percent of the context budget at which older messages are summarised (50–95). */
    summarizeAt: number
  }
  character: { name: string; system: string; bio: string }
  features: { shellEnabled: boolean }
  terminal: { maxConcurrent: number; maxDurationMs: number; cwd: string; notifyLongRuns: boolean }
  autonomy: { enabled: boolean; intervalMs: number; maxPerHour: number; cooldownMs: number }
  /** autoSave: a REMEMBER is saved without its card; maxBytes: the memory's bound (docs/memory.md). */
  memory: { autoSave: boolean; maxBytes: number }
  /** The limits of attached files, in MiB and files (docs/attachments.md#limits). */
  attachments: { fileMiB: number; messageMiB: number; messageFiles: number; totalMiB: number }
  ui: { theme: ThemeChoice; notifications: boolean }
  /** Speech out and in (docs/voice.md); the two apiKeys are secrets, never sent. An empty baseURL turns that side off. */
  voice: VoiceConfig
  /** The folders the agent's file actions may work in (docs/files.md): none by default, so no file access. */
  files: { roots: string[] }
  /** What FETCH_URL may reach on the user's network, and WEB_SEARCH's backend (docs/web.md); the apiKey is a secret, never sent. */
  web: WebConfig
  /** openAtLogin: whether the autostart entry is in effect on disk (not only what the file asks). */
  desktop: { openAtLogin: boolean }
  /**
   * The MCP servers as the file declares them, without their env and header
   * values (only their names). Shown and changed through /api/mcp/servers
   * (mcpTypes.ts); kept here as sent, and never patched.
   */
  mcpServers: Record<string, JsonObject>
  /** What models cost, by model name, in US dollars per million tokens (docs/usage.md). */
  prices: Record<string, Price>
}

/** The voice settings as GET /api/config sends them (without the keys). */
export interface VoiceConfig {
  tts: { baseURL: string; model: string; voice: string; speed: number }
  stt: { baseURL: string; model: string }
  /** Read every reply aloud as it streams (in the window that sent it). */
  speakReplies: boolean
  /** Send a transcript at once instead of leaving it in the composer. */
  autoSend: boolean
}

/** '' turns WEB_SEARCH off. */
export type SearchProvider = '' | 'searxng' | 'brave'

/** The web settings as GET /api/config sends them (without the search key). */
export interface WebConfig {
  /** Hosts the agent may fetch although they resolve to a loopback, private or link-local address. */
  allowHosts: string[]
  search: { provider: SearchProvider; baseURL: string }
}

/** GET /api/config (and the answer of PUT /api/config). */
export interface ConfigSnapshot {
  /** The config file. */
  path: string
  config: WispConfig
  /** Whether each secret ("model.apiKey") is set. */
  secrets: Record<string, boolean>
  /** Where the secrets are kept; null from a server that does not say. */
  secretStore: SecretStore | null
  fields: ConfigField[]
  /** Settings the environment or command line overrides for this process: path → variable or flag. */
  overrides: Record<string, string>
  /** Why the file on disk is invalid ('' when it is fine); Wisp keeps the last good settings. */
  configError: string
  pendingRestart: boolean
  pendingRestartReasons: string[]
}

/** A JSON Merge Patch (RFC 7386) of the config: null resets a key to its default (or clears a secret). */
export type MergePatchValue = string | number | boolean | null | string[] | MergePatch
export interface MergePatch {
  [key: string]: MergePatchValue
}

/** POST /api/agent/restart */
export interface RestartResult {
  ok: boolean
  status: AgentStatus
  /** Absent only from an older server; then the connection did not change. */
  connection: ServerEndpoint | null
}
