// Just enough of a browser document for react-dom to render the app in
// Vitest's node environment (the repo has no jsdom): nodes, elements with
// attributes, a style object and a dataset, text, events by listener, and
// the window globals the app reads (location, history, localStorage,
// navigator, animation frames). Nothing is laid out and no event is dispatched by the
// browser; tests drive the app through its API, socket and stores and read
// the tree back.

type Listener = (ev: unknown) => void

const HTML_NS = 'http://www.w3.org/1999/xhtml'

export class FakeNode {
  parentNode: FakeNode | null = null
  childNodes: FakeNode[] = []
  private listeners = new Map<string, Set<Listener>>()

  constructor(
    readonly nodeType: number,
    readonly nodeName: string,
    public ownerDocument: FakeDocument | null,
  ) {}

  get firstChild(): FakeNode | null {
    return this.childNodes[0] ?? null
  }
  get lastChild(): FakeNode | null {
    return this.childNodes[this.childNodes.length - 1] ?? null
  }
  get nextSibling(): FakeNode | null {
    const siblings = this.parentNode?.childNodes
    if (siblings === undefined) return null
    return siblings[siblings.indexOf(this) + 1] ?? null
  }
  get previousSibling(): FakeNode | null {
    const siblings = this.parentNode?.childNodes
    if (siblings === undefined) return null
    return siblings[siblings.indexOf(this) - 1] ?? null
  }
  get parentElement(): FakeElement | null {
    return this.parentNode instanceof FakeElement ? this.parentNode : null
  }

  appendChild<T extends FakeNode>(node: T): T {
    node.parentNode?.removeChild(node)
    this.childNodes.push(node)
    node.parentNode = this
    return node
  }
  insertBefore<T extends FakeNode>(node: T, ref: FakeNode | null): T {
    if (ref === null) return this.appendChild(node)
    node.parentNode?.removeChild(node)
    const i = this.childNodes.indexOf(ref)
    if (i < 0) throw new Error('insertBefore: not a child')
    this.childNodes.splice(i, 0, node)
    node.parentNode = this
    return node
  }
  removeChild<T extends FakeNode>(node: T): T {
    const i = this.childNodes.indexOf(node)
    if (i < 0) throw new Error('removeChild: not a child')
    this.childNodes.splice(i, 1)
    node.parentNode = null
    return node
  }
  contains(node: FakeNode | null): boolean {
    for (let n = node; n !== null; n = n.parentNode) if (n === this) return true
    return false
  }

  get textContent(): string {
    return this.childNodes.map((c) => c.textContent).join('')
  }
  set textContent(value: string) {
    for (const c of this.childNodes) c.parentNode = null
    this.childNodes = []
    if (value !== '' && value !== null && value !== undefined) this.appendChild(new FakeText(String(value), this.ownerDocument))
  }

  addEventListener(type: string, fn: Listener): void {
    let set = this.listeners.get(type)
    if (set === undefined) {
      set = new Set()
      this.listeners.set(type, set)
    }
    set.add(fn)
  }
  removeEventListener(type: string, fn: Listener): void {
    this.listeners.get(type)?.delete(fn)
  }
  dispatchEvent(ev: { type: string }): boolean {
    for (const fn of [...(this.listeners.get(ev.type) ?? [])]) fn(ev)
    return true
  }
}

export class FakeText extends FakeNode {
  constructor(
    public data: string,
    doc: FakeDocument | null,
  ) {
    super(3, '#text', doc)
  }
  get nodeValue(): string {
    return this.data
  }
  set nodeValue(v: string) {
    this.data = v
  }
  override get textContent(): string {
    return this.data
  }
  override set textContent(v: string) {
    this.data = v
  }
}

class FakeComment extends FakeText {}

class FakeStyle {
  [name: string]: unknown
  setProperty(name: string, value: string): void {
    this[name] = value
  }
  removeProperty(name: string): void {
    delete this[name]
  }
}

