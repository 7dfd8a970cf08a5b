/**
 * Every outbound read of the server (the recording endpoint, the recording
 * file's probe and playback, the channel-connection webhook, the widget page
 * probe) against a vendor that misbehaves in every way (hostile-vendor.ts):
 * each answer comes within its deadline, memory stays bounded, the cap on
 * concurrent reads refuses with the real API's error body, and a refusal
 * writes nothing. The list of call sites is outbound-inventory.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ACCOUNT } from '../../core/http/auth.ts'
import { startRingside, type RingsideServer } from '../server.ts'
import { fetchWidgetPage } from '../pages/widget-page.ts'
import { isFileAt, MODES, startHostileVendor, type HostileVendor, type Mode } from '../../testing/hostile-vendor.ts'
import { freePortPair } from './support.ts'

const DEADLINE = 1500
const CAP = 8
/** A generous bound for one read: its deadline, plus a second of slack for a loaded machine. */
const WITHIN = DEADLINE + 1500
const TEST_TIMEOUT = 30_000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let vendor: HostileVendor
let ringside: RingsideServer
let origin: string

beforeAll(async () => {
  vendor = await startHostileVendor()
  ringside = await startRingside({ port: await freePortPair(), data: null, pages: 'none', outboundRules: { deadlineMs: DEADLINE, maxConcurrent: CAP } })
  origin = ringside.url.slice(0, -1)
  // The call's external id picks the endpoint and the mode: ep/{mode} or epx/{mode}.
  expect((await api('POST', RECORDING_SETTINGS, { urlToRetrieveAuthedRecording: `${vendor.a}/%s` }, 'developer')).status).toBe(200)
  expect((await api('POST', CHANNEL_SETTINGS, { url: `${vendor.a}/numbers/honest`, isReady: true }, 'developer')).status).toBe(200)
})
afterAll(async () => {
  await ringside?.close()
  await vendor?.close()
})

