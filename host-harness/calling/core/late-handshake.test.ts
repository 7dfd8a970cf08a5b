import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { LATE_HANDSHAKE_MS, LateHandshakeWatch, lateHandshakeText, type LateHandshake } from './late-handshake.ts'
import type { ApiPort } from './ports.ts'

const CDN = 'https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9/dist/main.js'
const PAGE = 'http://127.0.0.1:3000/'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

function fakeApi(body: unknown): ApiPort & { asked: string[] } {
  const asked: string[] = []
  const get = async <T,>(path: string, options?: { query?: Record<string, unknown> }) => {
    asked.push(`${path}?url=${String(options?.query?.url)}`)
    if (body instanceof Error) throw body
    return body as T
  }
  const refuse = () => Promise.reject(new Error('not used'))
  return { asked, get, post: refuse, put: refuse, patch: refuse }
}

test('names the SDK script that did not run and suggests ringside open', () => {
  const text = lateHandshakeText({ pageUrl: PAGE, scripts: [{ url: CDN, sdk: true }, { url: 'https://cdn.example/a.js', sdk: false }] })
  expect(text).toContain(`its calling SDK script ${CDN} did not run in this browser`)
  expect(text).toContain('`ringside open`')
  expect(text).not.toContain('cdn.example')
})

test('without a CDN SDK, names the other off-site scripts; with none, says nothing', () => {
  const scripts = Array.from({ length: 5 }, (_, i) => ({ url: `https://s${i}.example/x.js`, sdk: false }))
  expect(lateHandshakeText({ pageUrl: PAGE, scripts })).toContain('(https://s0.example/x.js, https://s1.example/x.js, https://s2.example/x.js and 2 more)')
  expect(lateHandshakeText({ pageUrl: PAGE, scripts: [] })).toBeNull()
})

test('a page silent for LATE_HANDSHAKE_MS after its load is read once and reported; a message from it clears the report', async () => {
  const api = fakeApi({ url: PAGE, scripts: [{ url: CDN, sdk: true }], problem: null })
  const reports: Array<LateHandshake | null> = []
  const watch = new LateHandshakeWatch(api, (late) => reports.push(late))
  watch.status('syncing', PAGE)
  await vi.advanceTimersByTimeAsync(LATE_HANDSHAKE_MS - 1)
  expect(api.asked).toEqual([])
  await vi.advanceTimersByTimeAsync(1)
  expect(api.asked).toEqual([`/_ringside/v1/widget-scripts?url=${PAGE}`])
  expect(reports).toEqual([{ pageUrl: PAGE, scripts: [{ url: CDN, sdk: true }] }])
  // The host gives up: the report stays, it says why.
  watch.status('failed', PAGE)
  expect(reports).toHaveLength(1)
  watch.heard()
  expect(reports.at(-1)).toBeNull()
})

test('a widget that answers, or a new page, before the delay is never looked at', async () => {
  const api = fakeApi({ url: PAGE, scripts: [{ url: CDN, sdk: true }] })
  const reports: Array<LateHandshake | null> = []
  const watch = new LateHandshakeWatch(api, (late) => reports.push(late))
  watch.status('syncing', PAGE)
  watch.heard()
  await vi.advanceTimersByTimeAsync(LATE_HANDSHAKE_MS * 2)
  watch.status('syncing', PAGE)
  watch.status('ready', PAGE)
  await vi.advanceTimersByTimeAsync(LATE_HANDSHAKE_MS * 2)
  watch.status('syncing', PAGE)
  watch.dispose()
  await vi.advanceTimersByTimeAsync(LATE_HANDSHAKE_MS * 2)
  expect(api.asked).toEqual([])
  expect(reports).toEqual([])
})

test('no server to ask (browser-only mode answers 404), or an answer of another shape: no report', async () => {
  for (const body of [new Error('404'), { scripts: 'no' }, null]) {
    const reports: Array<LateHandshake | null> = []
    const watch = new LateHandshakeWatch(fakeApi(body), (late) => reports.push(late))
    watch.status('syncing', PAGE)
    await vi.advanceTimersByTimeAsync(LATE_HANDSHAKE_MS)
    expect(reports).toEqual([])
  }
})

test('a page off this machine, or no server behind the harness (browser-only mode), is never asked about', async () => {
  const api = fakeApi({ url: PAGE, scripts: [{ url: CDN, sdk: true }] })
  const reports: Array<LateHandshake | null> = []
  new LateHandshakeWatch(api, (late) => reports.push(late)).status('syncing', 'https://dialer.example/widget/')
  new LateHandshakeWatch(api, (late) => reports.push(late), { serverBehind: () => false }).status('syncing', PAGE)
  await vi.advanceTimersByTimeAsync(LATE_HANDSHAKE_MS * 2)
  expect(api.asked).toEqual([])
  expect(reports).toEqual([])
})
