// Settings › Conversations: export all of them, import a file.

import { useWisp } from '../state/WispProvider'
import { exportConversations, pageSink } from '../state/archive'
import { ExportActions } from './ExportActions'
import { ImportForm } from './ImportForm'

const notConnected = () => Promise.reject(new Error('not connected to the Wisp server yet'))

export function DataSettings() {
  const { api } = useWisp()
  return (
    <section className="settings-section" aria-labelledby="settings-data-title" data-testid="settings-section-data">
      <h3 id="settings-data-title">Conversations</h3>
      <p className="hint">
        Export every conversation as JSON (all of it, to import into a Wisp) or as Markdown (to read). Import a Wisp
        export or ChatGPT’s conversations.json: a conversation that is already here is left as it is.
      </p>
      <ExportActions
        what="all conversations"
        testId="export-all"
        onExport={(format) => (api === null ? notConnected() : exportConversations(api, null, format, pageSink()))}
      />
      <ImportForm onImport={(file) => (api === null ? notConnected() : api.importConversations(file))} />
    </section>
  )
}
