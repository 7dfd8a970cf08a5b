// Section "SDK": handshake time and message round trips in real Chromium,
// host page on the harness origin, widget iframe on the widget origin (two
// origins of one site, so one renderer process). Everything is timed in-page
// with performance.now().
//
// Pairs (pages built from e2e/fixtures/), each muted (`quiet=1`) and unmuted:
//   ours = plain-host (no SDK)     ↔ sdk-widget?mode=echo (our CallingExtensions, debugMode off)
//   npm  = plain-host              ↔ npm-widget?mode=echo (@hubspot/calling-extensions-sdk 0.9.7)
//   raw  = plain-host              ↔ npm-widget?mode=raw  (a bare postMessage echo, no SDK)
//   host = sdk-host (CallingHost)  ↔ npm-widget?mode=echo
//   pair = sdk-host                ↔ sdk-widget?mode=echo
//   npmhost = npm-host (the npm package's own host side, `iFrameOptions`) ↔ npm-widget?mode=echo,
//     handshakes only: the like-for-like baseline of our host's handshake (that host side answers
//     every widget → host type with an UNKNOWN_MESSAGE_TYPE error, so it runs no round trips)
//
// The variants of one mode are measured interleaved, never one after another: handshakes
// load the pairs in turn, and round trips run in rounds in which every pair takes its turn
// (measureMode), so a change in the machine's load falls on every pair alike.
//
// Run alone (after a build): node tools/bench/sdk-section.mjs prints this section and the host
// side's targets as reports/bench.json holds them (sdk.host_side); npm run bench writes them.
//
// No console listener is attached and the widgets run with debugMode off.
// Even so, Playwright keeps the DevTools Runtime domain enabled, so every
// console call is reported over CDP (~0.1 ms each). The npm package logs
// every message with console.debug; ours (debugMode off) logs only the
// handshake and rejected messages. Hence the extra "console.debug muted" rows.
import { percentile } from './table.mjs'
import { BATCH, batchMedian, medianCi95, quartiles, rotated } from './sdk-stats.mjs'

/**
 * Handshakes per pair and mode. Muted carries the target (host ≤ npm), and a loaded machine
 * spreads single loads over milliseconds where the SDKs differ by a tenth of one: 40 loads
 * shrink the median's wobble by √2 against 20. Unmuted is shown only.
 */
export const HANDSHAKE_LOADS = { muted: 40, unmuted: 20 }
/** Round trips per variant: ROUNDS interleaved rounds of SEGMENT each (SEGMENT a multiple of BATCH). */
const ROUNDS = 25
const SEGMENT = 400
export const ROUND_TRIPS = ROUNDS * SEGMENT
const WARMUP_ROUND_TRIPS = 2_000

export function fixtureUrl(origin, name, query) {
  const search = new URLSearchParams(query).toString()
  return `${origin}/e2e/fixtures/${name}/${search ? `?${search}` : ''}`
}

/** The pairs, each named by what runs on each side (the same plain host page for ours, npm and raw). */
export const PAIRS = [
  { key: 'ours', label: 'ours (plain host ↔ our CallingExtensions)' },
  { key: 'npm', label: 'npm 0.9.7 (plain host ↔ npm widget)' },
  { key: 'raw', label: 'raw (plain host ↔ bare postMessage echo)' },
  { key: 'host', label: 'host (our CallingHost ↔ npm widget)' },
  { key: 'pair', label: 'pair (our CallingHost ↔ our CallingExtensions)' },
  { key: 'npmhost', label: "npm host (the npm package's host side ↔ npm widget; handshakes only)", handshakeOnly: true },
]
export const MODES = ['muted', 'unmuted']

