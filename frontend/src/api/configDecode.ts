// Runtime checks for the settings API's JSON and the config /ws frames. A
// snapshot without its file path or config object is rejected (null); a leaf
// of the wrong type takes the default of a fresh installation, so one odd
// value does not hide the whole settings view (and, being unchanged, is
// never sent back).

import { isBoolean, isNumber, isObject, isString, isStringArray, oneOf } from './guards'
import type {
  ConfigChangedMessage,
  ConfigErrorMessage,
  ConfigField,
  ConfigSnapshot,
  RestartRequiredMessage,
  SecretStore,
  ShellAccessResult,
  WispConfig,
} from './configTypes'
import type { JsonObject } from './types'
import type { Price } from './wire.gen'

export const isThemeChoice = oneOf(['system', 'light', 'dark'])
export const isModelProviderChoice = oneOf(['', 'openai', 'anthropic', 'ollama'])
export const isSearchProvider = oneOf(['', 'searxng', 'brave'])
const isApplyMode = oneOf(['hot', 'restart'])
const isSecretPlace = oneOf(['keyring', 'file'])

/** The settings of a fresh installation (the server's config.Default). */
export const DEFAULT_CONFIG: WispConfig = {
  server: { host: '127.0.0.1', port: 2138, allowedOrigins: [], allowedHosts: [] },
  model: {
    provider: '',
    baseURL: '',
    name: '',
    temperature: 0.7,
    maxTokens: 2048,
    thinkingBudget: 0,
    contextWindow: 0,
    summarizeAt: 80,
  },
  character: { name: 'Wisp', system: '', bio: '' },
  features: { shellEnabled: false },
  terminal: { maxConcurrent: 2, maxDurationMs: 300_000, cwd: '', notifyLongRuns: true },
  autonomy: { enabled: false, intervalMs: 30_000, maxPerHour: 4, cooldownMs: 120_000 },
  memory: { autoSave: false, maxBytes: 16_384 },
  attachments: { fileMiB: 20, messageMiB: 50, messageFiles: 10, totalMiB: 2048 },
  ui: { theme: 'system', notifications: true },
  voice: {
    tts: { baseURL: '', model: 'tts-1', voice: 'alloy', speed: 1 },
    stt: { baseURL: '', model: 'whisper-1' },
    speakReplies: false,
    autoSend: false,
  },
  files: { roots: [] },
  web: { allowHosts: [], search: { provider: '', baseURL: '' } },
  desktop: { openAtLogin: false },
  mcpServers: {},
  prices: {},
}

function section(v: JsonObject, key: string): JsonObject {
  const s = v[key]
  return isObject(s) ? s : {}
}

function pick<T>(v: unknown, check: (x: unknown) => x is T, fallback: T): T {
  return check(v) ? v : fallback
}

export function decodeWispConfig(v: unknown): WispConfig | null {
  if (!isObject(v)) return null
  const d = DEFAULT_CONFIG
  const server = section(v, 'server')
  const model = section(v, 'model')
  const character = section(v, 'character')
  const features = section(v, 'features')
  const terminal = section(v, 'terminal')
  const autonomy = section(v, 'autonomy')
  const memory = section(v, 'memory')
  const attachments = section(v, 'attachments')
  const ui = section(v, 'ui')
  const desktop = section(v, 'desktop')
  const voice = section(v, 'voice')
  const tts = section(voice, 'tts')
  const stt = section(voice, 'stt')
  const files = section(v, 'files')
  const web = section(v, 'web')
  const search = section(web, 'search')
  return {
    server: {
      host: pick(server.host, isString, d.server.host),
      port: pick(server.port, isNumber, d.server.port),
      allowedOrigins: pick(server.allowedOrigins, isStringArray, []),
      allowedHosts: pick(server.allowedHosts, isStringArray, []),
    },
    model: {
      provider: pick(model.provider, isModelProviderChoice, d.model.provider),
      baseURL: pick(model.baseURL, isString, d.model.baseURL),
      name: pick(model.name, isString, d.model.name),
      temperature: pick(model.temperature, isNumber, d.model.temperature),
      maxTokens: pick(model.maxTokens, isNumber, d.model.maxTokens),
      thinkingBudget: pick(model.thinkingBudget, isNumber, d.model.thinkingBudget),
      contextWindow: pick(model.contextWindow, isNumber, d.model.contextWindow),
      summarizeAt: pick(model.summarizeAt, isNumber, d.model.summarizeAt),
    },
    character: {
      name: pick(character.name, isString, d.character.name),
      system: pick(character.system, isString, d.character.system),
      bio: pick(character.bio, isString, d.character.bio),
    },
    features: { shellEnabled: pick(features.shellEnabled, isBoolean, d.features.shellEnabled) },
    terminal: {
      maxConcurrent: pick(terminal.maxConcurrent, isNumber, d.terminal.maxConcurrent),
      maxDurationMs: pick(terminal.maxDurationMs, isNumber, d.terminal.maxDurationMs),
      cwd: pick(terminal.cwd, isString, d.terminal.cwd),
      notifyLongRuns: pick(terminal.notifyLongRuns, isBoolean, d.terminal.notifyLongRuns),
    },
    autonomy: {
      enabled: pick(autonomy.enabled, isBoolean, d.autonomy.enabled),
      intervalMs: pick(autonomy.intervalMs, isNumber, d.autonomy.intervalMs),
      maxPerHour: pick(autonomy.maxPerHour, isNumber, d.autonomy.maxPerHour),
      cooldownMs: pick(autonomy.cooldownMs, isNumber, d.autonomy.cooldownMs),
    },
    memory: {
      autoSave: pick(memory.autoSave, isBoolean, d.memory.autoSave),
      maxBytes: pick(memory.maxBytes, isNumber, d.memory.maxBytes),
    },
    attachments: {
      fileMiB: pick(attachments.fileMiB, isNumber, d.attachments.fileMiB),
      messageMiB: pick(attachments.messageMiB, isNumber, d.attachments.messageMiB),
      messageFiles: pick(attachments.messageFiles, isNumber, d.attachments.messageFiles),
      totalMiB: pick(attachments.totalMiB, isNumber, d.attachments.totalMiB),
    },
    ui: {
      theme: pick(ui.theme, isThemeChoice, d.ui.theme),
      notifications: pick(ui.notifications, isBoolean, d.ui.notifications),
    },
    voice: {
      tts: {
        baseURL: pick(tts.baseURL, isString, d.voice.tts.baseURL),
        model: pick(tts.model, isString, d.voice.tts.model),
        voice: pick(tts.voice, isString, d.voice.tts.voice),
        speed: pick(tts.speed, isNumber, d.voice.tts.speed),
      },
      stt: {
        baseURL: pick(stt.baseURL, isString, d.voice.stt.baseURL),
        model: pick(stt.model, isString, d.voice.stt.model),
      },
      speakReplies: pick(voice.speakReplies, isBoolean, d.voice.speakReplies),
      autoSend: pick(voice.autoSend, isBoolean, d.voice.autoSend),
    },
    files: { roots: pick(files.roots, isStringArray, []) },
    web: {
      allowHosts: pick(web.allowHosts, isStringArray, []),
      search: {
        provider: pick(search.provider, isSearchProvider, d.web.search.provider),
        baseURL: pick(search.baseURL, isString, d.web.search.baseURL),
      },
    },
    desktop: { openAtLogin: pick(desktop.openAtLogin, isBoolean, d.desktop.openAtLogin) },
    mcpServers: record(v.mcpServers, isObject),
    prices: record(v.prices, isPrice),
  }
}

