/**
 * Every URL the startup banner prints answers, with the pages served from the
 * sources as `npm start` serves them: on a fresh clone there is no dist/, so
 * the SDK's files are built from the sources on their first request
 * (sdk-dev-build.ts), whether or not this checkout has a build.
 */
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ACCOUNT } from '../../core/index.ts'
import { startupBanner } from '../start-command.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { freePortPair } from './support.ts'

let server: RingsideServer
beforeAll(async () => {
  server = await startRingside({ port: await freePortPair(), data: null, pages: 'vite' })
}, 60_000)
afterAll(() => server?.close())

/** Each http URL in the banner (the trailing punctuation of a sentence is not part of it). */
function bannerUrls(): string[] {
  return [...new Set([...startupBanner(server, {}).matchAll(/https?:\/\/[^\s'`)]+/g)].map((m) => m[0].replace(/[.,;]$/, '')))]
}

test('the banner names the harness, the widget, both SDK URLs and the change stream', () => {
  const urls = bannerUrls()
  expect(urls).toEqual(expect.arrayContaining([server.url, server.widgetUrl, expect.stringMatching(/\/sdk\/[^/]+\/calling-extensions\.js$/), expect.stringMatching(/\/sdk\/npm\/@hubspot\/calling-extensions-sdk@latest\/dist\/main\.js$/), expect.stringMatching(/\/_ringside\/v1\/changes$/)]))
})

test('every URL the banner prints answers 200', { timeout: 120_000 }, async () => {
  for (const url of bannerUrls()) {
    const response = await fetch(url, { headers: { authorization: `Bearer ${ACCOUNT.privateAppToken}` } })
    expect(response.status, url).toBe(200)
    await response.body?.cancel()
  }
})

test("the SDK's builds from the sources work: the ES module, the UMD script's global, the source map, the CDN script", { timeout: 120_000 }, async () => {
  const base = server.url.slice(0, -1)
  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`)
    expect(response.status, path).toBe(200)
    // Built from sources that may change: never cached as immutable.
    expect(response.headers.get('cache-control'), path).toBe('no-cache')
    return response.text()
  }
  const version = /\/sdk\/([^/]+)\/calling-extensions\.js/.exec(startupBanner(server, {}))?.[1]
  expect(await get(`/sdk/${version}/calling-extensions.js`)).toMatch(/export\s*\{[^}]*as default/)
  const umd = await get(`/sdk/${version}/calling-extensions.umd.js`)
  const sandbox: { CallingExtensionsSdk?: { default?: unknown; MessageType?: unknown } } = {}
  runInNewContext(umd, { globalThis: sandbox, window: sandbox })
  expect(typeof sandbox.CallingExtensionsSdk?.default).toBe('function')
  expect(JSON.parse(await get(`/sdk/${version}/calling-extensions.js.map`))).toHaveProperty('mappings')
  expect(await get('/sdk/npm/@hubspot/calling-extensions-sdk@0.9.7/dist/main.js')).toContain('0.9.7')
})
