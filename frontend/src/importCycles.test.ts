// No module of the UI imports itself through others, type-only imports included:
// a cycle makes the load order matter and hides which module owns a type.

import { describe, expect, it } from 'vitest'

const sources = import.meta.glob<string>('./**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true })

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g

/** The module a relative specifier in from names, if it is one of ours. */
function resolve(from: string, spec: string): string | null {
  const parts = from.split('/').slice(0, -1)
  for (const p of spec.split('/')) {
    if (p === '..') parts.pop()
    else if (p !== '.') parts.push(p)
  }
  const base = parts.join('/')
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (candidate in sources) return candidate
  }
  return null
}

function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>()
  for (const [file, text] of Object.entries(sources)) {
    const deps: string[] = []
    for (const m of text.matchAll(IMPORT)) {
      const dep = resolve(file, m[1] ?? '')
      if (dep !== null && dep !== file) deps.push(dep)
    }
    edges.set(file, deps)
  }
  return edges
}

/** The first cycle found, as a path that ends where it starts; null when there is none. */
function findCycle(edges: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (node: string): string[] | null => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next]
      if (state.get(next) === undefined) {
        const found = visit(next)
        if (found !== null) return found
      }
    }
    stack.pop()
    state.set(node, 'done')
    return null
  }
  for (const node of edges.keys()) {
    if (state.get(node) === undefined) {
      const found = visit(node)
      if (found !== null) return found
    }
  }
  return null
}

describe('imports', () => {
  it('reads the modules it checks', () => {
    const edges = graph()
    expect(edges.size).toBeGreaterThan(50)
    expect(edges.get('./api/index.ts')).toContain('./api/types.ts')
  })

  it('have no cycle', () => {
    const cycle = findCycle(graph())
    expect(cycle === null ? null : cycle.join(' → ')).toBeNull()
  })

  it('finds a cycle when there is one', () => {
    const edges = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ])
    expect(findCycle(edges)).toEqual(['a', 'b', 'c', 'a'])
  })
})
