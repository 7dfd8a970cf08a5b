// Section "SDK": handshake time and message round trips in real Chromium,
// host page on the harness origin, widget iframe on the widget origin (two
// origins of one site, so one renderer process). Everything is timed in-page
// with performance.now().
//
// Pages (built from e2e/fixtures/):
//   ours = sdk-host (CallingHost)  ↔ sdk-widget?mode=echo (CallingExtensions, debugMode off)
//   npm  = plain-host (no SDK)     ↔ npm-widget?mode=echo (@hubspot/calling-extensions-sdk 0.9.7)
//   raw  = plain-host              ↔ npm-widget?mode=raw  (a bare postMessage echo, no SDK)
// and ours/npm once more with `quiet=1` (console.debug muted on both pages).
//
// No console listener is attached and the widgets run with debugMode off.
// Even so, Playwright keeps the DevTools Runtime domain enabled, so every
// console call is reported over CDP (~0.1 ms each). The npm package logs
// every message with console.debug; ours (debugMode off) logs only the
// handshake and rejected messages. Hence the extra "console.debug muted" rows.
import { percentile } from './table.mjs'

export const HANDSHAKE_LOADS = 20
export const ROUND_TRIPS = 10_000
const WARMUP_ROUND_TRIPS = 2_000
const TARGETS = { roundTripP50Us: 30, roundTripP99Us: 200, handshakeP50Ms: 3 }

export function fixtureUrl(origin, name, query) {
  const search = new URLSearchParams(query).toString()
  return `${origin}/e2e/fixtures/${name}/${search ? `?${search}` : ''}`
}

/** The measured page pairs. `quiet` ones mute console.debug in both frames. */
export function variants(origins) {
  const widget = (name, query) => fixtureUrl(origins.widget, name, query)
  const pages = (quiet) => {
    const q = quiet ? { quiet: '1' } : {}
    return {
      ours: fixtureUrl(origins.harness, 'sdk-host', { bench: '1', ...q, widget: widget('sdk-widget', { mode: 'echo', ...q }) }),
      npm: fixtureUrl(origins.harness, 'plain-host', { widget: widget('npm-widget', { mode: 'echo', ...q }) }),
    }
  }
  const loud = pages(false)
  const quiet = pages(true)
  return [
    { key: 'ours', label: 'ours (CallingHost ↔ CallingExtensions)', url: loud.ours },
    { key: 'npm', label: 'npm 0.9.7 (plain host ↔ npm widget)', url: loud.npm },
    { key: 'raw', label: 'raw postMessage echo', url: fixtureUrl(origins.harness, 'plain-host', { widget: widget('npm-widget', { mode: 'raw' }) }) },
    { key: 'oursQuiet', url: quiet.ours },
    { key: 'npmQuiet', url: quiet.npm },
  ]
}

/** Response headers that make the host page cross-origin isolated. */
const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'cross-origin',
}

/**
 * Chromium clamps performance.now() to 100 µs unless the page is
 * cross-origin isolated (then 5 µs). serve-dist sends no COOP/COEP headers,
 * so the benchmark adds them to the responses of our origins through a
 * route. Round trips are timed in the host page, which is then isolated;
 * the cross-origin widget frame is not (that needs allow="cross-origin-isolated"),
 * so its onReady time, used by the handshake, keeps a 0.1 ms resolution.
 */
export async function isolate(context, origins) {
  const ours = Object.values(origins)
  await context.route(
    (url) => ours.includes(url.origin),
    async (route) => {
      const response = await route.fetch()
      await route.fulfill({ response, headers: { ...response.headers(), ...ISOLATION_HEADERS } })
    },
  )
}

function withTimeout(promise, ms, what) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

export function widgetFrame(page, origins) {
  const frame = page.frames().find((f) => f.url().startsWith(`${origins.widget}/`))
  if (!frame) throw new Error(`no widget frame from ${origins.widget} in ${page.url()}`)
  return frame
}

const READY_TIMEOUT_MS = 30_000

