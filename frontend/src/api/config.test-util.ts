// Wire fixtures for the settings API's tests.

export const SNAPSHOT = {
  path: '/home/u/.local/state/wisp/wisp.json',
  config: {
    server: { host: '127.0.0.1', port: 2138, allowedOrigins: [], allowedHosts: ['wisp.lan'] },
    api: {},
    model: { provider: 'openai', baseURL: '', name: 'gpt-4o-mini', temperature: 0.7, maxTokens: 2048, thinkingBudget: 0, contextWindow: 0, summarizeAt: 80 },
    character: { name: 'Wisp', system: 'You are Wisp', bio: 'small' },
    features: { shellEnabled: false },
    terminal: { maxConcurrent: 2, maxDurationMs: 300000, cwd: '', notifyLongRuns: true },
    autonomy: { enabled: false, intervalMs: 30000, maxPerHour: 4, cooldownMs: 120000 },
    ui: { theme: 'dark', notifications: true },
    desktop: { openAtLogin: false },
  },
  secrets: { 'api.token': false, 'api.terminalToken': false, 'model.apiKey': true },
  secretStore: { where: 'keyring', service: 'wisp:/home/u/.local/state/wisp/wisp.json', reason: '', unread: [] },
  fields: [
    { path: 'server.port', apply: 'restart', secret: false, editable: true, label: 'Server port' },
    { path: 'server.host', apply: 'restart', secret: false, editable: false, label: 'Listen address' },
    { path: 'character.name', apply: 'hot', secret: false, editable: true, label: 'Character name' },
  ],
  overrides: { 'server.port': 'WISP_PORT' },
  configError: '',
  pendingRestart: false,
  pendingRestartReasons: [],
}

export const STATUS = { state: 'running', agentName: 'Wisp', model: 'm', canRespond: true, startedAt: 1, uptime: 2 }