/** The measured pages, `${mode}.${pair}`; muted = console.debug muted in both frames (quiet=1). */
export function variants(origins) {
  const widget = (name, query) => fixtureUrl(origins.testWidgets, name, query)
  const list = []
  for (const mode of MODES) {
    const q = mode === 'muted' ? { quiet: '1' } : {}
    const plain = (w) => fixtureUrl(origins.testPages, 'plain-host', { ...q, widget: w })
    const sdkHost = (w) => fixtureUrl(origins.testPages, 'sdk-host', { bench: '1', ...q, widget: w })
    const urls = {
      ours: plain(widget('sdk-widget', { mode: 'echo', ...q })),
      npm: plain(widget('npm-widget', { mode: 'echo', ...q })),
      raw: plain(widget('npm-widget', { mode: 'raw', ...q })),
      host: sdkHost(widget('npm-widget', { mode: 'echo', ...q })),
      pair: sdkHost(widget('sdk-widget', { mode: 'echo', ...q })),
      npmhost: fixtureUrl(origins.testPages, 'npm-host', { ...q, widget: widget('npm-widget', { mode: 'echo', ...q }) }),
    }
    for (const { key, handshakeOnly = false } of PAIRS) list.push({ key: `${mode}.${key}`, mode, pair: key, url: urls[key], handshakeOnly })
  }
  return list
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
  const frame = page.frames().find((f) => f.url().startsWith(`${origins.testWidgets}/`))
  if (!frame) throw new Error(`no widget frame from ${origins.testWidgets} in ${page.url()}`)
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
    throw new Error(`no handshake within ${READY_TIMEOUT_MS / 1000} s on ${url} (host state ${JSON.stringify(state)}): ${error.message}`, { cause: error })
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

/**
 * One handshake comparison, muted: our host (CallingHost ↔ npm widget) against a baseline pair
 * with the same npm widget. `met` is the verdict: the median of host − baseline over the
 * interleaved turns (the two loads of one turn ran back to back, so a change in the machine's
 * load falls on both) is at most 0; `p50_met` compares the two p50s. Single loads spread over
 * milliseconds (the host page's first rendering after the iframe's load runs before the SYNC
 * arrives, and a loaded machine preempts), where the host sides differ by a tenth of one:
 * `paired_ci95_ms` says how far the median of the differences can move by chance.
 */
function handshakeVersus(m, baseline) {
  const round = (x) => Math.round(x * 100) / 100
  const host = m('host')
  const base = m(baseline)
  const loads = host.handshakes.map((ms, i) => ms - base.handshakes[i])
  return {
    p50_ms: { [baseline]: round(base.handshakeP50Ms), host: round(host.handshakeP50Ms) },
    iqr_ms: { [baseline]: [round(base.handshakeP25Ms), round(base.handshakeP75Ms)], host: [round(host.handshakeP25Ms), round(host.handshakeP75Ms)] },
    /** host − baseline of the two loads of one interleaved turn, over the turns. */
    paired_diff_ms: quartiles(loads, 2),
    paired_ci95_ms: medianCi95(loads).map(round),
    p50_met: host.handshakeP50Ms <= base.handshakeP50Ms,
    met: percentile([...loads].sort((a, b) => a - b), 50) <= 0,
  }
}

/**
 * The host side's targets, muted, from one run: what our CallingHost adds per round trip
 * (host − npm: the same npm widget behind our host and behind the plain host page) must be
 * no more than what the npm widget adds over a bare postMessage echo (npm − raw), and its
 * handshake no longer than npm's. For reports/bench.json.
 *
 * The handshake is compared twice (handshakeVersus): `handshake_vs_npm_host` against the npm
 * package's own host side, like for like (each host side an SDK's, the same npm widget behind
 * both), which gives the verdict `handshake_met`; and `handshake_vs_plain_host` against the
 * plain host page, which runs no SDK code at all: a bound no SDK's host side can beat by more
 * than the noise, shown beside it.
 *
 * The verdict on the round trip (`roundtrip_met`) compares the medians of 20-round-trip means
 * (the 5 µs clock makes a plain p50 jump in 5 µs steps; `roundtrip_p50_met` is that coarser
 * comparison), over all samples of the interleaved rounds. `per_round` shows the spread: the
 * same two differences within each round (the three variants ran back to back), as quartiles
 * over the rounds, and in how many rounds the host side was within npm's widget side.
 */
export function hostSideFigures(r) {
  const m = (pair) => r[`muted.${pair}`]
  const round = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits
  // Compared at 0.01 µs: the 5 µs steps of the p50s come out of ms × 1000 with float error.
  const hostAdded = round(m('host').p50Us - m('npm').p50Us, 2)
  const npmAdded = round(m('npm').p50Us - m('raw').p50Us, 2)
  const hostAddedFine = round(m('host').batchP50Us - m('npm').batchP50Us, 2)
  const npmAddedFine = round(m('npm').batchP50Us - m('raw').batchP50Us, 2)
  const rounds = m('host').roundBatchP50Us.map((host, k) => {
    const npm = m('npm').roundBatchP50Us[k]
    return { host: host - npm, npm: npm - m('raw').roundBatchP50Us[k] }
  })
  const versusNpmHost = handshakeVersus(m, 'npmhost')
  return {
    roundtrip_p50_us: { raw: round(m('raw').p50Us, 1), npm: round(m('npm').p50Us, 1), host: round(m('host').p50Us, 1) },
    host_added_us: round(hostAdded, 1),
    npm_widget_added_us: round(npmAdded, 1),
    roundtrip_p50_met: hostAdded <= npmAdded,
    roundtrip_batch_p50_us: { raw: round(m('raw').batchP50Us, 2), npm: round(m('npm').batchP50Us, 2), host: round(m('host').batchP50Us, 2) },
    host_added_batch_us: round(hostAddedFine, 2),
    npm_widget_added_batch_us: round(npmAddedFine, 2),
    roundtrip_met: hostAddedFine <= npmAddedFine,
    per_round: {
      rounds: rounds.length,
      round_trips_per_variant: SEGMENT,
      host_added_batch_us: quartiles(rounds.map((x) => x.host), 2),
      npm_widget_added_batch_us: quartiles(rounds.map((x) => x.npm), 2),
      met_in: rounds.filter((x) => x.host <= x.npm).length,
    },
    handshake_met: versusNpmHost.met,
    handshake_vs_npm_host: versusNpmHost,
    handshake_vs_plain_host: handshakeVersus(m, 'npm'),
  }
}

/** Summary figures of one variant's samples: all its round trips (ms, in the order taken) and its handshakes (ms). */
function summarize(samples, handshakes, segments, isolated) {
  const sortedMs = [...samples].sort((a, b) => a - b)
  const sortedHandshakes = [...handshakes].sort((a, b) => a - b)
  const handshake = {
    isolated,
    handshakeP50Ms: percentile(sortedHandshakes, 50),
    handshakeP25Ms: percentile(sortedHandshakes, 25),
    handshakeP75Ms: percentile(sortedHandshakes, 75),
    handshakeMaxMs: sortedHandshakes.at(-1),
    handshakes,
  }
  // A pair that runs handshakes only has no round-trip figures.
  if (samples.length === 0) return handshake
  return {
    ...handshake,
    p50Us: percentile(sortedMs, 50) * 1000,
    batchP50Us: batchMedian(samples) * 1000,
    p99Us: percentile(sortedMs, 99) * 1000,
    meanUs: (samples.reduce((sum, x) => sum + x, 0) / samples.length) * 1000,
    maxUs: sortedMs.at(-1) * 1000,
    /** Per interleaved round: the median of this variant's 20-round-trip means in that round (µs). */
    roundBatchP50Us: segments.map((segment) => batchMedian(segment) * 1000),
  }
}

/**
 * One mode's variants, interleaved so that the machine's load falls on every variant alike
 * (a shared machine's load moves by several times within a minute; measured one variant after
 * another, the verdict would compare figures taken under different loads):
 * - handshakes: one page loads the variants in turn, load by load, the order turned each time;
 * - round trips: one page per variant, all loaded and warmed up, then ROUNDS rounds in which
 *   each page runs SEGMENT round trips in turn, the order turned each round. Every variant
 *   gets the same number of samples, taken in the same stretches of time.
 */
async function measureMode(context, origins, list, loads) {
  const handshakes = Object.fromEntries(list.map((v) => [v.key, []]))
  const isolated = Object.fromEntries(list.map((v) => [v.key, true]))
  const loadPage = await context.newPage()
  try {
    for (let i = 0; i <= loads; i++) {
      for (const variant of rotated(list, i)) {
        const result = await handshakeOnce(loadPage, origins, variant.url)
        isolated[variant.key] &&= result.isolated
        if (i > 0) handshakes[variant.key].push(result.ms) // the first load of each warms caches and the JIT
      }
    }
  } finally {
    await loadPage.close()
  }
  const pages = {}
  const segments = Object.fromEntries(list.map((v) => [v.key, []]))
  const tripping = list.filter((v) => !v.handshakeOnly)
  try {
    for (const variant of tripping) {
      pages[variant.key] = await context.newPage()
      await loadReady(pages[variant.key], origins, variant.url)
    }
    for (const variant of tripping) {
      await withTimeout(pages[variant.key].evaluate((n) => window.__benchRoundTrips(n), WARMUP_ROUND_TRIPS), 60_000, `${variant.key} warm-up`)
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of rotated(tripping, round)) {
        const samples = await withTimeout(pages[variant.key].evaluate((n) => window.__benchRoundTrips(n), SEGMENT), 60_000, `${variant.key} round trips`)
        if (samples.length !== SEGMENT) throw new Error(`${variant.key}: expected ${SEGMENT} samples, got ${samples.length}`)
        segments[variant.key].push(samples)
      }
    }
  } finally {
    for (const page of Object.values(pages)) await page.close()
  }
  return Object.fromEntries(list.map((v) => [v.key, summarize(segments[v.key].flat(), handshakes[v.key], segments[v.key], isolated[v.key])]))
}

