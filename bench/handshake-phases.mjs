// Where the handshake's time goes, per pair (console.debug muted): a script
// injected before every frame's own scripts (context.addInitScript) stamps,
// on one clock (timeOrigin + now), when the widget frame's first SYNC event
// arrives and when the host page's first SYNC_ACK event arrives; the fixtures
// stamp the iframe load (host) and onReady (widget). Phases of one load:
//   load → SYNC at widget: the host's reaction to load plus the post;
//   SYNC at widget → SYNC_ACK at host: the widget SDK's answer plus the post back;
//   SYNC_ACK at host → both ready: the host's and the widget's ready work;
//   for our CallingHost also SYNC_ACK at host → status 'ready' (the sdk-host
//   fixture stamps it): receiving, judging and accepting the SYNC_ACK.
// Median of LOADS loads per pair, the pairs interleaved load by load so that
// the machine's load hits them alike. Run alone: node bench/handshake-phases.mjs
// (after a build; it serves dist/ like npm run bench), or through profile.mjs.
import { percentile } from './table.mjs'
import { isolate, loadReady, variants } from './sdk-section.mjs'

export const LOADS = 30
const PAIRS = ['ours', 'npm', 'raw', 'host', 'pair']

function stamp() {
  const clock = () => performance.timeOrigin + performance.now()
  window.addEventListener(
    'message',
    (event) => {
      const type = event.data && typeof event.data === 'object' ? event.data.type : undefined
      if (type === 'SYNC' && window.__syncSeenAt == null) window.__syncSeenAt = clock()
      if (type === 'SYNC_ACK' && window.__ackSeenAt == null) window.__ackSeenAt = clock()
    },
    { capture: true },
  )
}

async function phasesOnce(page, origins, url) {
  const frame = await loadReady(page, origins, url)
  const host = await page.evaluate(() => ({ loadAt: window.__loadAt, readyAt: window.__readyAt, ackSeenAt: window.__ackSeenAt, statusAt: window.__statusReadyAt }))
  const widget = await frame.evaluate(() => ({ readyAt: window.__readyAt, syncSeenAt: window.__syncSeenAt }))
  return {
    total: Math.max(host.readyAt, widget.readyAt) - host.loadAt,
    toSync: widget.syncSeenAt - host.loadAt,
    answer: host.ackSeenAt - widget.syncSeenAt,
    ready: Math.max(host.readyAt, widget.readyAt) - host.ackSeenAt,
    // our CallingHost only: SYNC_ACK event → status 'ready' (receive, judge, accept the SYNC_ACK)
    toStatus: host.statusAt == null ? NaN : host.statusAt - host.ackSeenAt,
  }
}

/** Median phases (ms) per muted pair. */
export async function handshakePhases(browser, origins, { isolation = true, loads = LOADS } = {}) {
  const context = await browser.newContext()
  if (isolation) await isolate(context, origins)
  await context.addInitScript(stamp)
  const page = await context.newPage()
  const urls = Object.fromEntries(variants(origins).filter((v) => v.mode === 'muted').map((v) => [v.pair, v.url]))
  const samples = Object.fromEntries(PAIRS.map((p) => [p, []]))
  try {
    for (const pair of PAIRS) await phasesOnce(page, origins, urls[pair]) // warm caches and the JIT
    for (let i = 0; i < loads; i++) for (const pair of PAIRS) samples[pair].push(await phasesOnce(page, origins, urls[pair]))
  } finally {
    await context.close()
  }
  const median = (list, key) => percentile(list.map((x) => x[key]).sort((a, b) => a - b), 50)
  return Object.fromEntries(PAIRS.map((p) => [p, Object.fromEntries(['total', 'toSync', 'answer', 'ready', 'toStatus'].map((k) => [k, median(samples[p], k)]))]))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { standalone } = await import('./standalone.mjs')
  await standalone(async ({ browser, origins }) => {
    const result = await handshakePhases(browser, origins, { loads: Number(process.env.LOADS ?? LOADS) })
    console.log('pair   total   load→SYNC   SYNC→ACK   ACK→ready   ACK→status ready (our host)   (median ms, muted)')
    for (const [pair, x] of Object.entries(result)) {
      console.log(`${pair.padEnd(6)} ${x.total.toFixed(2).padStart(5)}   ${x.toSync.toFixed(2).padStart(9)}   ${x.answer.toFixed(2).padStart(8)}   ${x.ready.toFixed(2).padStart(9)}   ${Number.isFinite(x.toStatus) ? x.toStatus.toFixed(2) : ''}`)
    }
  })
}
