// "Undo this edit" under an applied EDIT_FILE or WRITE_FILE in the chat
// (docs/files.md): the edit the call made is asked of the server
// (GET /api/edits?callId=), so a reloaded conversation shows it the same; the
// button puts the file back (POST /api/edits/{id}/undo) and says how it went:
// undone, or why not (the file changed since, it was undone already) in the
// server's words. A real button: clicking it does not fold the tool card.

import { useContext, useEffect, useState, type MouseEvent } from 'react'
import type { FileEdit } from '../api/restEdits'
import { WispContext } from '../state/wispContext'
import { useStore } from '../state/store'
import type { WispPage } from '../state/wispPage'

/** What the undo needs of the API client (ApiClient.edits). */
export interface EditsApi {
  ofCall(callId: string, signal?: AbortSignal): Promise<FileEdit[]>
  undo(id: string): Promise<FileEdit>
}

type State =
  | { at: 'loading' }
  | { at: 'none' }
  | { at: 'ready'; edit: FileEdit }
  | { at: 'undoing'; edit: FileEdit }
  | { at: 'refused'; edit: FileEdit; why: string }

/** The tools whose calls change files. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['EDIT_FILE', 'WRITE_FILE'])

/** The undo of a call's edit, with the page's API client (nothing outside a page). */
export function CallEditUndo({ callId }: { callId: string }) {
  const page = useContext(WispContext)
  if (page === null) return null
  return <PageEditUndo page={page} callId={callId} />
}

function PageEditUndo({ page, callId }: { page: WispPage; callId: string }) {
  const api = useStore(page.api)
  if (api === null) return null
  return <EditUndo client={api.edits} callId={callId} />
}

export function EditUndo({ client, callId }: { client: EditsApi; callId: string }) {
  const [state, setState] = useState<State>({ at: 'loading' })
  useEffect(() => {
    const ctl = new AbortController()
    client.ofCall(callId, ctl.signal).then(
      (edits) => {
        const edit = edits[0]
        setState(edit === undefined ? { at: 'none' } : { at: 'ready', edit })
      },
      () => {
        if (!ctl.signal.aborted) setState({ at: 'none' })
      },
    )
    return () => ctl.abort()
  }, [client, callId])
  if (state.at === 'loading' || state.at === 'none') return null
  const { edit } = state
  const undo = (e: MouseEvent) => {
    e.preventDefault()
    setState({ at: 'undoing', edit })
    client.undo(edit.id).then(
      (done) => setState({ at: 'ready', edit: done }),
      (err: unknown) => setState({ at: 'refused', edit, why: err instanceof Error ? err.message : String(err) }),
    )
  }
  if (edit.undoneAt !== null) {
    return (
      <span className="edit-undo muted" role="status" data-testid="edit-undo" data-state="undone">
        {edit.created ? 'Undone: the file was removed' : 'Undone: the file is as it was'}
      </span>
    )
  }
  if (!edit.undoable) {
    return (
      <span className="edit-undo muted" data-testid="edit-undo" data-state="no-undo">
        No undo: the file was too large to keep
      </span>
    )
  }
  return (
    <span className="edit-undo" data-testid="edit-undo" data-state={state.at}>
      <button type="button" className="link-button" data-testid="undo-edit" disabled={state.at === 'undoing'} onClick={undo}>
        Undo this edit
      </button>
      {state.at === 'refused' ? (
        <span className="edit-undo-error" role="alert" data-testid="undo-error">
          Not undone: {state.why}
        </span>
      ) : null}
    </span>
  )
}