function decodeField(v: unknown): ConfigField | null {
  if (!isObject(v) || !isString(v.path) || v.path === '' || !isApplyMode(v.apply)) return null
  const field: ConfigField = {
    path: v.path,
    apply: v.apply,
    secret: pick(v.secret, isBoolean, false),
    editable: pick(v.editable, isBoolean, true),
    label: pick(v.label, isString, v.path),
  }
  if (isString(v.unit) && v.unit !== '') field.unit = v.unit
  return field
}

/** The entries of an object whose values pass check; others are left out. */
function isPrice(v: unknown): v is Price {
  return (
    isObject(v) && isNumber(v.input) && isNumber(v.output) && isNumber(v.cacheRead) && isNumber(v.cacheWrite)
  )
}

function record<T>(v: unknown, check: (x: unknown) => x is T): Record<string, T> {
  const out: Record<string, T> = {}
  if (!isObject(v)) return out
  for (const [key, value] of Object.entries(v)) if (check(value)) out[key] = value
  return out
}

/** Where secrets are kept; null when the server does not say (or says something unknown). */
export function decodeSecretStore(v: unknown): SecretStore | null {
  if (!isObject(v) || !isSecretPlace(v.where)) return null
  return {
    where: v.where,
    service: pick(v.service, isString, ''),
    reason: pick(v.reason, isString, ''),
    unread: pick(v.unread, isStringArray, []),
  }
}

export function decodeConfigSnapshot(v: unknown): ConfigSnapshot | null {
  if (!isObject(v) || !isString(v.path)) return null
  const config = decodeWispConfig(v.config)
  if (config === null) return null
  const fields: ConfigField[] = []
  if (Array.isArray(v.fields)) {
    for (const item of v.fields) {
      const field = decodeField(item)
      if (field !== null) fields.push(field)
    }
  }
  return {
    path: v.path,
    config,
    secrets: record(v.secrets, isBoolean),
    secretStore: decodeSecretStore(v.secretStore),
    fields,
    overrides: record(v.overrides, isString),
    configError: pick(v.configError, isString, ''),
    pendingRestart: pick(v.pendingRestart, isBoolean, false),
    pendingRestartReasons: pick(v.pendingRestartReasons, isStringArray, []),
  }
}

export function decodeShellAccess(v: unknown): ShellAccessResult | null {
  if (!isObject(v) || !isBoolean(v.enabled)) return null
  return {
    enabled: v.enabled,
    pendingRestart: pick(v.pendingRestart, isBoolean, false),
    pendingRestartReasons: pick(v.pendingRestartReasons, isStringArray, []),
  }
}

// /ws frames

export function decodeRestartRequired(v: JsonObject): RestartRequiredMessage | null {
  return isStringArray(v.reasons) ? { type: 'restart-required', reasons: v.reasons } : null
}

export function decodeConfigError(v: JsonObject): ConfigErrorMessage | null {
  return isString(v.message) && v.message !== '' ? { type: 'config-error', message: v.message } : null
}

export function decodeConfigChanged(v: JsonObject): ConfigChangedMessage | null {
  return isStringArray(v.paths) ? { type: 'config-changed', paths: v.paths } : null
}
