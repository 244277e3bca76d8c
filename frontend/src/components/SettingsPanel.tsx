// The settings view (header's Settings button; Esc closes): the config
// file's settings by section, what needs a restart or is overridden by the
// environment, the file's own error, and saving only what changed; then the
// memory (MemorySettings), the tasks on a schedule (TasksSettings), the MCP
// servers (Tools) and the grants, which save on their own, and the
// conversations' export and import (DataSettings). The restart
// banner stays visible above it (Notices). State: state/useSettings.ts.

import './settings.css'
import { useEffect, useRef, type FormEvent } from 'react'
import { useAppState } from '../state/WispProvider'
import { useSettings, type Settings } from '../state/useSettings'
import { DataSettings } from './DataSettings'
import { useRestoreFocus } from './dialogFocus'
import { McpServers } from './McpServers'
import { MemorySettings } from './MemorySettings'
import { SecretStoreNote } from './SecretStoreNote'
import { SettingsSections } from './SettingsSections'
import { UsageSettings } from './UsageSettings'
import { ShellGrants } from './ShellGrants'
import { TasksSettings } from './TasksSettings'

interface Props {
  onClose(): void
}

export function SettingsPanel({ onClose }: Props) {
  const liveError = useAppState((s) => s.status?.configError ?? '')
  const settings = useSettings()
  const { snap, loadError } = settings
  const panel = useRef<HTMLFormElement>(null)
  useRestoreFocus()
  useEscape(onClose)
  useEffect(() => panel.current?.focus(), [])
  useFocusProblem(settings.problem)

  // The status knows first (config-error frame); the snapshot follows on its reload.
  const fileError = liveError || (snap?.configError ?? '')
  const blocked = snap !== null && fileError !== ''
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    void settings.save()
  }

  return (
    <div className="settings-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <form
        ref={panel}
        className="settings"
        role="dialog"
        aria-modal="true"
        aria-labelledby="settings-title"
        aria-busy={snap === null || settings.saving}
        data-testid="settings"
        tabIndex={-1}
        noValidate
        onSubmit={onSubmit}
      >
        <div className="settings-head">
          <h2 id="settings-title">Settings</h2>
          <button type="button" className="icon-button settings-close" aria-label="Close settings" data-testid="settings-close" onClick={onClose}>
            ×
          </button>
        </div>
        <div className="settings-body">
          {snap !== null ? (
            <p className="settings-path muted">
              Saved in <code data-testid="settings-path">{snap.path}</code>
            </p>
          ) : null}
          {blocked ? (
            <div className="notice notice-error" role="alert" data-testid="settings-config-error">
              <strong>Saving is blocked until the config file is fixed.</strong> Wisp keeps running with the last good
              settings; fix the file in an editor and this view reloads.
              <code className="notice-detail">{fileError}</code>
            </div>
          ) : null}
          {loadError !== null ? (
            <p className="notice notice-error" role="alert">
              {loadError}{' '}
              <button type="button" className="link-button" onClick={settings.reload}>
                Try again
              </button>
            </p>
          ) : null}
          {snap === null ? (
            loadError === null ? <p className="empty">Loading the settings…</p> : null
          ) : (
            <>
              <SecretStoreNote store={snap.secretStore} path={snap.path} />
              <OverridesNote overrides={snap.overrides} />
              <fieldset className="settings-fields" disabled={blocked}>
                <SettingsSections settings={settings} snap={snap} disabled={blocked || settings.saving} />
              </fieldset>
              <MemorySettings />
              <TasksSettings onOpened={onClose} />
              <McpServers blocked={blocked} />
              <ShellGrants />
            </>
          )}
          <DataSettings />
          <UsageSettings />
        </div>
        <SettingsFooter settings={settings} blocked={blocked} onClose={onClose} />
      </form>
    </div>
  )
}

function OverridesNote({ overrides }: { overrides: Record<string, string> }) {
  const names = [...new Set(Object.values(overrides))]
  if (names.length === 0) return null
  return (
    <p className="notice notice-info" data-testid="settings-overrides">
      Set by the environment or command line for this run: <code>{names.join(', ')}</code>. Saving changes the file; the
      running Wisp keeps those values.
    </p>
  )
}

function SettingsFooter({ settings, blocked, onClose }: { settings: Settings; blocked: boolean; onClose(): void }) {
  const { saving, saved, error, edited, snap } = settings
  let status = null
  if (error !== null) {
    status = (
      <span className="settings-status tone-error" role="alert" data-testid="settings-error">
        {error}
      </span>
    )
  } else if (saving) {
    status = <span className="settings-status">Saving…</span>
  } else if (edited) {
    status = <span className="settings-status">Unsaved changes</span>
  } else if (saved !== null) {
    status = (
      <span className="settings-status tone-ok" role="status" data-testid="settings-saved">
        Saved.{saved.restartPaths.length > 0 ? ' Some changes apply after a restart.' : ' Changes are live.'}
      </span>
    )
  }
  return (
    <div className="settings-foot">
      {status}
      <div className="form-actions">
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
        <button type="submit" data-testid="settings-save" disabled={snap === null || blocked || saving || !edited}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </div>
  )
}

/** After a refused save, takes the user to the setting with the problem. */
function useFocusProblem(problem: { path: string } | null): void {
  useEffect(() => {
    if (problem !== null) document.getElementById(`setting-${problem.path}`)?.focus()
  }, [problem])
}

/** Esc anywhere closes the view (the emote picker keeps its own Esc). */
function useEscape(onClose: () => void): void {
  const close = useRef(onClose)
  close.current = onClose
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) close.current()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
}
