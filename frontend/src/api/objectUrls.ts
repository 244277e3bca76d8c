// Object URLs of fetched bytes, by key (an attachment's id): each is fetched
// once while it is shown or was shown lately; a URL nobody holds is kept
// among the last `idle` ones (scrolling back up a long conversation fetches
// nothing again), then revoked. A failed fetch is forgotten (the next
// acquire tries again).

/** A held object URL: release it when it is no longer shown. */
export interface ObjectUrl {
  url: string
  release(): void
}

interface Entry {
  url: Promise<string>
  holders: number
  /** The URL once made (to revoke it). */
  made: string | null
}

export interface UrlMaker {
  create(blob: Blob): string
  revoke(url: string): void
}

const browserUrls: UrlMaker = {
  create: (blob) => URL.createObjectURL(blob),
  revoke: (url) => URL.revokeObjectURL(url),
}

export const IDLE_OBJECT_URLS = 48

export class ObjectUrlCache {
  private readonly entries = new Map<string, Entry>()
  /** Keys nobody holds, oldest released first. */
  private readonly idleKeys = new Set<string>()

  constructor(
    private readonly load: (key: string) => Promise<Blob>,
    private readonly idle = IDLE_OBJECT_URLS,
    private readonly urls: UrlMaker = browserUrls,
  ) {}

  async acquire(key: string): Promise<ObjectUrl> {
    let entry = this.entries.get(key)
    if (entry === undefined) {
      const made: Entry = { url: Promise.resolve(''), holders: 0, made: null }
      made.url = this.load(key).then((blob) => {
        const url = this.urls.create(blob)
        made.made = url
        // Dropped while it loaded (failed elsewhere or evicted): do not leak it.
        if (this.entries.get(key) !== made) this.urls.revoke(url)
        return url
      })
      made.url.catch(() => {
        if (this.entries.get(key) === made) {
          this.entries.delete(key)
          this.idleKeys.delete(key)
        }
      })
      entry = made
      this.entries.set(key, entry)
    }
    entry.holders++
    this.idleKeys.delete(key)
    const held = entry
    let url: string
    try {
      url = await held.url
    } catch (err) {
      held.holders--
      throw err
    }
    let released = false
    return {
      url,
      release: () => {
        if (released) return
        released = true
        this.release(key, held)
      },
    }
  }

  /** How many URLs are made and not revoked (for tests). */
  get size(): number {
    return this.entries.size
  }

  private release(key: string, entry: Entry): void {
    entry.holders--
    if (entry.holders > 0 || this.entries.get(key) !== entry) return
    this.idleKeys.add(key)
    while (this.idleKeys.size > this.idle) {
      const oldest = this.idleKeys.values().next().value as string
      this.idleKeys.delete(oldest)
      const gone = this.entries.get(oldest)
      this.entries.delete(oldest)
      if (gone?.made != null) this.urls.revoke(gone.made)
    }
  }
}
