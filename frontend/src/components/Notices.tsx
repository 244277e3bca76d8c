import { useWisp } from '../state/WispProvider'

/**
 * Things the user should know right now: restart pending, errors. (Why the
 * agent cannot respond is shown by the provider form in the chat column.)
 */
export function Notices() {
  const { status, error } = useWisp().state
  return (
    <div className="notices" aria-live="polite">
      {status?.pendingRestart ? (
        <p className="notice notice-info">
          <strong>Restart pending.</strong> {status.pendingRestartReasons.join('; ')}
        </p>
      ) : null}
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
