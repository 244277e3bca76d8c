import { useWisp } from '../state/WispProvider'

/** Things the user should know right now: cannot respond, restart pending, errors. */
export function Notices() {
  const { status, error } = useWisp().state
  return (
    <div className="notices" aria-live="polite">
      {status && !status.canRespond ? (
        <p className="notice notice-warn" data-testid="cannot-respond">
          <strong>The agent cannot respond.</strong>{' '}
          {status.canRespondReason || 'The server did not say why.'}
        </p>
      ) : null}
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
