import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG, type WispConfig } from '../api'
import {
  FORM_PATHS,
  NO_KEY_EDIT,
  buildPatch,
  errorPath,
  fieldMeta,
  fieldSpec,
  formValues,
  parseFormValue,
  pendingEdits,
} from './settingsForm'

const config: WispConfig = {
  ...DEFAULT_CONFIG,
  model: { ...DEFAULT_CONFIG.model, provider: 'openai', name: 'gpt-4o-mini' },
  character: { name: 'Wisp', system: 'You are Wisp.', bio: 'small' },
}

function spec(path: string) {
  const s = fieldSpec(path)
  if (s === undefined) throw new Error(`no field ${path}`)
  return s
}

describe('formValues', () => {
  it('shows numbers as text, milliseconds as seconds and flags as booleans', () => {
    const v = formValues(config)
    expect(v['model.temperature']).toBe('0.7')
    expect(v['terminal.maxDurationMs']).toBe('300')
    expect(v['autonomy.cooldownMs']).toBe('120')
    expect(v['autonomy.enabled']).toBe(false)
    expect(v['model.provider']).toBe('openai')
    expect(v['ui.theme']).toBe('system')
    expect(v['server.port']).toBe('2138')
  })
})

describe('parseFormValue', () => {
  it('parses numbers and seconds, and says what is wrong', () => {
    expect(parseFormValue(spec('terminal.maxDurationMs'), '90.5')).toEqual({ value: 90500 })
    expect(parseFormValue(spec('terminal.maxConcurrent'), ' 4 ')).toEqual({ value: 4 })
    expect(parseFormValue(spec('terminal.maxConcurrent'), '2.5')).toEqual({ error: 'Enter a whole number.' })
    expect(parseFormValue(spec('terminal.maxConcurrent'), '40')).toEqual({ value: 40 })
    expect(parseFormValue(spec('model.temperature'), '')).toEqual({ error: 'Enter a number.' })
    expect(parseFormValue(spec('model.temperature'), 'warm')).toEqual({ error: 'Enter a number.' })
    expect(parseFormValue(spec('model.temperature'), '1e400')).toEqual({ error: 'Enter a number.' })
  })

  it('trims one-line text but keeps a prompt as typed', () => {
    expect(parseFormValue(spec('character.name'), '  Nova ')).toEqual({ value: 'Nova' })
    expect(parseFormValue(spec('character.system'), ' line 1\nline 2\n')).toEqual({ value: ' line 1\nline 2\n' })
    expect(parseFormValue(spec('autonomy.enabled'), true)).toEqual({ value: true })
  })
})

describe('buildPatch', () => {
  it('sends only what changed, nested as a merge patch', () => {
    const edits = {
      'character.name': 'Nova',
      'model.name': 'gpt-4o-mini',
      'terminal.maxDurationMs': '60',
      'autonomy.enabled': true,
      'ui.theme': 'dark',
    }
    const res = buildPatch(config, edits, NO_KEY_EDIT)
    expect(res.errors).toEqual({})
    expect(res.patch).toEqual({
      character: { name: 'Nova' },
      terminal: { maxDurationMs: 60000 },
      autonomy: { enabled: true },
      ui: { theme: 'dark' },
    })
    expect(res.changed).toEqual(['character.name', 'terminal.maxDurationMs', 'autonomy.enabled', 'ui.theme'])
  })

  it('is empty when nothing differs', () => {
    expect(buildPatch(config, { 'terminal.maxDurationMs': '300.0', 'character.name': 'Wisp ' }, NO_KEY_EDIT)).toEqual({
      patch: {},
      changed: [],
      errors: {},
    })
  })

  it('keeps invalid inputs out of the patch', () => {
    const res = buildPatch(config, { 'terminal.maxConcurrent': 'many', 'character.name': 'Nova' }, NO_KEY_EDIT)
    expect(res.errors).toEqual({ 'terminal.maxConcurrent': 'Enter a number.' })
    expect(res.patch).toEqual({ character: { name: 'Nova' } })
  })

  it('sends a new key, or null to remove it, and nothing for an empty field', () => {
    expect(buildPatch(config, {}, { value: 'sk-new', remove: false }).patch).toEqual({ model: { apiKey: 'sk-new' } })
    expect(buildPatch(config, { 'model.name': 'gpt-4o' }, { value: '', remove: true }).patch).toEqual({
      model: { name: 'gpt-4o', apiKey: null },
    })
    expect(buildPatch(config, {}, { value: '', remove: false }).changed).toEqual([])
  })
})

describe('pendingEdits', () => {
  it('drops edits the reloaded config now has', () => {
    const reloaded = { ...config, character: { ...config.character, name: 'Nova' } }
    expect(pendingEdits(reloaded, { 'character.name': 'Nova', 'character.bio': 'tall' })).toEqual({ 'character.bio': 'tall' })
  })
})

describe('errorPath', () => {
  it('finds the setting a refusal names', () => {
    expect(errorPath('terminal.maxConcurrent must be 1-16, got 40', FORM_PATHS)).toBe('terminal.maxConcurrent')
    expect(errorPath('server.host can only be changed in the config file', FORM_PATHS)).toBe('server.host')
    expect(errorPath('model.apiKey: too long', FORM_PATHS)).toBe('model.apiKey')
    expect(errorPath('fix the config file first: not valid JSON', FORM_PATHS)).toBeNull()
    expect(errorPath('model.names is unknown', FORM_PATHS)).toBeNull()
    expect(errorPath('xmodel.name is unknown', FORM_PATHS)).toBeNull()
  })
})

describe('fieldMeta', () => {
  it('reads apply, editable and the override', () => {
    const fields = [{ path: 'server.host', apply: 'restart' as const, secret: false, editable: false, label: 'Listen address' }]
    expect(fieldMeta(fields, { 'server.host': 'WISP_HOST' }, 'server.host')).toEqual({
      apply: 'restart',
      editable: false,
      override: 'WISP_HOST',
    })
    expect(fieldMeta(fields, {}, 'character.name')).toEqual({ apply: null, editable: true, override: null })
  })
})
