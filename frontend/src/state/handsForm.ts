// Settings → Files and web's form, outside React: the folders the agent's
// file actions may work in (files.roots: none by default, so no file
// access), the hosts on the user's network FETCH_URL may reach
// (web.allowHosts), and the web search backend (web.search: provider,
// server, key). The inputs' values from the config, adding a folder or host
// (checked as the server will: an absolute folder, a bare host name or IP),
// and the merge patch of what changed; the search key is write-only like
// every secret ('' keeps the saved one, remove clears it). Pure.

import type { MergePatch, SearchProvider, WispConfig } from '../api'

export const SEARCH_KEY_PATH = 'web.search.apiKey'

export const SEARCH_OPTIONS: { value: SearchProvider; label: string }[] = [
  { value: '', label: 'Off' },
  { value: 'searxng', label: 'SearXNG (your own server)' },
  { value: 'brave', label: 'Brave Search (API key)' },
]

export interface HandsForm {
  roots: string[]
  allowHosts: string[]
  provider: SearchProvider
  baseURL: string
}

export interface SecretEdit {
  value: string
  remove: boolean
}

export const KEEP_SECRET: SecretEdit = { value: '', remove: false }

export function handsForm(c: Pick<WispConfig, 'files' | 'web'>): HandsForm {
  return {
    roots: [...c.files.roots],
    allowHosts: [...c.web.allowHosts],
    provider: c.web.search.provider,
    baseURL: c.web.search.baseURL,
  }
}

/** A folder as files.roots takes it (trailing slashes dropped), or why not. */
export function checkRoot(text: string, roots: readonly string[]): { ok: true; root: string } | { ok: false; error: string } {
  let root = text.trim()
  while (root.length > 1 && (root.endsWith('/') || root.endsWith('\\'))) root = root.slice(0, -1)
  if (root === '') return { ok: false, error: 'Enter a folder.' }
  if (root.startsWith('~')) return { ok: false, error: 'Write the folder in full, e.g. /home/you/project (not ~).' }
  if (!root.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(root)) return { ok: false, error: 'Enter an absolute path, e.g. /home/you/project.' }
  if (root === '/') return { ok: false, error: '/ is the whole computer: choose a folder.' }
  if (root.split(/[\\/]/).includes('..')) return { ok: false, error: 'Write the folder without "..".' }
  if (roots.includes(root)) return { ok: false, error: 'That folder is in the list already.' }
  return { ok: true, root }
}

const HOST = /^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?$/
const IPV6 = /^[0-9A-Fa-f:.]+$/

/** A host as web.allowHosts takes it (a name or an IP address, lower case), or why not. */
export function checkHost(text: string, hosts: readonly string[]): { ok: true; host: string } | { ok: false; error: string } {
  let host = text.trim().toLowerCase()
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1)
  if (host === '') return { ok: false, error: 'Enter a host name or an IP address.' }
  if (host.includes('://') || host.includes('/')) return { ok: false, error: 'Enter the host only, without http:// or a path (e.g. nas.local).' }
  const ok = (host.includes(':') ? IPV6.test(host) : HOST.test(host) && !host.includes('..')) && host.length <= 253
  if (!ok) return { ok: false, error: 'Enter a host name (nas.local) or an IP address (192.168.1.20).' }
  if (hosts.includes(host)) return { ok: false, error: 'That host is in the list already.' }
  return { ok: true, host }
}

export interface HandsPatch {
  patch: MergePatch
  /** Paths changed ("files.roots"). */
  changed: string[]
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/** The patch {files?, web?} of the edits that differ from c (lists are replaced whole). */
export function handsPatch(c: Pick<WispConfig, 'files' | 'web'>, f: HandsForm, key: SecretEdit): HandsPatch {
  const changed: string[] = []
  const patch: MergePatch = {}
  if (!sameList(f.roots, c.files.roots)) {
    patch.files = { roots: [...f.roots] }
    changed.push('files.roots')
  }
  const web: MergePatch = {}
  const search: MergePatch = {}
  if (!sameList(f.allowHosts, c.web.allowHosts)) {
    web.allowHosts = [...f.allowHosts]
    changed.push('web.allowHosts')
  }
  if (f.provider !== c.web.search.provider) {
    search.provider = f.provider
    changed.push('web.search.provider')
  }
  if (f.baseURL.trim() !== c.web.search.baseURL) {
    search.baseURL = f.baseURL.trim()
    changed.push('web.search.baseURL')
  }
  if (key.remove) {
    search.apiKey = null
    changed.push(SEARCH_KEY_PATH)
  } else if (key.value.trim() !== '') {
    search.apiKey = key.value.trim()
    changed.push(SEARCH_KEY_PATH)
  }
  if (Object.keys(search).length > 0) web.search = search
  if (Object.keys(web).length > 0) patch.web = web
  return { patch, changed }
}