/** Loads `url` and waits until host and widget are both ready. */
export async function loadReady(page, origins, url) {
  await page.goto(url, { waitUntil: 'load' })
  try {
    await page.waitForFunction(() => window.__readyAt != null, undefined, { timeout: READY_TIMEOUT_MS })
    const frame = widgetFrame(page, origins)
    await frame.waitForFunction(() => window.__readyAt != null, undefined, { timeout: READY_TIMEOUT_MS })
    return frame
  } catch (error) {
    const state = await page.evaluate(() => ({ loadAt: window.__loadAt, readyAt: window.__readyAt, status: window.__status })).catch(() => null)
    throw new Error(`no handshake within ${READY_TIMEOUT_MS / 1000} s on ${url} (host state ${JSON.stringify(state)}): ${error.message}`)
  }
}

/** One page load: ms from the iframe's load event until both sides are ready. */
async function handshakeOnce(page, origins, url) {
  const frame = await loadReady(page, origins, url)
  const host = await page.evaluate(() => ({ loadAt: window.__loadAt, readyAt: window.__readyAt, isolated: self.crossOriginIsolated }))
  const widgetReadyAt = await frame.evaluate(() => window.__readyAt)
  if (host.loadAt == null) throw new Error(`${url}: the host never saw the iframe load`)
  return { ms: Math.max(host.readyAt, widgetReadyAt) - host.loadAt, isolated: host.isolated }
}

async function measureVariant(page, origins, variant) {
  const handshakes = []
  let isolated = true
  for (let i = 0; i <= HANDSHAKE_LOADS; i++) {
    const result = await handshakeOnce(page, origins, variant.url)
    isolated &&= result.isolated
    if (i > 0) handshakes.push(result.ms) // the first load warms caches and the JIT
  }
  await withTimeout(page.evaluate((n) => window.__benchRoundTrips(n), WARMUP_ROUND_TRIPS), 60_000, `${variant.key} warm-up`)
  const samples = await withTimeout(page.evaluate((n) => window.__benchRoundTrips(n), ROUND_TRIPS), 120_000, `${variant.key} round trips`)
  if (samples.length !== ROUND_TRIPS) throw new Error(`${variant.key}: expected ${ROUND_TRIPS} samples, got ${samples.length}`)
  const sortedMs = [...samples].sort((a, b) => a - b)
  const sortedHandshakes = [...handshakes].sort((a, b) => a - b)
  return {
    isolated,
    handshakeP50Ms: percentile(sortedHandshakes, 50),
    handshakeMaxMs: sortedHandshakes.at(-1),
    p50Us: percentile(sortedMs, 50) * 1000,
    p99Us: percentile(sortedMs, 99) * 1000,
    meanUs: (samples.reduce((sum, x) => sum + x, 0) / samples.length) * 1000,
    maxUs: sortedMs.at(-1) * 1000,
  }
}

const us = (x) => `${x.toFixed(1)} µs`
const ms = (x) => `${x.toFixed(2)} ms`
const ratio = (x, base) => `${(x / base).toFixed(2)}×`
function verdict(value, target, unit) {
  if (value <= target) return `≤ ${target} ${unit}: met`
  return `≤ ${target} ${unit}: MISSED by ${(value - target).toFixed(unit === 'ms' ? 2 : 1)} ${unit}`
}

/**
 * `browser` is a launched Playwright Browser; `profile(page, byKey, origins)`
 * (optional) returns extra rows that break down where our SDK spends its time.
 */