const us = (x) => `${x.toFixed(1)} µs`
const ms = (x) => `${x.toFixed(2)} ms`

/**
 * `browser` is a launched Playwright Browser; `profile(page, byKey, origins)`
 * (optional) returns extra rows that break down where our SDK spends its time.
 */
export async function sdkSection({ browser, origins, isolation = true, profile }) {
  const context = await browser.newContext()
  if (isolation) await isolate(context, origins)
  const list = variants(origins)
  const byKey = Object.fromEntries(list.map((v) => [v.key, v]))
  const r = {}
  let profileRows = []
  try {
    for (const mode of MODES) Object.assign(r, await measureMode(context, origins, list.filter((v) => v.mode === mode), HANDSHAKE_LOADS[mode]))
    if (profile) profileRows = await profile(await context.newPage(), byKey, origins, { isolation })
  } finally {
    await context.close()
  }
  const n = ROUND_TRIPS.toLocaleString('en')
  const cells = (mode, pick) => PAIRS.map(({ key }) => pick(r[`${mode}.${key}`]))
  // A handshake-only pair has no round-trip figures: its cells show a dash.
  const tripCells = (mode, pick) => PAIRS.map(({ key, handshakeOnly }) => (handshakeOnly ? '—' : pick(r[`${mode}.${key}`])))
  const over = (mode, key) => Math.round((r[`${mode}.${key}`].p50Us - r[`${mode}.raw`].p50Us) * 100) / 100
  const hostSide = hostSideFigures(r)
  const verdict = (met) => (met ? 'met' : 'MISSED')
  const signed = (x) => `${x >= 0 ? '+' : '−'}${us(Math.abs(x))}`
  const rows = []
  for (const mode of MODES) {
    rows.push([mode === 'muted' ? 'console.debug muted on both pages (no DevTools cost):' : 'console.debug live (Playwright reports every console call over CDP):', ...PAIRS.map(() => ''), ''])
    const muted = mode === 'muted'
    const oursOver = over(mode, 'ours')
    const npmOver = over(mode, 'npm')
    const hsRatio = r[`${mode}.ours`].handshakeP50Ms / r[`${mode}.npm`].handshakeP50Ms
    const versus = (name, x) => {
      const { p25, p50, p75 } = x.paired_diff_ms
      const [low, high] = x.paired_ci95_ms
      return `${name}: ${verdict(x.met)}, median ${p50} ms (95% CI ${low} to ${high}; p25 ${p25}, p75 ${p75}); p50s ${verdict(x.p50_met)}`
    }
    const perRound = hostSide.per_round
    rows.push(
      [`  handshake p50 (${HANDSHAKE_LOADS[mode]} loads)`, ...cells(mode, (x) => ms(x.handshakeP50Ms)), muted ? `ours ≤ 1.10× npm: ${verdict(hsRatio <= 1.1)} (${hsRatio.toFixed(2)}×)` : ''],
      [`  handshake p25–p75`, ...cells(mode, (x) => `${x.handshakeP25Ms.toFixed(2)}–${ms(x.handshakeP75Ms)}`), muted ? versus("host ≤ npm's host side, load by load (the verdict)", hostSide.handshake_vs_npm_host) : ''],
      [`  handshake max`, ...cells(mode, (x) => ms(x.handshakeMaxMs)), muted ? versus('host ≤ the plain host page (no SDK), load by load', hostSide.handshake_vs_plain_host) : ''],
      [`  round trip p50 (${n})`, ...tripCells(mode, (x) => us(x.p50Us)), muted ? `ours − raw ≤ npm − raw: ${verdict(oursOver <= npmOver)} (${signed(oursOver)} vs ${signed(npmOver)}); host − npm ≤ npm − raw: ${verdict(hostSide.roundtrip_p50_met)} (${signed(hostSide.host_added_us)} vs ${signed(hostSide.npm_widget_added_us)})` : ''],
      [`  round trip p99`, ...tripCells(mode, (x) => us(x.p99Us)), ''],
      [`  round trip mean`, ...tripCells(mode, (x) => us(x.meanUs)), ''],
      [`  round trip, median of ${BATCH}-round-trip means`, ...tripCells(mode, (x) => us(x.batchP50Us)), muted ? `host − npm ≤ npm − raw: ${verdict(hostSide.roundtrip_met)} (${signed(hostSide.host_added_batch_us)} vs ${signed(hostSide.npm_widget_added_batch_us)})` : ''],
      ...(muted
        ? [[`  … the same per round (${perRound.rounds} rounds)`, ...PAIRS.map(() => ''), `host − npm p25/p50/p75 ${perRound.host_added_batch_us.p25}/${perRound.host_added_batch_us.p50}/${perRound.host_added_batch_us.p75} µs vs npm − raw ${perRound.npm_widget_added_batch_us.p25}/${perRound.npm_widget_added_batch_us.p50}/${perRound.npm_widget_added_batch_us.p75} µs; met in ${perRound.met_in} of ${perRound.rounds} rounds`]]
        : []),
    )
  }
  const isolated = Object.values(r).every((x) => x.isolated)
  const notes = [
    `round trip = host sends DIAL_NUMBER, the widget's onDialNumber answers with outgoingCall (OUTGOING_CALL_STARTED), host receives it; sequential, timed in the host page. One page per pair, each warmed up with ${WARMUP_ROUND_TRIPS.toLocaleString('en')} round trips, then ${ROUNDS} rounds in which every pair runs ${SEGMENT} round trips in turn (order turned each round), so the machine's load falls on all pairs alike.`,
    `handshake = iframe load event → host ready and widget onReady (raw: bare SYNC_ACK); widget SDK constructed at page load; one page loads the pairs in turn (order turned each time), ${HANDSHAKE_LOADS.muted + 1} loads each muted and ${HANDSHAKE_LOADS.unmuted + 1} unmuted, the first discarded. The host-side verdict is the median of host − npm host over the turns (the two loads of a turn back to back), with host − npm (the plain page, no SDK) beside it; their 95% CIs show the noise.`,
    "ours, npm and raw use the same plain host page (no SDK), so their difference is the widget side alone; host adds our CallingHost to the npm widget; pair is our two sides together; npm host is the npm package's own host side (its iFrameOptions mode) with the npm widget, for handshakes only.",
    isolated
      ? 'timer: host pages cross-origin isolated (COOP/COEP added by the benchmark), performance.now() resolution 5 µs.'
      : 'timer: host pages NOT cross-origin isolated: performance.now() is clamped to 100 µs, per-message percentiles are coarse.',
  ]
  return {
    title: `SDK (Chromium, host ${new URL(origins.testPages).port} ↔ widget ${new URL(origins.testWidgets).port}, two origins of one site)`,
    header: ['metric', ...PAIRS.map((p) => p.label), 'target'],
    rows: [...rows, ...profileRows],
    notes,
    results: r,
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { standalone } = await import('./standalone.mjs')
  const { printSection } = await import('./table.mjs')
  await standalone(async ({ browser, origins }) => {
    const section = await sdkSection({ browser, origins })
    printSection(section)
    console.log(`\nsdk.host_side: ${JSON.stringify(hostSideFigures(section.results), null, 2)}`)
  })
}
