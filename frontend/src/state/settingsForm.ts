// The settings view's form, outside React: which settings it shows, their
// values as the inputs hold them, the merge patch of what the user changed,
// and which setting a refusal of the server names. Pure.

import type { ConfigField, MergePatch, MergePatchValue, WispConfig } from '../api'

export type FieldKind = 'text' | 'textarea' | 'int' | 'float' | 'seconds' | 'bool' | 'select'

export interface FieldSpec {
  /** The setting's path in the config ("terminal.maxDurationMs"). */
  path: string
  label: string
  kind: FieldKind
  options?: { value: string; label: string }[]
  hint?: string
  placeholder?: string
  /** Bounds for the number input's arrows, in the unit shown (seconds for "seconds"); the server validates. */
  min?: number
  max?: number
  step?: number
}

export interface SectionSpec {
  id: string
  title: string
  fields: FieldSpec[]
}

export const PROVIDER_OPTIONS = [
  { value: '', label: 'Not chosen (use a local Ollama if there is one)' },
  { value: 'openai', label: 'OpenAI-compatible' },
  { value: 'anthropic', label: 'Anthropic' },
  { value: 'ollama', label: 'Ollama' },
]

export const THEME_OPTIONS = [
  { value: 'system', label: 'Same as the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
]

/** The settings the view edits through the form (shell access and the API key have their own controls). */
export const SECTIONS: SectionSpec[] = [
  {
    id: 'model',
    title: 'Model',
    fields: [
      { path: 'model.provider', label: 'Provider', kind: 'select', options: PROVIDER_OPTIONS },
      { path: 'model.baseURL', label: 'Base URL', kind: 'text', placeholder: "the provider's default" },
      { path: 'model.name', label: 'Model', kind: 'text', placeholder: 'gpt-4o-mini, claude-…, llama3.2' },
      { path: 'model.temperature', label: 'Temperature', kind: 'float', min: 0, max: 2, step: 0.1 },
      { path: 'model.maxTokens', label: 'Max tokens per reply', kind: 'int', min: 1, step: 1 },
      {
        path: 'model.contextWindow',
        label: 'Context window (tokens)',
        kind: 'int',
        min: 0,
        step: 1024,
        hint: '0 = ask the model server',
      },
      {
        path: 'model.summarizeAt',
        label: 'Summarise older messages at (%)',
        kind: 'int',
        min: 50,
        max: 95,
        step: 5,
        hint: 'of the context budget, 50–95',
      },
    ],
  },
  {
    id: 'character',
    title: 'Character',
    fields: [
      { path: 'character.name', label: 'Name', kind: 'text' },
      { path: 'character.system', label: 'System prompt', kind: 'textarea' },
      { path: 'character.bio', label: 'Bio', kind: 'textarea' },
    ],
  },
  {
    id: 'terminal',
    title: 'Terminal limits',
    fields: [
      { path: 'terminal.maxConcurrent', label: 'Runs at the same time', kind: 'int', min: 1, max: 16, step: 1 },
      { path: 'terminal.maxDurationMs', label: 'Time limit per run (seconds)', kind: 'seconds', min: 1, step: 1 },
      { path: 'terminal.cwd', label: 'Working folder', kind: 'text', placeholder: 'your home folder' },
      { path: 'terminal.notifyLongRuns', label: 'Tell me how a run of 30 s or more ended', kind: 'bool' },
    ],
  },
  {
    id: 'autonomy',
    title: 'Autonomy',
    fields: [
      { path: 'autonomy.enabled', label: 'Let the assistant speak up on its own', kind: 'bool' },
      {
        path: 'autonomy.intervalMs',
        label: 'Check every (seconds)',
        kind: 'seconds',
        min: 5,
        max: 600,
        step: 1,
        hint: 'Clamped to 5 s – 10 min.',
      },
      { path: 'autonomy.maxPerHour', label: 'At most per hour', kind: 'int', min: 0, step: 1 },
      { path: 'autonomy.cooldownMs', label: 'Quiet time after a message (seconds)', kind: 'seconds', min: 0, step: 1 },
    ],
  },
  {
    id: 'memory',
    title: 'Memory',
    fields: [
      {
        path: 'memory.autoSave',
        label: 'Save what Wisp wants to remember without asking',
        kind: 'bool',
        hint: 'Off: each note Wisp proposes is a card in the chat (Save, Edit, Discard). Every change is kept in the history below either way.',
      },
      { path: 'memory.maxBytes', label: 'Largest memory (bytes)', kind: 'int', min: 1024, max: 65536, step: 1024 },
    ],
  },
  {
    id: 'appearance',
    title: 'Appearance',
    fields: [{ path: 'ui.theme', label: 'Theme', kind: 'select', options: THEME_OPTIONS }],
  },
  {
    id: 'notifications',
    title: 'Notifications',
    fields: [
      {
        path: 'ui.notifications',
        label: 'Notify me while Wisp is not in front',
        kind: 'bool',
        hint: 'Reminders, messages Wisp sends on its own, long terminal runs ending and approvals waiting.',
      },
    ],
  },
  {
    id: 'login',
    title: 'Start at login',
    fields: [
      {
        path: 'desktop.openAtLogin',
        label: 'Open Wisp when I log in',
        kind: 'bool',
        hint: 'Adds Wisp to your desktop session’s autostart (~/.config/autostart/wisp.desktop). This shows whether that entry is there.',
      },
    ],
  },
  {
    id: 'server',
    title: 'Server',
    fields: [
      { path: 'server.host', label: 'Host', kind: 'text' },
      { path: 'server.port', label: 'Port', kind: 'int', min: 1, max: 65535, step: 1 },
    ],
  },
]

export const SHELL_PATH = 'features.shellEnabled'
export const API_KEY_PATH = 'model.apiKey'

const ALL_FIELDS = SECTIONS.flatMap((s) => s.fields)

export function fieldSpec(path: string): FieldSpec | undefined {
  return ALL_FIELDS.find((f) => f.path === path)
}

export type FormValue = string | boolean
export type FormValues = Record<string, FormValue>

/** A config leaf by path, or undefined. */
export function configValue(config: WispConfig, path: string): unknown {
  let v: unknown = config
  for (const key of path.split('.')) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined
    v = (v as Record<string, unknown>)[key]
  }
  return v
}

