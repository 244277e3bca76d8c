import { describe, expect, it } from 'vitest'
import type { ProviderInfo } from '../api'
import { initialForm, providerUpdate } from './ProviderSetup'

const info = (over: Partial<ProviderInfo> = {}): ProviderInfo => ({
  provider: '',
  baseURL: '',
  model: '',
  hasApiKey: false,
  canRespond: false,
  ollama: { detected: false, models: [] },
  ...over,
})

describe('initialForm', () => {
  it('starts from the saved provider, never with a key', () => {
    expect(initialForm(info({ provider: 'anthropic', baseURL: 'https://a', model: 'claude', hasApiKey: true }))).toEqual({
      provider: 'anthropic',
      baseURL: 'https://a',
      model: 'claude',
      apiKey: '',
    })
  })

  it('offers a detected Ollama with its first model, else OpenAI-compatible', () => {
    expect(initialForm(info({ ollama: { detected: true, models: ['llama3', 'qwen'] } }))).toEqual({
      provider: 'ollama',
      baseURL: '',
      model: 'llama3',
      apiKey: '',
    })
    expect(initialForm(info()).provider).toBe('openai')
    expect(initialForm(null).provider).toBe('openai')
  })
})

describe('providerUpdate', () => {
  it('omits an empty base URL and an empty key (which keeps the saved one)', () => {
    expect(providerUpdate({ provider: 'openai', baseURL: '  ', model: ' fake ', apiKey: '' })).toEqual({ provider: 'openai', model: 'fake' })
    expect(providerUpdate({ provider: 'openai', baseURL: ' http://x/v1 ', model: 'm', apiKey: 'k' })).toEqual({
      provider: 'openai',
      baseURL: 'http://x/v1',
      model: 'm',
      apiKey: 'k',
    })
  })
})
