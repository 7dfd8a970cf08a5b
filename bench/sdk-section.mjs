// Section "SDK": handshake time and message round trips in real Chromium,
// host page on the harness origin, widget iframe on the widget origin (two
// origins of one site, so one renderer process, as in a CRM tab with a
// same-site widget). Everything is timed in-page with performance.now().
//
// Pages (built from e2e/fixtures/):
//   ours = sdk-host (CallingHost)      ↔ sdk-widget?mode=echo (CallingExtensions, debugMode off)
//   npm  = plain-host (no SDK)         ↔ npm-widget?mode=echo (@hubspot/calling-extensions-sdk 0.9.7)
//   raw  = plain-host                  ↔ npm-widget?mode=raw  (a bare postMessage echo, no SDK)
//
// No console listener is attached (Playwright's console plumbing slows pages
// that log) and the widgets run with debugMode off.
import { percentile } from './table.mjs'

export const HANDSHAKE_LOADS = 20
export const ROUND_TRIPS = 10_000
const WARMUP_ROUND_TRIPS = 2_000
const TARGETS = { roundTripP50Us: 30, roundTripP99Us: 200, handshakeP50Ms: 3 }

function fixtureUrl(origin, name, query) {
  const search = new URLSearchParams(query).toString()
  return `${origin}/e2e/fixtures/${name}/${search ? `?${search}` : ''}`
}

export function variants(origins) {
  const widget = (name, mode) => fixtureUrl(origins.widget, name, { mode })
  return [
    { key: 'ours', label: 'ours (CallingHost ↔ CallingExtensions)', url: fixtureUrl(origins.harness, 'sdk-host', { bench: '1', widget: widget('sdk-widget', 'echo') }) },
    { key: 'npm', label: 'npm 0.9.7 (plain host ↔ npm widget)', url: fixtureUrl(origins.harness, 'plain-host', { widget: widget('npm-widget', 'echo') }) },
    { key: 'raw', label: 'raw postMessage echo', url: fixtureUrl(origins.harness, 'plain-host', { widget: widget('npm-widget', 'raw') }) },
  ]
}

/** Response headers that make every page cross-origin isolated. */
const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'cross-origin',
}

/**
 * Chromium clamps performance.now() to 100 µs unless the page is
 * cross-origin isolated (then 5 µs). serve-dist sends no COOP/COEP headers,
 * so the benchmark adds them to its own responses through a route.
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

function widgetFrame(page, origins) {
  const frame = page.frames().find((f) => f.url().startsWith(`${origins.widget}/`))
  if (!frame) throw new Error(`no widget frame from ${origins.widget} in ${page.url()}`)
  return frame
}

/** One page load: ms from the iframe's load event until both sides are ready. */
async function handshakeOnce(page, origins, url) {
  await page.goto(url, { waitUntil: 'load' })
  await page.waitForFunction(() => window.__readyAt != null, undefined, { timeout: 10_000 })
  const frame = widgetFrame(page, origins)
  await frame.waitForFunction(() => window.__readyAt != null, undefined, { timeout: 10_000 })
  const host = await page.evaluate(() => ({ loadAt: window.__loadAt, readyAt: window.__readyAt, isolated: self.crossOriginIsolated }))
  const widget = await frame.evaluate(() => ({ readyAt: window.__readyAt, isolated: self.crossOriginIsolated }))
  if (host.loadAt == null) throw new Error(`${url}: the host never saw the iframe load`)
  return { ms: Math.max(host.readyAt, widget.readyAt) - host.loadAt, isolated: host.isolated && widget.isolated }
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
const verdict = (value, target, unit) => (value <= target ? `≤ ${target} ${unit}: met` : `≤ ${target} ${unit}: MISSED by ${(value - target).toFixed(unit === 'ms' ? 2 : 1)} ${unit}`)

/**
 * `browser` is a launched Playwright Browser; `profile(page, variant)`
 * (optional) returns extra rows that break down where our SDK spends its time.
 */
export async function sdkSection({ browser, origins, isolation = true, profile }) {
  const context = await browser.newContext()
  if (isolation) await isolate(context, origins)
  const page = await context.newPage()
  const results = {}
  const list = variants(origins)
  let extraRows = []
  try {
    for (const variant of list) results[variant.key] = await measureVariant(page, origins, variant)
    if (profile) extraRows = await profile(page, list.find((v) => v.key === 'ours'), origins)
  } finally {
    await context.close()
  }
  const columns = list.map((v) => results[v.key])
  const ours = results.ours
  const rows = [
    [`handshake p50 (${HANDSHAKE_LOADS} loads)`, ...columns.map((r) => ms(r.handshakeP50Ms)), verdict(ours.handshakeP50Ms, TARGETS.handshakeP50Ms, 'ms')],
    [`handshake max (${HANDSHAKE_LOADS} loads)`, ...columns.map((r) => ms(r.handshakeMaxMs)), ''],
    [`round trip p50 (${ROUND_TRIPS.toLocaleString('en')})`, ...columns.map((r) => us(r.p50Us)), verdict(ours.p50Us, TARGETS.roundTripP50Us, 'µs')],
    [`round trip p99 (${ROUND_TRIPS.toLocaleString('en')})`, ...columns.map((r) => us(r.p99Us)), verdict(ours.p99Us, TARGETS.roundTripP99Us, 'µs')],
    [`round trip mean`, ...columns.map((r) => us(r.meanUs)), ''],
    [`round trip max`, ...columns.map((r) => us(r.maxUs)), ''],
  ]
  const isolated = columns.every((r) => r.isolated)
  const notes = [
    'round trip = host sends DIAL_NUMBER, the widget\'s onDialNumber answers with outgoingCall (OUTGOING_CALL_STARTED), host receives; sequential, after 2,000 warm-up round trips.',
    'handshake = iframe load event → host ready and widget onReady (raw: bare SYNC_ACK); widget SDK constructed at page load; first load of each column discarded.',
    `SDK overhead over raw at p50: ours +${us(ours.p50Us - results.raw.p50Us)}, npm +${us(results.npm.p50Us - results.raw.p50Us)}.`,
    isolated
      ? 'timer: cross-origin isolated pages (COOP/COEP added by the benchmark), performance.now() resolution 5 µs.'
      : 'timer: NOT cross-origin isolated: performance.now() is clamped to 100 µs, per-message percentiles are coarse.',
  ]
  return {
    title: 'SDK (Chromium, host :4173 ↔ widget :4174, two origins of one site)',
    header: ['metric', ...list.map((v) => v.label), 'target (ours)'],
    rows: [...rows, ...extraRows],
    notes,
    results,
  }
}
