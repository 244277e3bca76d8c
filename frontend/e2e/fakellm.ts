// Starts the fake LLM (an OpenAI-compatible server that streams back
// "You said: <text>" word by word) for browser tests, and stops it again.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { spawnUntilReady, type EnvOverrides, type RunningProcess } from './process'

const FRONTEND_DIR = resolve(import.meta.dirname, '..')
const LISTENING = /fake LLM listening on (http:\/\/\S+)/

export function fakeLLMBinary(): string {
  return resolve(FRONTEND_DIR, process.env.WISP_FAKELLM_BIN ?? '../build/bin/wisp-fakellm')
}

export type RunningFakeLLM = RunningProcess

/** Model settings the test machine may have, which must not leak into the servers under test. */
export const NO_MODEL_ENV: EnvOverrides = {
  WISP_PROVIDER: undefined,
  WISP_BASE_URL: undefined,
  WISP_MODEL: undefined,
  OPENAI_API_KEY: undefined,
  ANTHROPIC_API_KEY: undefined,
  WISP_CONFIG_PATH: undefined,
  WISP_OLLAMA_URL: undefined,
}

/** A server environment whose model is the fake LLM at url. */
export function fakeModelEnv(url: string): EnvOverrides {
  return { ...NO_MODEL_ENV, WISP_PROVIDER: 'openai', WISP_BASE_URL: `${url}/v1`, WISP_MODEL: 'fake', OPENAI_API_KEY: 'test' }
}

export interface FakeLLMOptions {
  /** Pause between streamed words, as the binary's --delay flag takes it. */
  delay?: string
  /**
   * Turns to answer first, in order (llmtest.Turn as JSON, e.g. {text: [...]} or
   * {toolCalls: [{id, name, arguments}]}); every chat request takes the next, title
   * requests too. The echo follows.
   */
  script?: unknown[]
  /** A context window in tokens (--window): a request over it gets the provider's "context too long" error. */
  window?: number
  timeoutMs?: number
}

export function startFakeLLM(opts: FakeLLMOptions = {}): Promise<RunningFakeLLM> {
  const { delay = '30ms', script, timeoutMs = 30_000 } = opts
  const args = ['--addr', '127.0.0.1:0', '--delay', delay]
  if (opts.window !== undefined) args.push('--window', String(opts.window))
  let scriptDir: string | null = null
  if (script !== undefined) {
    scriptDir = mkdtempSync(join(tmpdir(), 'wisp-fakellm-'))
    const path = join(scriptDir, 'turns.json')
    writeFileSync(path, JSON.stringify(script))
    args.push('--script', path)
  }
  return spawnUntilReady(fakeLLMBinary(), args, {
    name: 'fake LLM',
    env: {},
    ready: LISTENING,
    timeoutMs,
    cleanup: () => {
      if (scriptDir !== null) rmSync(scriptDir, { recursive: true, force: true })
    },
  })
}
