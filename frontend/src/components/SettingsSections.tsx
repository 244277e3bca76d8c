// The sections of the settings view: the generic fields of settingsForm.ts,
// plus the write-only API key, the shell access switch with how far the
// agent's commands are confined, the folders and hosts the agent's file and
// web actions may reach (HandsSettings), and how the autonomy loop runs now.

import type { ReactNode } from 'react'
import type { ConfigSnapshot } from '../api'
import { PROVIDERS } from './ProviderSetup'
import {
  API_KEY_PATH,
  SECTIONS,
  SHELL_PATH,
  fieldMeta,
  type SectionSpec,
} from '../state/settingsForm'
import type { Settings } from '../state/useSettings'
import { useAppState } from '../state/WispProvider'
import { AutonomyStatus } from './AutonomyStatus'
import { AvatarSettings } from './AvatarSettings'
import { ConfinementStatus } from './ConfinementStatus'
import { NotificationPermission } from './NotificationPermission'
import { FieldNotes, SettingField, SettingTags } from './SettingField'
import { HandsSettings } from './HandsSettings'
import { VoiceSettings } from './VoiceSettings'

interface Props {
  settings: Settings
  snap: ConfigSnapshot
  /** Saving is blocked (the file on disk has an error) or in progress. */
  disabled: boolean
}

export function SettingsSections({ settings, snap, disabled }: Props) {
  const byId = (id: string) => SECTIONS.find((s) => s.id === id)
  const section = (id: string, extra?: ReactNode) => {
    const spec = byId(id)
    return spec === undefined ? null : (
      <Section key={id} spec={spec} settings={settings} snap={snap} disabled={disabled} extra={extra} />
    )
  }
  return (
    <>
      {section('model', <ApiKeyField settings={settings} snap={snap} disabled={disabled} />)}
      {section('character')}
      <AvatarSettings />
      <ShellSection settings={settings} snap={snap} disabled={disabled} />
      <HandsSettings snap={snap} disabled={disabled} reload={settings.reload} />
      {section('terminal')}
      {section('autonomy', <AutonomyStatus snap={snap} />)}
      {section('memory')}
      {section('appearance')}
      <VoiceSettings snap={snap} disabled={disabled} reload={settings.reload} />
      {section('notifications', <NotificationPermission />)}
      {section('login')}
      {section('server')}
    </>
  )
}

function Section({
  spec,
  settings,
  snap,
  disabled,
  extra,
}: Props & { spec: SectionSpec; extra?: ReactNode }) {
  const provider = settings.values['model.provider']
  const preset = PROVIDERS.find((p) => p.kind === provider)
  return (
    <section className="settings-section" aria-labelledby={`settings-${spec.id}`} data-testid={`settings-section-${spec.id}`}>
      <h3 id={`settings-${spec.id}`}>{spec.title}</h3>
      <div className="settings-grid">
        {spec.fields.map((field) => (
          <SettingField
            key={field.path}
            spec={field}
            meta={fieldMeta(snap.fields, snap.overrides, field.path)}
            value={settings.values[field.path]}
            error={settings.fieldErrors[field.path]}
            disabled={disabled}
            onChange={(v) => settings.setValue(field.path, v)}
            hint={field.path === 'model.baseURL' && preset !== undefined ? `Leave empty for ${preset.baseURL}` : undefined}
          />
        ))}
        {extra}
      </div>
    </section>
  )
}

type PartProps = Omit<Props, 'spec'>

function ApiKeyField({ settings, snap, disabled }: PartProps) {
  const id = 'setting-model.apiKey'
  const { key } = settings
  const saved = snap.secrets[API_KEY_PATH] === true
  const meta = fieldMeta(snap.fields, snap.overrides, API_KEY_PATH)
  const where = snap.secretStore?.where === 'keyring' ? " in the desktop's keyring" : ''
  const state = key.remove
    ? 'The saved key is removed when you save.'
    : saved
      ? `A key is saved${where}. It is never shown; type a new one to replace it.`
      : 'No key is saved.'
  return (
    <div className="setting">
      <label htmlFor={id} className="setting-label">
        API key
        <SettingTags meta={meta} />
      </label>
      <div className="setting-row">
        <input
          id={id}
          data-testid="settings-api-key"
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          placeholder={saved ? 'leave empty to keep the saved key' : 'sk-…'}
          value={key.value}
          disabled={disabled || key.remove}
          aria-describedby={`${id}-hint`}
          onChange={(e) => settings.setKey({ value: e.target.value, remove: false })}
        />
        {saved ? (
          <button
            type="button"
            className="header-button"
            data-testid="settings-remove-key"
            disabled={disabled}
            onClick={() => settings.setKey({ value: '', remove: !key.remove })}
          >
            {key.remove ? 'Keep key' : 'Remove key'}
          </button>
        ) : null}
      </div>
      <FieldNotes id={id} note={<span data-testid="settings-key-state">{state}</span>} error={settings.fieldErrors[API_KEY_PATH]} />
    </div>
  )
}

function ShellSection({ settings, snap, disabled }: PartProps) {
  const id = 'settings-shell'
  const meta = fieldMeta(snap.fields, snap.overrides, SHELL_PATH)
  const status = useAppState((s) => s.status)
  return (
    <section className="settings-section" aria-labelledby="settings-shell-title" data-testid="settings-section-shell">
      <h3 id="settings-shell-title">Shell access</h3>
      <div className="setting setting-check">
        <label htmlFor={id}>
          <input
            id={id}
            data-testid={id}
            type="checkbox"
            role="switch"
            checked={settings.shellEnabled}
            disabled={disabled || settings.shellBusy || !meta.editable}
            aria-describedby={`${id}-hint`}
            onChange={(e) => void settings.setShell(e.target.checked)}
          />
          <span>Let the assistant and you run shell commands</span>
          <SettingTags meta={meta} />
        </label>
        <FieldNotes
          id={id}
          note={
            <>
              Commands run as you, on this computer, in the terminal panel and for the assistant's tools. Saved at once;
              it takes effect after a restart.
            </>
          }
          error={settings.fieldErrors[SHELL_PATH]}
        />
      </div>
      <ConfinementStatus status={status} />
    </section>
  )
}
