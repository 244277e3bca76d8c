import './TokenForm.css'
import { useState, type FormEvent } from 'react'
import { useAppState, useWisp } from '../state/WispProvider'

/** Asks for the API token when the server answers 401 (browser mode). */
export function TokenForm() {
  const { submitToken } = useWisp()
  const tokenPrompt = useAppState((s) => s.tokenPrompt)
  const [value, setValue] = useState('')
  if (tokenPrompt === 'hidden') return null

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (value.trim() !== '') submitToken(value)
  }

  return (
    <div className="token-backdrop">
      <form className="token-form" data-testid="token-form" onSubmit={onSubmit}>
        <h2>API token required</h2>
        <p>
          This Wisp server is protected by a token. Open the address <code>wisp serve</code> printed
          (it carries the token), or enter the token: <code>WISP_API_TOKEN</code> if you set one, else
          the one in the <code>api-token</code> file of Wisp's state folder. It is kept in this
          browser's local storage.
        </p>
        {tokenPrompt === 'rejected' ? (
          <p className="notice notice-error" role="alert">
            The server refused that token.
          </p>
        ) : null}
        <label>
          Token
          <input
            data-testid="token-input"
            type="password"
            autoComplete="off"
            autoFocus
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        <button type="submit" data-testid="token-submit" disabled={value.trim() === ''}>
          Connect
        </button>
      </form>
    </div>
  )
}
