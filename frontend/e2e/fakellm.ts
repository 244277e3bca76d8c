// Starts the fake LLM (an OpenAI-compatible server that streams back
// "You said: <text>" word by word) for browser tests, and stops it again.

import { resolve } from 'node:path'
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
  timeoutMs?: number
}

export function startFakeLLM(opts: FakeLLMOptions = {}): Promise<RunningFakeLLM> {
  const { delay = '30ms', timeoutMs = 30_000 } = opts
  return spawnUntilReady(fakeLLMBinary(), ['--addr', '127.0.0.1:0', '--delay', delay], {
    name: 'fake LLM',
    env: {},
    ready: LISTENING,
    timeoutMs,
  })
}
