// Settings › Conversations: export all of them, import a file.

import { useWisp } from '../state/WispProvider'
import { ExportActions } from './ExportActions'
import { ImportForm } from './ImportForm'

export function DataSettings() {
  const { exportConversations, importConversations } = useWisp()
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
        onExport={(format) => exportConversations(null, format)}
      />
      <ImportForm onImport={importConversations} />
    </section>
  )
}
