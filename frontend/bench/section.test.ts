import { describe, expect, it } from 'vitest'
import { replaceSection } from './section'

describe('replaceSection', () => {
  it('replaces what is between the markers and keeps the rest', () => {
    const doc = 'a\n<!-- bench:ui:begin -->\nold\n<!-- bench:ui:end -->\nb\n'
    expect(replaceSection(doc, 'ui', 'INTRO\n', 'new')).toBe('a\n<!-- bench:ui:begin -->\nnew\n<!-- bench:ui:end -->\nb\n')
  })
  it('appends the intro and the section when there are no markers', () => {
    expect(replaceSection('# B\n\n', 'ui', 'INTRO\n', 'x')).toBe('# B\n\nINTRO\n<!-- bench:ui:begin -->\nx\n<!-- bench:ui:end -->\n')
  })
  it('refuses unbalanced markers', () => {
    expect(() => replaceSection('<!-- bench:ui:end --> <!-- bench:ui:begin -->', 'ui', '', 'x')).toThrow(/unbalanced/)
    expect(() => replaceSection('<!-- bench:ui:begin -->', 'ui', '', 'x')).toThrow(/unbalanced/)
  })
})
