// One MCP server in Settings › Tools: its name, status and transport, what it
// runs, how it is doing (last error, restarts, next retry, the tail of its
// stderr), its tools, and its controls.

import type { McpServer } from '../api'
import { formatRelative, formatTimestamp } from '../format'
import { STATUS_LABEL } from '../state/mcp'
import { useNow } from '../state/useNow'
import { McpServerActions } from './McpServerActions'
import { McpToolList } from './McpToolList'

interface Props {
  server: McpServer
  /** The config file has an error: changes wait (restart does not). */
  blocked: boolean
  onEdit(): void
}

export function McpServerItem({ server, blocked, onEdit }: Props) {
  const { name, status, config } = server
  return (
    <li className={`mcp-server mcp-${status}`} data-testid="mcp-server" data-name={name} data-status={status}>
      <div className="mcp-server-head">
        <strong className="mcp-server-name">{name}</strong>
        <span className={`tag mcp-status mcp-status-${status}`} data-testid="mcp-status" data-status={status}>
          {STATUS_LABEL[status]}
        </span>
        <span className="tag" data-testid="mcp-transport" title={config.transport === 'http' ? 'Streamable HTTP' : 'A command Wisp runs'}>
          {config.transport}
        </span>
        <code className="mcp-server-target muted" title={target(server)}>
          {target(server)}
        </code>
      </div>
      <McpServerHealth server={server} />
      <McpToolList server={server} />
      <McpServerActions server={server} blocked={blocked} onEdit={onEdit} />
    </li>
  )
}

/** What the server is: its command line, or its URL. */
function target({ config }: McpServer): string {
  return config.transport === 'http' ? config.url : [config.command, ...config.args].join(' ')
}

function McpServerHealth({ server }: { server: McpServer }) {
  const { lastError, stderr, restarts, retryAt, status } = server
  return (
    <>
      {lastError !== '' ? (
        <p className="mcp-last-error" data-testid="mcp-last-error">
          {lastError}
        </p>
      ) : null}
      {status === 'failed' ? (
        <p className="mcp-retry muted">
          <span data-testid="mcp-restarts">
            Restarted {restarts} {restarts === 1 ? 'time' : 'times'}
          </span>
          {retryAt !== null ? <NextRetry at={retryAt} /> : null}
        </p>
      ) : null}
      {stderr.length > 0 ? (
        <details className="mcp-stderr" data-testid="mcp-stderr">
          <summary>
            Its error output ({stderr.length} {stderr.length === 1 ? 'line' : 'lines'})
          </summary>
          <pre>{stderr.join('\n')}</pre>
        </details>
      ) : null}
    </>
  )
}

function NextRetry({ at }: { at: string }) {
  const now = useNow(1000)
  const ms = Date.parse(at)
  if (Number.isNaN(ms)) return null
  return (
    <span data-testid="mcp-retry" title={formatTimestamp(ms)}>
      {' · '}next try {ms > now ? formatRelative(ms, now) : 'now'}
    </span>
  )
}