export class FakeElement extends FakeNode {
  readonly tagName: string
  readonly attributes = new Map<string, string>()
  readonly style = new FakeStyle()
  readonly dataset: Record<string, string> = {}
  scrollTop = 0
  scrollHeight = 0
  clientHeight = 0
  defaultValue = ''
  selected = false
  private ownValue: string | null = null

  constructor(
    tag: string,
    readonly namespaceURI: string,
    doc: FakeDocument | null,
  ) {
    super(1, namespaceURI === HTML_NS ? tag.toUpperCase() : tag, doc)
    this.tagName = this.nodeName
  }

  /** An option's value is its value attribute, or its text; an untouched textarea's, its default value. */
  get value(): string {
    if (this.ownValue !== null) return this.ownValue
    if (this.nodeName === 'TEXTAREA') return this.defaultValue
    return this.nodeName === 'OPTION' ? (this.getAttribute('value') ?? this.textContent) : ''
  }
  set value(v: string) {
    this.ownValue = String(v)
  }

  /** A select's options. */
  get options(): FakeElement[] {
    return this.findAll((el) => el.nodeName === 'OPTION')
  }

  setAttribute(name: string, value: unknown): void {
    this.attributes.set(name, String(value))
  }
  setAttributeNS(_ns: string | null, name: string, value: unknown): void {
    this.setAttribute(name, value)
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null
  }
  hasAttribute(name: string): boolean {
    return this.attributes.has(name)
  }
  removeAttribute(name: string): void {
    this.attributes.delete(name)
  }
  removeAttributeNS(_ns: string | null, name: string): void {
    this.removeAttribute(name)
  }
  // Focus never moves: document.activeElement stays the body.
  focus(): void {}
  blur(): void {}

  /** Every element below this one (depth first) for which match is true. */
  findAll(match: (el: FakeElement) => boolean): FakeElement[] {
    const out: FakeElement[] = []
    const walk = (n: FakeNode) => {
      for (const c of n.childNodes) {
        if (!(c instanceof FakeElement)) continue
        if (match(c)) out.push(c)
        walk(c)
      }
    }
    walk(this)
    return out
  }

  /** Elements with this data-testid. */
  byTestId(id: string): FakeElement[] {
    return this.findAll((el) => el.getAttribute('data-testid') === id)
  }
}

class FakeIFrame extends FakeElement {}

export class FakeDocument extends FakeNode {
  readonly documentElement: FakeElement
  readonly head: FakeElement
  readonly body: FakeElement
  defaultView: unknown = null
  /** Says the input event exists, as in every browser (React then reads changes from it). */
  oninput: unknown = null

  constructor() {
    super(9, '#document', null)
    this.ownerDocument = null
    this.documentElement = this.appendChild(this.createElement('html'))
    this.head = this.documentElement.appendChild(this.createElement('head'))
    this.body = this.documentElement.appendChild(this.createElement('body'))
  }
  get activeElement(): FakeElement {
    return this.body
  }
  /** A page in front, with the focus, as a test's page is unless it says otherwise. */
  hidden = false
  hasFocus(): boolean {
    return true
  }
  createElement(tag: string): FakeElement {
    return tag.toLowerCase() === 'iframe' ? new FakeIFrame(tag, HTML_NS, this) : new FakeElement(tag, HTML_NS, this)
  }
  createElementNS(ns: string, tag: string): FakeElement {
    return new FakeElement(tag, ns, this)
  }
  createTextNode(text: string): FakeText {
    return new FakeText(text, this)
  }
  createComment(text: string): FakeText {
    return new FakeComment(text, this)
  }
}

class FakeStorage {
  private items = new Map<string, string>()
  getItem(key: string): string | null {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value))
  }
  removeItem(key: string): void {
    this.items.delete(key)
  }
  clear(): void {
    this.items.clear()
  }
}