/** A value as its input shows it: numbers as text, milliseconds as seconds. */
export function toFormValue(spec: FieldSpec, value: unknown): FormValue {
  if (spec.kind === 'bool') return value === true
  if (typeof value === 'number') return String(spec.kind === 'seconds' ? value / 1000 : value)
  return typeof value === 'string' ? value : ''
}

export function formValues(config: WispConfig): FormValues {
  const values: FormValues = {}
  for (const spec of ALL_FIELDS) values[spec.path] = toFormValue(spec, configValue(config, spec.path))
  return values
}

/** An input's value as the config holds it, or an error to show under the field. */
export function parseFormValue(spec: FieldSpec, value: FormValue): { value: MergePatchValue } | { error: string } {
  if (spec.kind === 'bool') return { value: value === true }
  const text = typeof value === 'string' ? value : ''
  switch (spec.kind) {
    case 'int':
    case 'float':
    case 'seconds': {
      const trimmed = text.trim()
      const n = Number(trimmed)
      if (trimmed === '' || !Number.isFinite(n)) return { error: 'Enter a number.' }
      if (spec.kind === 'int' && !Number.isInteger(n)) return { error: 'Enter a whole number.' }
      // Ranges are the server's to check: its refusal names the setting and the range.
      return { value: spec.kind === 'seconds' ? Math.round(n * 1000) : n }
    }
    case 'textarea':
      return { value: text }
    default:
      return { value: text.trim() }
  }
}

/** What the user did with the write-only API key field. */
export interface KeyEdit {
  /** A new key ('' keeps the saved one). */
  value: string
  /** "Remove key" was chosen. */
  remove: boolean
}

export const NO_KEY_EDIT: KeyEdit = { value: '', remove: false }

export interface PatchResult {
  patch: MergePatch
  /** Paths of the settings in the patch. */
  changed: string[]
  /** Path → problem, for inputs that do not hold a valid value. */
  errors: Record<string, string>
}

function setPath(patch: MergePatch, path: string, value: MergePatchValue): void {
  const keys = path.split('.')
  const last = keys.pop()
  if (last === undefined) return
  let node = patch
  for (const key of keys) {
    const next = node[key]
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      node = next
    } else {
      const created: MergePatch = {}
      node[key] = created
      node = created
    }
  }
  node[last] = value
}

/** The merge patch of the edits that differ from config; invalid inputs are errors, not sent. */
export function buildPatch(config: WispConfig, edits: FormValues, key: KeyEdit): PatchResult {
  const patch: MergePatch = {}
  const changed: string[] = []
  const errors: Record<string, string> = {}
  for (const [path, raw] of Object.entries(edits)) {
    const spec = fieldSpec(path)
    if (spec === undefined) continue
    const parsed = parseFormValue(spec, raw)
    if ('error' in parsed) {
      errors[path] = parsed.error
      continue
    }
    if (parsed.value === configValue(config, path)) continue
    setPath(patch, path, parsed.value)
    changed.push(path)
  }
  if (key.remove) {
    setPath(patch, API_KEY_PATH, null)
    changed.push(API_KEY_PATH)
  } else if (key.value !== '') {
    setPath(patch, API_KEY_PATH, key.value)
    changed.push(API_KEY_PATH)
  }
  return { patch, changed, errors }
}

/** Edits still different from config (after a reload, edits that now match are dropped). */
export function pendingEdits(config: WispConfig, edits: FormValues): FormValues {
  const base = formValues(config)
  const left: FormValues = {}
  for (const [path, value] of Object.entries(edits)) if (base[path] !== value) left[path] = value
  return left
}

/**
 * The setting a refusal names ("terminal.maxConcurrent must be 1-16, got
 * 40"): the longest known path the message mentions, or null.
 */
export function errorPath(message: string, paths: readonly string[]): string | null {
  let best: string | null = null
  for (const path of paths) {
    const at = message.indexOf(path)
    if (at === -1) continue
    const around = message.charAt(at - 1) + message.charAt(at + path.length)
    if (/[A-Za-z0-9_.]/.test(around)) continue
    if (best === null || path.length > best.length) best = path
  }
  return best
}

/** The paths the form can show an error under. */
export const FORM_PATHS: readonly string[] = [...ALL_FIELDS.map((f) => f.path), SHELL_PATH, API_KEY_PATH]

/** How a setting applies, from the server's field list. */
export interface FieldMeta {
  apply: ConfigField['apply'] | null
  editable: boolean
  /** The variable or flag that overrides it for this process. */
  override: string | null
}

export function fieldMeta(fields: ConfigField[], overrides: Record<string, string>, path: string): FieldMeta {
  const field = fields.find((f) => f.path === path)
  return {
    apply: field?.apply ?? null,
    editable: field?.editable ?? true,
    override: overrides[path] ?? null,
  }
}
