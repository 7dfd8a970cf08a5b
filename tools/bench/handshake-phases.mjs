// Where the handshake's time goes, per pair (console.debug muted): a script
// injected before every frame's own scripts (context.addInitScript) stamps,
// on one clock (timeOrigin + now), when the widget frame's first SYNC event
// arrives and when the host page's first SYNC_ACK event arrives; the fixtures
// stamp the iframe load (host) and onReady (widget). Phases of one load:
//   load → SYNC at widget: the host's reaction to load plus the post, and whatever the
//     browser runs before the SYNC's task (the host page's first rendering after the load);
//   the host page's load listeners alone (a capture listener registered before the page's
//     own and a listener on the iframe added after them stamp it): the host's own work;
//   SYNC at widget → SYNC_ACK at host: the widget SDK's answer plus the post back;
//   SYNC_ACK at host → both ready: the host's and the widget's ready work;
//   for our CallingHost also SYNC_ACK at host → status 'ready' (the sdk-host
//   fixture stamps it): receiving, judging and accepting the SYNC_ACK.
// Median of LOADS loads per pair, the pairs interleaved load by load so that
// the machine's load hits them alike. Run alone: node tools/bench/handshake-phases.mjs
// (after a build; it serves dist/ like npm run bench), or through profile.mjs.
import { percentile } from './table.mjs'
import { PAIRS as SDK_PAIRS, isolate, loadReady, variants } from './sdk-section.mjs'

export const LOADS = 30
const PAIRS = SDK_PAIRS.map((p) => p.key)

function stamp() {
  const clock = () => performance.timeOrigin + performance.now()
  // The host page's handling of the iframe's load event, from before the page's own listeners
  // (this capture listener is registered first) to after them (a listener on the iframe itself,
  // added once the page has inserted it, so after the page's own).
  document.addEventListener(
    'load',
    (event) => {
      if (event.target instanceof HTMLIFrameElement && window.__loadSeenAt == null) {
        window.__loadTarget = event.target
        window.__loadSeenAt = clock()
      }
    },
    { capture: true },
  )
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof HTMLIFrameElement)) continue
        node.addEventListener('load', (event) => {
          if (event.target === window.__loadTarget && window.__loadDoneAt == null) window.__loadDoneAt = clock()
        })
      }
    }
  }).observe(document, { childList: true, subtree: true })
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
  const host = await page.evaluate(() => ({ loadAt: window.__loadAt, readyAt: window.__readyAt, ackSeenAt: window.__ackSeenAt, statusAt: window.__statusReadyAt, loadSeenAt: window.__loadSeenAt, loadDoneAt: window.__loadDoneAt }))
  const widget = await frame.evaluate(() => ({ readyAt: window.__readyAt, syncSeenAt: window.__syncSeenAt }))
  return {
    total: Math.max(host.readyAt, widget.readyAt) - host.loadAt,
    toSync: widget.syncSeenAt - host.loadAt,
    // the host page's load listeners: our CallingHost or the plain page starting the handshake (SYNC built and posted)
    onLoad: host.loadDoneAt - host.loadSeenAt,
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
  return Object.fromEntries(PAIRS.map((p) => [p, Object.fromEntries(['total', 'onLoad', 'toSync', 'answer', 'ready', 'toStatus'].map((k) => [k, median(samples[p], k)]))]))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { standalone } = await import('./standalone.mjs')
  await standalone(async ({ browser, origins }) => {
    const result = await handshakePhases(browser, origins, { loads: Number(process.env.LOADS ?? LOADS) })
    console.log('pair   total   host load listeners   load→SYNC   SYNC→ACK   ACK→ready   ACK→status ready (our host)   (median ms, muted)')
    for (const [pair, x] of Object.entries(result)) {
      const cell = (value, width) => value.toFixed(2).padStart(width)
      console.log(`${pair.padEnd(6)} ${cell(x.total, 5)}   ${cell(x.onLoad, 19)}   ${cell(x.toSync, 9)}   ${cell(x.answer, 8)}   ${cell(x.ready, 9)}   ${Number.isFinite(x.toStatus) ? x.toStatus.toFixed(2) : ''}`)
    }
  })
}