async function api(method: string, path: string, body?: unknown, auth: 'app' | 'developer' | 'none' = 'app', headers: Record<string, string> = {}): Promise<Response> {
  const url = new URL(path, origin)
  if (auth === 'developer') url.searchParams.set('hapikey', ACCOUNT.developerApiKey)
  return fetch(url, {
    method,
    headers: { ...(auth === 'app' && { authorization: `Bearer ${ACCOUNT.privateAppToken}` }), ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
}

/** Run `work` and return what it gave (or threw) with how long it took. */
async function timed<T>(work: () => Promise<T>): Promise<{ value?: T; error?: unknown; ms: number }> {
  const started = performance.now()
  try {
    const value = await work()
    return { value, ms: performance.now() - started }
  } catch (error) {
    return { error, ms: performance.now() - started }
  }
}

/** `tasks`, at most `width` at a time. */
async function pool(width: number, tasks: (() => Promise<void>)[]): Promise<void> {
  const queue = [...tasks]
  await Promise.all(Array.from({ length: width }, async () => {
    for (let task = queue.shift(); task; task = queue.shift()) await task()
  }))
}

/** The store's tables (as the export has them), but those named in `except` (written by a read running beside). */
async function tables(...except: string[]): Promise<Record<string, unknown>> {
  const all = ((await (await api('GET', '/_ringside/v1/export', undefined, 'none')).json()) as { tables: Record<string, unknown> }).tables
  return Object.fromEntries(Object.entries(all).filter(([name]) => !except.includes(name)))
}
const RECORDING_SETTINGS = `/crm/v3/extensions/calling/${ACCOUNT.appId}/settings/recording`
const CHANNEL_SETTINGS = `/crm/v3/extensions/calling/${ACCOUNT.appId}/settings/channel-connection`

/** A call whose recording the vendor serves in `mode` (its external id), marked ready: the recording's status. */
async function readyCall(mode: string): Promise<{ callId: string; recording: Record<string, unknown>; ms: number }> {
  const properties = { hs_call_title: mode, hs_call_external_id: mode, hs_call_app_id: String(ACCOUNT.appId) }
  const callId = ((await (await api('POST', '/crm/v3/objects/calls', { properties })).json()) as { id: string }).id
  const ready = await timed(() => api('POST', '/crm/v3/extensions/calling/recordings/ready', { engagementId: Number(callId) }))
  expect((ready.value as Response).status, mode).toBe(204)
  const media = (await (await api('GET', `/_ringside/v1/calls/${callId}/media`, undefined, 'none')).json()) as { recording: Record<string, unknown> }
  return { callId, recording: media.recording, ms: ready.ms }
}

/** GET the recording with `range`: the status, headers, and the body or how it broke off, all within the deadline. */
async function play(callId: string, range?: string) {
  return timed(async () => {
    const response = await api('GET', `/_ringside/v1/calls/${callId}/recording`, undefined, 'none', range ? { range } : {})
    const body = await response.arrayBuffer().then((b) => new Uint8Array(b), (error: unknown) => error as Error)
    return { status: response.status, headers: response.headers, body }
  })
}

const READY_WHEN: Partial<Record<Mode, RegExp>> = {
  endless: /more than \d+ bytes|did not finish within/,
  'slow-headers': /did not finish within 1500 ms/,
  loop: /redirected more than 3 times/,
  'to-remote-name': /must use https \(http is accepted only on this machine/,
  'to-mapped': /must use https/,
  'to-private': /must use https/,
  'to-https-mapped': /failed: .*ECONNREFUSED|failed/,
}

// The reads of one kind run beside those of the others (the server's cap is not reached); the bounds come after, alone.
describe.concurrent('every outbound read against every misbehaviour', () => {
  test('the recording: each mode ends within its deadline: READY and played back in correct ranges, or FAILED with its reason', async () => {
    const outcomes: Record<string, unknown> = {}
    const ready: string[] = []
    await pool(3, Object.keys(MODES).map((mode) => async () => {
      const { callId, recording, ms } = await readyCall(`ep/${mode}`)
      // Two reads (the endpoint, then the file's probe), each within its deadline.
      expect(ms, `${mode}: ready answered within two deadlines`).toBeLessThan(2 * WITHIN)
      const failed = READY_WHEN[mode as Mode]
      if (failed) {
        outcomes[mode] = recording.status
        expect(recording, mode).toMatchObject({ status: 'FAILED', reason: expect.stringMatching(failed) })
        return
      }
      if (mode === 'lies-long' && recording.status === 'FAILED') {
        // Node's parser may see the lie before the headers are handed on: refused, as it should be.
        outcomes[mode] = recording.status
        return
      }
      expect(recording, mode).toMatchObject({ status: 'READY' })
      ready.push(callId)
      // A trickle is cut by the deadline: once is enough.
      const ranges = mode === 'trickle' ? ['bytes=1000-1999'] : mode === 'lies-long' ? [undefined] : ['bytes=1000-1999', 'bytes=1000000-1000999', 'bytes=0-']
      for (const range of ranges) {
        const answer = await play(callId, range)
        expect(answer.ms, `${mode} ${range}: answered within its deadline`).toBeLessThan(WITHIN)
        const { status, headers, body } = answer.value!
        if (status !== 206 && status !== 200) {
          // A refusal: the real error body.
          expect(status, `${mode} ${range}`).toBe(502)
          continue
        }
        const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(headers.get('content-range') ?? '')
        if (body instanceof Error) {
          // The vendor broke off or trickled past the deadline: the answer ends short, never hangs.
          expect(['trickle', 'lies-short'], `${mode} ${range}: ${body.message}`).toContain(mode)
          continue
        }
        if (status === 206) {
          expect(contentRange, `${mode} ${range}`).not.toBeNull()
          expect(body.byteLength).toBe(Number(contentRange![2]) - Number(contentRange![1]) + 1)
          expect(body.byteLength).toBeLessThanOrEqual(512 * 1024)
          expect(isFileAt(body, Number(contentRange![1])), `${mode} ${range}: the bytes asked for`).toBe(true)
        }
      }
      outcomes[mode] = recording.status
    }))
    expect(Object.keys(outcomes).sort()).toEqual(Object.keys(MODES).sort())
    // (The channel-connection check, running beside, writes its settings.)
    const before = await tables('calling_channel_connection')
    await Promise.all(ready.map((callId) => play(callId, 'bytes=0-9')))
    expect(await tables('calling_channel_connection'), 'playback writes nothing').toEqual(before)
  }, TEST_TIMEOUT)

  test('the recording: an endpoint that misbehaves leaves the recording FAILED within its deadline', async () => {
    await pool(3, (['endless', 'slow-headers', 'trickle', 'lies-short', 'loop', 'to-remote-name', 'hop'] as const).map((mode) => async () => {
      const { recording, ms } = await readyCall(`epx/${mode}`)
      expect(ms, mode).toBeLessThan(2 * WITHIN)
      expect(recording, mode).toMatchObject(mode === 'hop' ? { status: 'READY' } : { status: 'FAILED' })
    }))
  }, TEST_TIMEOUT)

  test('the channel-connection webhook: each check answers within its deadline: CONNECTED, or FAILED with the reason; nothing is written', async () => {
    for (const mode of Object.keys(MODES) as Mode[]) {
      const patched = await api('PATCH', CHANNEL_SETTINGS, { url: `${vendor.a}/numbers/${mode}` }, 'developer')
      expect(patched.status).toBe(200)
      const before: unknown = await patched.json()
      const check = await timed(async () => (await api('POST', '/_ringside/v1/calling/channel-connection/check', undefined, 'none')).json() as Promise<{ status: string; reason?: string }>)
      expect(check.ms, mode).toBeLessThan(WITHIN)
      // A JSON answer is small: a vendor that ignores Range answers it as an honest one does.
      expect(check.value!.status, `${mode}: ${check.value!.reason}`).toBe(['honest', 'hop', 'ignores-range'].includes(mode) ? 'CONNECTED' : 'FAILED')
      expect(await (await api('GET', CHANNEL_SETTINGS, undefined, 'developer')).json(), `${mode}: the check writes nothing`).toEqual(before)
    }
  }, TEST_TIMEOUT)

  test('the widget page probe (the CLI): each probe settles within its deadline, reading at most its budget', async () => {
    await Promise.all((Object.keys(MODES) as Mode[]).map(async (mode) => {
      // Only a page that never answers needs its deadline; the others end by themselves (a loaded machine gets time).
      const timeoutMs = mode === 'slow-headers' ? DEADLINE : 5 * DEADLINE
      const probe = await timed(() => fetchWidgetPage(new URL(`${vendor.a}/page/${mode}`), { timeoutMs }))
      expect(probe.ms, mode).toBeLessThan(timeoutMs + 1500)
      if (['honest', 'hop', 'endless', 'ignores-range'].includes(mode)) expect(probe.value, `${mode}: ${String(probe.error)}`).toMatchObject({ status: 200, title: 'Hostile Dialer' })
      // A page that never finishes loading is cut at its deadline, and says how far it got.
      if (mode === 'trickle') expect(probe.error, mode).toMatchObject({ code: 'ETIMEDOUT', title: 'Hostile Dialer', received: expect.stringMatching(/^it answered 200 OK and sent .* of the page, then nothing more$/) })
      if (mode === 'slow-headers') expect(probe.error, mode).toMatchObject({ code: 'ETIMEDOUT' })
      if (mode === 'loop') expect(String(probe.error), mode).toMatch(/redirected more than 3 times/)
    }))
  }, TEST_TIMEOUT)
})

describe('Ringside itself is never a target', () => {
  test("a webhook on Ringside's own port, or a redirect there, is refused before any request reaches it; the data stays", async () => {
    const reset = `${origin}/_ringside/v1/reset`
    const widgetOrigin = ringside.widgetOrigin
    const before = await tables('calling_channel_connection')
    for (const url of [reset, `${reset.replace('127.0.0.1', 'localhost')}`, `${widgetOrigin}/`, `${vendor.a}/numbers/to?url=${encodeURIComponent(reset)}`]) {
      expect((await api('PATCH', CHANNEL_SETTINGS, { url }, 'developer')).status).toBe(200)
      const check = (await (await api('POST', '/_ringside/v1/calling/channel-connection/check', undefined, 'none')).json()) as { status: string; reason: string }
      expect(check, url).toMatchObject({ status: 'FAILED', reason: expect.stringMatching(/Ringside's own server/) })
    }
    await api('PATCH', CHANNEL_SETTINGS, { url: `${vendor.a}/numbers/honest` }, 'developer')
    expect(await tables('calling_channel_connection'), 'nothing was reset').toEqual(before)
  }, TEST_TIMEOUT)
})

describe('bounds', () => {
  test('memory stays bounded over many reads of a vendor that ignores Range and one that never ends', async () => {
    const { callId } = await readyCall('ep/ignores-range')
    const endless = (await readyCall('ep/endless-206')).callId
    const baseline = process.memoryUsage().rss
    let peak = baseline
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
    const ranges = ['bytes=4000000-4000999', 'bytes=0-', 'bytes=2000000-2000099', 'bytes=1000000-1000999']
    const answers: number[] = []
    await pool(CAP, Array.from({ length: 40 }, (_, i) => async () => {
      const answer = await play(i % 5 === 4 ? endless : callId, ranges[i % ranges.length])
      if (!(answer.value?.body instanceof Error)) answers.push(answer.value!.status)
    }))
    clearInterval(sampler)
    // A 48 MiB file read whole per request (the old way) would take 8 × 48 MiB at once; streamed, a few MiB.
    expect((peak - baseline) / 2 ** 20, 'RSS growth (MiB) while reading').toBeLessThan(150)
    expect(answers.filter((status) => status === 206).length).toBeGreaterThan(20)
  }, TEST_TIMEOUT)

  test('over the cap on concurrent reads: 429 with the real error body, within a second, nothing written', async () => {
    const trickling = (await readyCall('ep/trickle')).callId
    const held = Array.from({ length: CAP }, () => play(trickling, 'bytes=1000-1999'))
    await new Promise((wait) => setTimeout(wait, 200))
    const before = await tables()
    const callId = ((await (await api('POST', '/crm/v3/objects/calls', { properties: { hs_call_external_id: 'ep/honest', hs_call_app_id: String(ACCOUNT.appId) } })).json()) as { id: string }).id
    const snapshot = await tables()
    for (const refused of [
      () => api('POST', '/crm/v3/extensions/calling/recordings/ready', { engagementId: Number(callId) }),
      () => api('GET', `/_ringside/v1/calls/${trickling}/recording`, undefined, 'none', { range: 'bytes=0-9' }),
      () => api('POST', '/_ringside/v1/calling/channel-connection/check', undefined, 'none'),
    ]) {
      const answer = await timed(refused)
      expect(answer.ms).toBeLessThan(1000)
      expect(answer.value!.status).toBe(429)
      expect(answer.value!.headers.get('retry-after')).toBe('1')
      const body = (await answer.value!.json()) as { status: string; category: string; correlationId: string; message: string }
      expect(body).toMatchObject({ status: 'error', category: 'RATE_LIMITS', message: expect.stringMatching(/already making 8 requests/) })
      expect(body.correlationId).toMatch(UUID)
    }
    expect(await tables(), 'the refusals wrote nothing').toEqual(snapshot)
    expect(before).not.toEqual(snapshot)
    const ended = await Promise.all(held)
    for (const answer of ended) expect(answer.ms).toBeLessThan(WITHIN)
    // The slots are free again.
    expect((await play((await readyCall('ep/honest')).callId, 'bytes=0-9')).value!.status).toBe(206)
  }, TEST_TIMEOUT)
})
