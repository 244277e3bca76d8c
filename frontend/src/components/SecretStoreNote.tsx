// Where the settings' secrets (the model's API key, the API and terminal tokens) are
// kept in this run, from GET /api/config's secretStore: the desktop's keyring, or the
// config file (mode 0600) when no keyring answered, said plainly with the keyring's
// answer. Secrets the file says the keyring keeps but this run could not read are
// named, so a key that seems gone is explained.

import type { SecretStore } from '../api'

const NAMES: Record<string, string> = {
  'model.apiKey': 'the model API key',
  'api.token': 'the API token',
  'api.terminalToken': 'the terminal token',
}

interface Props {
  store: SecretStore | null
  /** The config file's path. */
  path: string
}

export function SecretStoreNote({ store, path }: Props) {
  if (store === null) return null
  const file = path.slice(path.lastIndexOf('/') + 1) || path
  const unread =
    store.unread.length > 0 ? (
      <>
        {' '}
        {file} says the keyring keeps {store.unread.map((p) => NAMES[p] ?? p).join(', ')}, which this run could not read
        from it.
      </>
    ) : null
  if (store.where === 'keyring') {
    return (
      <p className={`notice ${unread === null ? 'notice-info' : 'notice-warn'}`} data-testid="settings-secret-store" data-where="keyring">
        API keys and tokens are kept in the desktop&apos;s keyring (as <code>{store.service}</code>), not in {file}.
        {unread}
      </p>
    )
  }
  return (
    <p className="notice notice-warn" data-testid="settings-secret-store" data-where="file">
      Secrets are kept in {file} (mode 0600): no keyring answered
      {store.reason === '' ? '' : ` (${store.reason})`}.{unread}
    </p>
  )
}