/** The page's address; history.replaceState and hash assignments change it. */
class FakeLocation {
  private url: URL
  constructor(href: string) {
    this.url = new URL(href)
  }
  get href(): string {
    return this.url.href
  }
  set href(v: string) {
    this.url = new URL(v, this.url)
  }
  get origin(): string {
    return this.url.origin
  }
  get protocol(): string {
    return this.url.protocol
  }
  get host(): string {
    return this.url.host
  }
  get hostname(): string {
    return this.url.hostname
  }
  get pathname(): string {
    return this.url.pathname
  }
  get search(): string {
    return this.url.search
  }
  get hash(): string {
    return this.url.hash
  }
  set hash(v: string) {
    this.url.hash = v
  }
}

export interface FakeBrowser {
  document: FakeDocument
  /** A container in the body to render into. */
  container: FakeElement
  location: FakeLocation
  storage: FakeStorage
  /** Puts the real globals back. */
  uninstall(): void
}

const GLOBALS = [
  'window',
  'document',
  'location',
  'history',
  'localStorage',
  'navigator',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'HTMLIFrameElement',
  'HTMLElement',
  'IS_REACT_ACT_ENVIRONMENT',
] as const

/**
 * Installs the fake document and window as globals; import react-dom only
 * after this (it checks for a DOM when it loads). requestAnimationFrame runs
 * its callback on the next macrotask; the frames that draw streaming replies
 * come from the scheduler a test gives WispProvider instead.
 */
export function installFakeBrowser(href = 'http://wisp.test/'): FakeBrowser {
  const g = globalThis as Record<string, unknown>
  const saved = new Map(GLOBALS.map((k) => [k, Object.getOwnPropertyDescriptor(g, k)]))
  const document = new FakeDocument()
  const location = new FakeLocation(href)
  const storage = new FakeStorage()
  const windowListeners = new FakeNode(11, '#window', null)
  const history = {
    state: null as unknown,
    replaceState(state: unknown, _title: string, url?: string) {
      this.state = state
      if (url !== undefined) location.href = url
    },
    pushState(state: unknown, title: string, url?: string) {
      this.replaceState(state, title, url)
    },
  }
  let frameIds = 0
  const frames = new Map<number, ReturnType<typeof setTimeout>>()
  const win = {
    document,
    location,
    history,
    localStorage: storage,
    navigator: { platform: 'Linux x86_64', userAgent: 'fake' },
    HTMLIFrameElement: FakeIFrame,
    event: undefined,
    addEventListener: (type: string, fn: Listener) => windowListeners.addEventListener(type, fn),
    removeEventListener: (type: string, fn: Listener) => windowListeners.removeEventListener(type, fn),
    dispatchEvent: (ev: { type: string }) => windowListeners.dispatchEvent(ev),
    requestAnimationFrame: (fn: (t: number) => void) => {
      const id = ++frameIds
      frames.set(
        id,
        setTimeout(() => {
          frames.delete(id)
          fn(performance.now())
        }, 0),
      )
      return id
    },
    cancelAnimationFrame: (id: number) => {
      clearTimeout(frames.get(id))
      frames.delete(id)
    },
  }
  document.defaultView = win
  const set = (key: (typeof GLOBALS)[number], value: unknown) =>
    Object.defineProperty(g, key, { value, configurable: true, writable: true })
  set('window', win)
  set('document', document)
  set('location', location)
  set('history', history)
  set('localStorage', storage)
  set('navigator', win.navigator)
  set('requestAnimationFrame', win.requestAnimationFrame)
  set('cancelAnimationFrame', win.cancelAnimationFrame)
  set('HTMLIFrameElement', FakeIFrame)
  set('HTMLElement', FakeElement)
  set('IS_REACT_ACT_ENVIRONMENT', true)
  const container = document.body.appendChild(document.createElement('div'))
  return {
    document,
    container,
    location,
    storage,
    uninstall() {
      for (const [key, descriptor] of saved) {
        if (descriptor === undefined) delete g[key]
        else Object.defineProperty(g, key, descriptor)
      }
    },
  }
}