export async function sdkSection({ browser, origins, isolation = true, profile }) {
  const context = await browser.newContext()
  if (isolation) await isolate(context, origins)
  const page = await context.newPage()
  const list = variants(origins)
  const byKey = Object.fromEntries(list.map((v) => [v.key, v]))
  const r = {}
  let profileRows = []
  try {
    for (const variant of list) r[variant.key] = await measureVariant(page, origins, variant)
    if (profile) profileRows = await profile(page, byKey, origins)
  } finally {
    await context.close()
  }
  const main = ['ours', 'npm', 'raw'].map((key) => r[key])
  const n = ROUND_TRIPS.toLocaleString('en')
  const rows = [
    [`handshake p50 (${HANDSHAKE_LOADS} loads)`, ...main.map((x) => ms(x.handshakeP50Ms)), verdict(r.ours.handshakeP50Ms, TARGETS.handshakeP50Ms, 'ms')],
    [`handshake max (${HANDSHAKE_LOADS} loads)`, ...main.map((x) => ms(x.handshakeMaxMs)), ''],
    [`round trip p50 (${n})`, ...main.map((x) => us(x.p50Us)), verdict(r.ours.p50Us, TARGETS.roundTripP50Us, 'µs')],
    [`round trip p99 (${n})`, ...main.map((x) => us(x.p99Us)), verdict(r.ours.p99Us, TARGETS.roundTripP99Us, 'µs')],
    ['round trip mean', ...main.map((x) => us(x.meanUs)), ''],
    ['round trip max', ...main.map((x) => us(x.maxUs)), ''],
    ['same, console.debug muted on both pages:', '', '', '', ''],
    [`  handshake p50 (${HANDSHAKE_LOADS} loads)`, ms(r.oursQuiet.handshakeP50Ms), ms(r.npmQuiet.handshakeP50Ms), ms(r.raw.handshakeP50Ms), verdict(r.oursQuiet.handshakeP50Ms, TARGETS.handshakeP50Ms, 'ms')],
    [`  round trip p50 (${n})`, us(r.oursQuiet.p50Us), us(r.npmQuiet.p50Us), us(r.raw.p50Us), verdict(r.oursQuiet.p50Us, TARGETS.roundTripP50Us, 'µs')],
    [`  round trip p99 (${n})`, us(r.oursQuiet.p99Us), us(r.npmQuiet.p99Us), us(r.raw.p99Us), verdict(r.oursQuiet.p99Us, TARGETS.roundTripP99Us, 'µs')],
    ['  round trip mean', us(r.oursQuiet.meanUs), us(r.npmQuiet.meanUs), us(r.raw.meanUs), ''],
  ]
  const isolated = Object.values(r).every((x) => x.isolated)
  const notes = [
    "round trip = host sends DIAL_NUMBER, the widget's onDialNumber answers with outgoingCall (OUTGOING_CALL_STARTED), host receives it; sequential, after 2,000 warm-up round trips, timed in the host page.",
    'handshake = iframe load event → host ready and widget onReady (raw: bare SYNC_ACK); widget SDK constructed at page load; first of 21 loads discarded.',
    `SDK cost over raw at p50: ours +${us(r.ours.p50Us - r.raw.p50Us)} (${ratio(r.ours.p50Us, r.raw.p50Us)} raw), npm +${us(r.npm.p50Us - r.raw.p50Us)} (${ratio(r.npm.p50Us, r.raw.p50Us)}); console.debug muted: ours +${us(r.oursQuiet.p50Us - r.raw.p50Us)} (${ratio(r.oursQuiet.p50Us, r.raw.p50Us)}), npm +${us(r.npmQuiet.p50Us - r.raw.p50Us)} (${ratio(r.npmQuiet.p50Us, r.raw.p50Us)}). The absolute targets assume an idle machine (raw ≈ 15 µs p50); on a loaded one compare with raw ("about 2× raw").`,
    'console.debug muted = what a browser without DevTools attached pays: under Playwright each console call is reported over CDP. The npm package logs every message it sends and receives; ours (debugMode off) only the handshake and rejected messages.',
    isolated
      ? 'timer: host pages cross-origin isolated (COOP/COEP added by the benchmark), performance.now() resolution 5 µs.'
      : 'timer: host pages NOT cross-origin isolated: performance.now() is clamped to 100 µs, per-message percentiles are coarse.',
  ]
  return {
    title: 'SDK (Chromium, host :4173 ↔ widget :4174, two origins of one site)',
    header: ['metric', ...['ours', 'npm', 'raw'].map((key) => byKey[key].label), 'target (ours)'],
    rows: [...rows, ...profileRows],
    notes,
    results: r,
  }
}
