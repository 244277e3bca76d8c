// The avatar stage at the top of the side column. This part is in the main
// chunk: the playback machine (what plays now, data-emote, and its request
// number, data-emote-seq, which the canvas's data-clip-seq matches once its
// frames show it), the character chosen (GET /api/avatar: data-avatar-kind
// once shown, data-avatar-error when a VRM could not be), the caption and the
// no-WebGL fallback. The three.js view is AvatarCanvas, loaded lazily so
// three.js stays out of the first chunk (as TerminalDock does for xterm.js);
// it writes the face's data-mouth, data-expression and data-blinks here.

import './avatar.css'
import { Component, Suspense, lazy, useEffect, useMemo, useState, type ReactNode } from 'react'
import { BUILTIN_AVATAR_PATH, IDLE_EMOTE_ID, type ApiClient } from '../api'
import { hasWebGL2 } from '../avatar/webgl'
import { useApi, useWisp } from '../state/WispProvider'
import { emoteLabel } from '../state/emotePicker'
import { useEmoteCatalog } from '../state/useEmoteCatalog'
import { useAvatar } from '../state/useAvatar'
import { useEmotePlayback } from '../state/useEmotePlayback'
import { REDUCED_MOTION, useMediaQuery } from '../state/useMediaQuery'
import { AvatarFallback } from './AvatarFallback'
import type { CanvasOutcome } from './AvatarCanvas'

const AvatarCanvas = lazy(() => import('./AvatarCanvas'))

type StageKind = 'loading' | 'ready' | 'fallback' | 'error'

interface StageStatus {
  stage: StageKind
  message: string
}

export function AvatarPanel() {
  const { emotes } = useWisp()
  const api = useApi()
  const { catalog, error: catalogError, unauthorized, reload } = useEmoteCatalog()
  const idleGlb = catalog?.emotes.find((e) => e.id === IDLE_EMOTE_ID)?.glbPath ?? null
  const play = useEmotePlayback(emotes, idleGlb)
  const still = useMediaQuery(REDUCED_MOTION)
  const [webgl] = useState(hasWebGL2)
  const { avatar } = useAvatar()
  const avatarKey = avatar === null ? '' : `${avatar.kind} ${avatar.url}`
  // What the canvas reported, for the character it was asked to show (a new one starts over).
  const [reported, setReported] = useState<{ key: string; outcome: CanvasOutcome } | null>(null)
  const outcome = reported?.key === avatarKey ? reported.outcome : null
  // Without a catalog there is no avatar to load; a 401 waits for the token form.
  const status = stageStatus(webgl, outcome, catalog === null && !unauthorized ? catalogError : null)

  // An emote the catalog does not know yet (a pack added since): learn its name.
  const unknownEmote = catalog !== null && play.id !== IDLE_EMOTE_ID && !catalog.emotes.some((e) => e.id === play.id)
  useEffect(() => {
    if (unknownEmote) reload()
  }, [unknownEmote, reload])

  const clip = useMemo(
    () => ({ id: play.id, url: api?.assetURL(play.glbPath) ?? play.glbPath, loop: play.loop, seq: play.seq }),
    [play, api],
  )
  const caption = play.id === IDLE_EMOTE_ID ? '' : emoteLabel(play.id, catalog?.emotes ?? null)
  const showCanvas =
    webgl && api !== null && catalog !== null && avatar !== null && (outcome === null || outcome.stage === 'ready')
  const view = useMemo(
    () => (avatar === null || api === null ? null : { kind: avatar.kind, url: api.assetURL(avatar.url) }),
    [avatar, api],
  )
  const shown = outcome?.stage === 'ready' ? outcome : null

  return (
    <section
      className={`avatar-stage stage-${status.stage}${still ? ' still' : ''}`}
      aria-label="Avatar"
      data-testid="avatar-stage"
      data-stage={status.stage}
      data-emote={play.id}
      data-emote-seq={play.seq}
      data-avatar-kind={shown?.kind}
      data-avatar-error={shown?.error}
    >
      {showCanvas && view !== null ? (
        <CanvasBoundary onError={(message) => setReported({ key: avatarKey, outcome: { stage: 'error', message } })}>
          <Suspense fallback={null}>
            <AvatarCanvas
              avatar={view}
              builtinURL={api.assetURL(BUILTIN_AVATAR_PATH)}
              clip={clip}
              still={still}
              onOutcome={(o) => {
                setReported({ key: avatarKey, outcome: o })
                reportOutcome(api, o)
              }}
            />
          </Suspense>
        </CanvasBoundary>
      ) : null}
      {status.stage === 'fallback' || status.stage === 'error' ? <AvatarFallback message={status.message} /> : null}
      {status.stage === 'loading' ? <p className="avatar-loading">Loading the avatar…</p> : null}
      {shown?.error !== undefined ? (
        <p className="avatar-error" role="alert" title={shown.error}>
          {shown.error}
        </p>
      ) : null}
      <p className={`avatar-caption${caption === '' ? ' empty-caption' : ''}`} role="status" data-testid="avatar-caption">
        {caption}
      </p>
    </section>
  )
}

function stageStatus(webgl: boolean, outcome: CanvasOutcome | null, catalogError: string | null): StageStatus {
  if (!webgl) return { stage: 'fallback', message: 'this browser has WebGL turned off' }
  if (outcome !== null && outcome.stage !== 'ready') return outcome
  if (catalogError !== null) return { stage: 'error', message: `could not load the emotes: ${catalogError}` }
  return outcome === null ? { stage: 'loading', message: '' } : { stage: 'ready', message: '' }
}

/** A failed chunk load or a crash in the 3D view becomes the fallback, not a blank app. */
class CanvasBoundary extends Component<{ children: ReactNode; onError(message: string): void }, { failed: boolean }> {
  state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  componentDidCatch(err: unknown) {
    this.props.onError(`the 3D view could not be loaded: ${err instanceof Error ? err.message : String(err)}`)
  }

  render() {
    return this.state.failed ? null : this.props.children
  }
}

/** Tells Wisp's log which character the stage shows, or why it shows none (POST /api/ui/report). */
function reportOutcome(api: ApiClient, o: CanvasOutcome): void {
  const [event, detail] =
    o.stage === 'ready' ? ['avatar-loaded', o.error === undefined ? o.kind : `${o.kind}: ${o.error}`] : ['avatar-failed', o.message]
  api.uiReport(event, detail).catch(() => undefined)
}
