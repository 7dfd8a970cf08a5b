// Where our SDK's round-trip time goes: micro-timings of the pieces of one
// round trip, measured in-page on the "pair" pages (sdk-host ↔ sdk-widget)
// through the fixtures' __profile(n) functions (mean µs per call over n
// calls, best of RUNS runs, as a busy machine only ever adds time), with
// console.debug live and muted; and where the handshake's time goes, by
// phase, for every pair (handshake-phases.mjs).
import { handshakePhases } from './handshake-phases.mjs'
import { PAIRS, loadReady } from './sdk-section.mjs'

const CALLS = 2_000
const RUNS = 3

const us = (x) => `${x.toFixed(2)} µs`

/** Field-wise minimum of the runs; `firstValidateUs` only means something in the first run. */
function best(runs) {
  const out = { ...runs[0] }
  for (const run of runs.slice(1)) {
    for (const [key, value] of Object.entries(run)) if (key !== 'firstValidateUs') out[key] = Math.min(out[key], value)
  }
  return out
}

async function profilePage(page, origins, url) {
  const frame = await loadReady(page, origins, url)
  const host = []
  const widget = []
  for (let i = 0; i < RUNS; i++) {
    host.push(await page.evaluate((n) => window.__profile(n), CALLS))
    widget.push(await frame.evaluate((n) => window.__profile(n), CALLS))
  }
  return { host: best(host), widget: best(widget) }
}

const PHASE_LOADS = 20

export async function profileOurSdk(page, byKey, origins, { isolation = true } = {}) {
  const loud = await profilePage(page, origins, byKey['unmuted.pair'].url)
  const quiet = await profilePage(page, origins, byKey['muted.pair'].url)
  const phases = await handshakePhases(page.context().browser(), origins, { isolation, loads: PHASE_LOADS })
  const row = (label, value) => [`  ${label}`, us(value), '', '', '']
  const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(2)} ms` : '')
  const phaseRow = (label, key) => [`  ${label}`, ...PAIRS.map(({ key: pair }) => ms(phases[pair][key])), '']
  return [
    [`where the handshake goes (console.debug muted, median of ${PHASE_LOADS} loads per pair, pairs interleaved):`, '', '', '', '', '', ''],
    phaseRow('whole handshake (iframe load → both ready)', 'total'),
    phaseRow('iframe load → SYNC event in the widget', 'toSync'),
    phaseRow("… of it the host page's load listeners (starting the handshake: SYNC built and posted)", 'onLoad'),
    phaseRow("SYNC event → SYNC_ACK event in the host (the widget SDK's answer)", 'answer'),
    phaseRow('SYNC_ACK event → both ready', 'ready'),
    phaseRow('our CallingHost: SYNC_ACK event → status ready', 'toStatus'),
    [`where ours spends it (mean of ${CALLS.toLocaleString('en')} calls, best of ${RUNS} runs):`, '', '', '', ''],
    row('host: first validateMessage of a type (cold: V8 compiles the validator on its first call)', quiet.host.firstValidateUs),
    row('host: validateMessage(OUTGOING_CALL_STARTED)', quiet.host.validateUs),
    row('host: dialNumber(), whole send path (no traffic listener)', loud.host.sendUs),
    row('host: dialNumber(), console.debug muted', quiet.host.sendUs),
    row('host: bare postMessage of the same DIAL_NUMBER', quiet.host.rawPostUs),
    row('widget: validateMessage(DIAL_NUMBER)', quiet.widget.validateUs),
    row('widget: outgoingCall(), whole send path', loud.widget.sendUs),
    row('widget: outgoingCall(), console.debug muted', quiet.widget.sendUs),
    row('widget: bare postMessage of the same reply', quiet.widget.rawPostUs),
    row('one console.debug call under Playwright', loud.widget.consoleDebugUs),
  ]
}
