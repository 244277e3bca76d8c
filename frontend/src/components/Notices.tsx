import './Notices.css'
import { useAppState } from '../state/WispProvider'
import { RestartBanner } from './RestartBanner'

/**
 * Things the user should know right now: a restart that would apply saved
 * settings, a config file that does not parse, errors. (Why the agent cannot
 * respond is shown by the provider form in the chat column.)
 */
export function Notices() {
  const configError = useAppState((s) => s.status?.configError)
  const error = useAppState((s) => s.error)
  return (
    <div className="notices" aria-live="polite">
      <RestartBanner />
      {configError ? (
        <div className="notice notice-error" role="alert" data-testid="config-error">
          <strong>The config file has an error.</strong> Wisp keeps running with the last good settings; fix the file
          and save it to apply it.
          <code className="notice-detail">{configError}</code>
        </div>
      ) : null}
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
