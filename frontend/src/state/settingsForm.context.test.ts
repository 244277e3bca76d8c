// The model section's context settings (issue 30): shown from the config,
// patched as whole numbers, a refusal naming them lands under the field.

import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG, decodeConfigSnapshot } from '../api'
import { NO_KEY_EDIT, SECTIONS, buildPatch, errorPath, FORM_PATHS, formValues } from './settingsForm'

describe('the context settings', () => {
  it('are fields of the model section', () => {
    const model = SECTIONS.find((s) => s.id === 'model')
    expect(model?.fields.map((f) => f.path)).toEqual(expect.arrayContaining(['model.contextWindow', 'model.summarizeAt']))
  })

  it('show the defaults (0: ask the model server; 80 %) and the file’s values', () => {
    expect(formValues(DEFAULT_CONFIG)).toMatchObject({ 'model.contextWindow': '0', 'model.summarizeAt': '80' })
    const snap = decodeConfigSnapshot({
      path: '/w/wisp.json',
      config: { model: { contextWindow: 8192, summarizeAt: 70 } },
      secrets: {},
      fields: [],
      overrides: {},
      pendingRestart: false,
      pendingRestartReasons: [],
    })
    expect(snap?.config.model).toMatchObject({ contextWindow: 8192, summarizeAt: 70 })
  })

  it('are patched as whole numbers, only when changed', () => {
    const edits = { 'model.contextWindow': '6000', 'model.summarizeAt': '80' }
    expect(buildPatch(DEFAULT_CONFIG, edits, NO_KEY_EDIT)).toEqual({ patch: { model: { contextWindow: 6000 } }, changed: ['model.contextWindow'], errors: {} })
    expect(buildPatch(DEFAULT_CONFIG, { 'model.summarizeAt': '75.5' }, NO_KEY_EDIT).errors).toEqual({ 'model.summarizeAt': 'Enter a whole number.' })
  })

  it("take the server's refusal under their field", () => {
    expect(errorPath('model.summarizeAt must be 50-95, got 99', FORM_PATHS)).toBe('model.summarizeAt')
  })
})
