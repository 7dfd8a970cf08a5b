// Section "Ladder of 10,000 messages": the inspector's ladder over the recorded call played
// again to 10,000 SDK messages (tools/bench/ladder-session.ts).
// - Node (vitest bench, tools/bench/ladder.bench.ts): reading the file, building the model, one
//   call, the layout, the full standalone SVG.
// - Chromium, the harness (dist/, browser-only mode) with no widget: Import of the file to the
//   first windowed render (file read, parse, model, React), timed in-page from the file input's
//   change event to the first arrow in the DOM; then scrolling the ladder three screens at a time
//   to its end, each step timed to the second animation frame; and how many arrows the DOM holds.
// No time is asserted: these are figures to read.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { byName, runVitestBench } from './api-section.mjs'
import { percentile } from './table.mjs'

const FILES = ['tools/bench/ladder.bench.ts']
const SCROLL_STEPS = 60

const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : 'n/a')

/** Writes the session file; returns its counts. */
function writeSession(root, path) {
  const run = spawnSync('npx', ['tsx', 'tools/bench/ladder-session.ts', path], { cwd: root, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`npx tsx tools/bench/ladder-session.ts failed:\n${run.stdout}${run.stderr}`)
  return JSON.parse(run.stdout.trim().split('\n').at(-1))
}

async function inBrowser(browser, origins, path) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
  try {
    await page.goto(`${origins.harness}/?${new URLSearchParams({ widget: 'http://127.0.0.1:9/none/' })}#/contacts`)
    const toggle = page.getByRole('button', { name: 'Show integration tools' })
    await toggle.waitFor()
    await toggle.click()
    await page.getByRole('tab', { name: 'Message inspector' }).click()
    await page.evaluate(() => {
      const bench = (window.__ladderBench = {})
      document.addEventListener('change', () => (bench.start = performance.now()), true)
      const seen = new MutationObserver(() => {
        if (bench.start !== undefined && document.querySelector('[data-arrow]')) {
          bench.firstArrow = performance.now()
          seen.disconnect()
        }
      })
      seen.observe(document.body, { childList: true, subtree: true })
    })
    await page.getByLabel('Import a traffic file').setInputFiles(path)
    await page.waitForFunction(() => window.__ladderBench.firstArrow !== undefined, undefined, { timeout: 120_000 })
    return await page.evaluate(async (steps) => {
      const bench = window.__ladderBench
      const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
      await frames()
      const scroller = document.querySelector('.ladder__scroller')
      const times = []
      let domArrows = document.querySelectorAll('[data-arrow]').length
      const jump = Math.max(1, Math.ceil((scroller.scrollHeight - scroller.clientHeight) / steps))
      for (let i = 0; i < steps; i++) {
        const t = performance.now()
        scroller.scrollTop += jump
        await frames()
        times.push(performance.now() - t)
        domArrows = Math.max(domArrows, document.querySelectorAll('[data-arrow]').length)
      }
      times.sort((a, b) => a - b)
      return { firstRenderMs: bench.firstArrow - bench.start, times, domArrows, reachedEnd: scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2 }
    }, SCROLL_STEPS)
  } finally {
    await page.close()
  }
}

export async function ladderSection({ root, browser, origins }) {
  const started = Date.now()
  const dir = mkdtempSync(join(tmpdir(), 'ringside-ladder-'))
  try {
    const path = join(dir, 'session.json')
    const session = writeSession(root, path)
    const node = byName(await runVitestBench(root, FILES))
    const median = (prefix) => [...node.entries()].find(([name]) => name.startsWith(prefix))?.[1]?.median ?? Number.NaN
    const page = await inBrowser(browser, origins, path)
    const results = {
      messages: session.messages,
      requests: session.requests,
      arrows: session.arrows,
      node: {
        parse_ms: round(median('parseTrafficFile')),
        build_ms: round(median('buildLadder')),
        one_call_ms: round(median('selectCall')),
        layout_ms: round(median('layoutLadder')),
        svg_ms: round(median('renderLadderSvg')),
        svg_bytes: session.svgBytes,
      },
      browser: {
        import_first_render_ms: round(page.firstRenderMs),
        scroll_step_p50_ms: round(percentile(page.times, 50)),
        scroll_step_max_ms: round(page.times.at(-1)),
        dom_arrows_max: page.domArrows,
      },
    }
    return {
      title: `Ladder of ${session.messages.toLocaleString('en')} messages (${session.requests.toLocaleString('en')} API requests, ${session.arrows.toLocaleString('en')} arrows, ${session.calls} calls)`,
      header: ['step', 'time (median)'],
      rows: [
        ['Node: parseTrafficFile (the file read back)', ms(results.node.parse_ms)],
        ['Node: buildLadder (the model: calls, links, findings, gaps, text alternatives)', ms(results.node.build_ms)],
        ['Node: selectCall (one call alone)', ms(results.node.one_call_ms)],
        ['Node: layoutLadder (row positions the window scrolls over)', ms(results.node.layout_ms)],
        [`Node: renderLadderSvg (the full standalone SVG, ${(session.svgBytes / 1e6).toFixed(1)} MB)`, ms(results.node.svg_ms)],
        ['Chromium: Import → first windowed render (read, parse, model, React)', ms(results.browser.import_first_render_ms)],
        [`Chromium: scroll step, 1/${SCROLL_STEPS} of the ladder, to the 2nd frame (p50)`, ms(results.browser.scroll_step_p50_ms)],
        ['Chromium: scroll step (max)', ms(results.browser.scroll_step_max_ms)],
      ],
      notes: [
        `The windowed view held at most ${page.domArrows} arrows in the DOM while scrolling over ${session.arrows.toLocaleString('en')}${page.reachedEnd ? ', and reached the end' : ', and DID NOT reach the end'}.`,
        'A scroll step is timed to the second animation frame after it (at least one frame, ~16.7 ms at 60 Hz).',
        `npx vitest bench --run --project node ${FILES.join(' ')}; ${((Date.now() - started) / 1000).toFixed(1)} s for the section.`,
      ],
      results,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function round(x) {
  return Number.isFinite(x) ? Math.round(x * 10) / 10 : null
}
