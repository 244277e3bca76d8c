// Add or edit an MCP server: its name (fixed once saved), then a command
// (arguments one a line, working folder, environment as KEY=VALUE lines) or
// a URL (headers as "Name: value" lines). Saved env and header values are
// never shown: their lines carry a mask that keeps them (mcpForm.ts). The
// server's refusal (400) shows inline. It lives inside the settings <form>,
// so it is a group of fields with its own buttons, and Enter in one of its
// inputs saves this server instead of submitting the settings.

import { useId, useState, type KeyboardEvent, type ReactNode } from 'react'
import type { McpServer, McpTransport } from '../api'
import { EMPTY_DRAFT, MASK, buildEdit, draftOf, type DraftField, type McpDraft } from '../state/mcpForm'
import { useMcpStore } from '../state/useMcpServers'

interface Props {
  /** The server to edit; null: a new one. */
  server: McpServer | null
  blocked: boolean
  onDone(): void
}

export function McpServerForm({ server, blocked, onDone }: Props) {
  const store = useMcpStore()
  const [draft, setDraft] = useState<McpDraft>(() => (server === null ? EMPTY_DRAFT : draftOf(server)))
  const [problem, setProblem] = useState<{ field: DraftField | null; error: string } | null>(null)
  const [saving, setSaving] = useState(false)
  const set = (field: DraftField) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }))
    if (problem?.field === field) setProblem(null)
  }

  const save = async () => {
    if (saving || blocked) return
    const result = buildEdit(draft, server)
    if (!result.ok) {
      setProblem({ field: result.field, error: result.error })
      return
    }
    setSaving(true)
    setProblem(null)
    try {
      if (store === null) throw new Error('not connected to the Wisp server')
      await store.save(result.name, result.edit)
      onDone()
    } catch (err) {
      setProblem({ field: null, error: err instanceof Error ? err.message : String(err) })
      setSaving(false)
    }
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' || !(e.target instanceof HTMLElement) || e.target.tagName !== 'INPUT') return
    e.preventDefault()
    void save()
  }

  const field = (name: DraftField) => ({ value: draft[name], onChange: set(name), invalid: problem?.field === name, disabled: saving })
  const editing = server !== null
  const hasSecrets = editing && (server.config.envKeys.length > 0 || server.config.headerKeys.length > 0)
  return (
    <div
      className="mcp-form"
      role="group"
      aria-label={editing ? `Edit ${server.name}` : 'Add an MCP server'}
      data-testid="mcp-form"
      onKeyDown={onKeyDown}
    >
      <div className="settings-grid">
        <Field label="Name" testId="mcp-form-name" {...field('name')} disabled={saving || editing} placeholder="github" />
        <TransportField value={draft.transport} disabled={saving} onChange={(t) => setDraft((d) => ({ ...d, transport: t }))} />
        {draft.transport === 'stdio' ? (
          <>
            <Field label="Command" testId="mcp-form-command" {...field('command')} placeholder="npx" />
            <Field label="Working folder" testId="mcp-form-cwd" {...field('cwd')} placeholder="(Wisp’s own)" />
            <Field label="Arguments, one a line" testId="mcp-form-args" {...field('args')} lines placeholder={'-y\n@modelcontextprotocol/server-github'} />
            <Field label="Environment, KEY=VALUE lines" testId="mcp-form-env" {...field('env')} lines placeholder="GITHUB_TOKEN=…" />
          </>
        ) : (
          <>
            <Field label="URL" testId="mcp-form-url" {...field('url')} placeholder="https://example.com/mcp" />
            <Field label="Headers, Name: value lines" testId="mcp-form-headers" {...field('headers')} lines placeholder="Authorization: Bearer …" />
          </>
        )}
      </div>
      {hasSecrets ? (
        <p className="hint" data-testid="mcp-form-secrets">
          Saved values are never shown: a line with {MASK} keeps its value; type a new value to replace it, or delete the
          line to remove it.
        </p>
      ) : null}
      {problem !== null ? (
        <p className="setting-error" role="alert" data-testid="mcp-form-error">
          {problem.error}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="button" className="secondary" data-testid="mcp-form-cancel" disabled={saving} onClick={onDone}>
          Cancel
        </button>
        <button type="button" className="header-button" data-testid="mcp-form-save" disabled={saving || blocked} onClick={() => void save()}>
          {saving ? 'Saving…' : editing ? 'Save' : 'Add'}
        </button>
      </div>
    </div>
  )
}

interface FieldProps {
  label: string
  testId: string
  value: string
  onChange(value: string): void
  invalid: boolean
  disabled: boolean
  placeholder?: string
  /** A textarea (one entry a line). */
  lines?: boolean
}

/** A labelled input or textarea; no spell checking or autocompletion (commands and secrets). */
function Field({ label, testId, value, onChange, invalid, disabled, placeholder, lines = false }: FieldProps) {
  const id = useId()
  const common = {
    id,
    'data-testid': testId,
    value,
    disabled,
    placeholder,
    spellCheck: false,
    autoComplete: 'off',
    'aria-invalid': invalid,
  }
  const input: ReactNode = lines ? (
    <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
  ) : (
    <input {...common} type="text" onChange={(e) => onChange(e.target.value)} />
  )
  return (
    <div className={`setting${lines ? ' mcp-form-lines' : ''}`}>
      <label htmlFor={id} className="setting-label">
        {label}
      </label>
      {input}
    </div>
  )
}

function TransportField({ value, disabled, onChange }: { value: McpTransport; disabled: boolean; onChange(t: McpTransport): void }) {
  const id = useId()
  return (
    <div className="setting">
      <label htmlFor={id} className="setting-label">
        Runs as
      </label>
      <select
        id={id}
        data-testid="mcp-form-transport"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value === 'http' ? 'http' : 'stdio')}
      >
        <option value="stdio">a command (stdio)</option>
        <option value="http">a URL (Streamable HTTP)</option>
      </select>
    </div>
  )
}
