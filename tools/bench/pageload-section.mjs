// Section "Harness page load": what one load of the harness costs, as nearly
// every e2e test pays it. The `npm start` server runs from dist/ as the e2e
// tests run it (--dist --sandboxes, a scratch data folder, in a child
// process); each load is a fresh browser context (a fresh sandbox CRM, an
// empty HTTP cache), opens the route and waits for "Widget ready" in the top
// bar, then 1 s for the page's last requests. Per load: the page renderer's
// main thread (CDP Performance TaskDuration: every task, layout and paint
// included; the widget's frame runs in the same process) and, of it, script
// (ScriptDuration); the CPU of every Chromium process (user + system from
// /proc, 10 ms ticks) and of the server; the API requests the page made; the
// time to "Widget ready". The routes are interleaved load by load so that the
// machine's load hits them alike. Run alone: `node tools/bench/pageload-section.mjs`
// (after `npm run build`).
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { tsImport } from 'tsx/esm/api'
import { percentile, sorted } from './table.mjs'

const LOADS = 15
const SETTLE_MS = 1000
const ROUTES = [
  { key: 'record', route: '/contacts/1', label: 'record page #/contacts/1' },
  { key: 'list', route: '/contacts', label: 'record list #/contacts' },
]
const API_PATH = /^\/(?:crm|_ringside|oauth|integrators)\//

/**
 * CPU (ms) the processes under `root` (leaving out the subtree of `skip`) used between two process tables: each
 * process's own difference, so a process that ended meanwhile (the previous context's renderer) subtracts nothing.
 */
function treeCpuDeltaMs(before, after, root, skip) {
  let total = 0
  const children = new Map()
  for (const [pid, { ppid }] of after) children.set(ppid, [...(children.get(ppid) ?? []), pid])
  const stack = [...(children.get(root) ?? [])]
  while (stack.length > 0) {
    const pid = stack.pop()
    if (pid === skip) continue
    total += after.get(pid).cpuMs - (before.get(pid)?.cpuMs ?? 0)
    stack.push(...(children.get(pid) ?? []))
  }
  return total
}

async function loadOnce(browser, baseUrl, route, serverPid, processTable) {
  const context = await browser.newContext({ baseURL: baseUrl })
  try {
    const page = await context.newPage()
    let apiRequests = 0
    page.on('request', (request) => {
      if (API_PATH.test(new URL(request.url()).pathname)) apiRequests++
    })
    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')
    const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]))
    const before = { metrics: await metrics(), table: processTable() }
    const started = performance.now()
    await page.goto(`/#${route}`)
    await page.getByRole('group', { name: 'Calling status' }).filter({ hasText: 'Widget ready' }).waitFor({ timeout: 30_000 })
    const readyMs = performance.now() - started
    await page.waitForTimeout(SETTLE_MS)
    const after = { metrics: await metrics(), table: processTable() }
    return {
      mainThreadMs: (after.metrics.TaskDuration - before.metrics.TaskDuration) * 1000,
      scriptMs: (after.metrics.ScriptDuration - before.metrics.ScriptDuration) * 1000,
      chromiumCpuMs: treeCpuDeltaMs(before.table, after.table, process.pid, serverPid),
      serverCpuMs: (after.table.get(serverPid)?.cpuMs ?? 0) - (before.table.get(serverPid)?.cpuMs ?? 0),
      apiRequests,
      readyMs,
    }
  } finally {
    await context.close()
  }
}

const p50 = (runs, key) => percentile(sorted(runs.map((r) => r[key])), 50)

export async function pageLoadSection({ browser }) {
  const started = Date.now()
  // The server tests' helpers: `npm start` as a child process, free ports, scratch folders.
  const { freePortPair, removeScratchDirs, runCli, scratchDir, waitForServer } = await tsImport('../../emulator/node/test/support.ts', import.meta.url)
  const { processTable } = await tsImport('../../emulator/node/storage/proc-stat.ts', import.meta.url)
  const port = await freePortPair()
  const run = runCli(['--dist', '--sandboxes', '--fresh', '--data', scratchDir('pageload'), '--port', String(port)])
  const baseUrl = `http://127.0.0.1:${port}`
  const runs = Object.fromEntries(ROUTES.map(({ key }) => [key, []]))
  try {
    await waitForServer(baseUrl, run)
    // One load of each route first, not counted: the server compiles its paths on its first requests.
    for (const { route } of ROUTES) await loadOnce(browser, baseUrl, route, run.child.pid, processTable)
    for (let i = 0; i < LOADS; i++) {
      for (const { key, route } of i % 2 === 0 ? ROUTES : [...ROUTES].reverse()) runs[key].push(await loadOnce(browser, baseUrl, route, run.child.pid, processTable))
    }
  } finally {
    run.child.kill('SIGTERM')
    await run.exited
    removeScratchDirs()
  }
  const results = {}
  const rows = ROUTES.map(({ key, label }) => {
    const r = runs[key]
    const figures = {
      main_thread_ms: Math.round(p50(r, 'mainThreadMs')),
      script_ms: Math.round(p50(r, 'scriptMs')),
      chromium_cpu_ms: Math.round(p50(r, 'chromiumCpuMs')),
      server_cpu_ms: Math.round(p50(r, 'serverCpuMs')),
      api_requests: p50(r, 'apiRequests'),
      widget_ready_ms: Math.round(p50(r, 'readyMs')),
    }
    results[key] = figures
    return [
      label,
      `${figures.main_thread_ms} ms`,
      `${figures.script_ms} ms`,
      `${figures.chromium_cpu_ms} ms`,
      `${figures.server_cpu_ms} ms`,
      String(figures.api_requests),
      `${figures.widget_ready_ms} ms`,
    ]
  })
  return {
    title: `Harness page load in server mode (median of ${LOADS} loads per route, routes interleaved)`,
    header: ['route', 'main thread', 'of it script', 'Chromium CPU', 'server CPU', 'API requests', 'to Widget ready'],
    rows,
    notes: [
      'Each load: a fresh browser context, the route, "Widget ready" in the top bar, then 1 s for the last requests. Main thread and script: CDP Performance (the page renderer, the widget frame included).',
      'Chromium CPU: each Chromium process\'s user + system time from /proc over the load (10 ms ticks); server CPU likewise.',
      `${((Date.now() - started) / 1000).toFixed(1)} s incl. setup.`,
    ],
    results,
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { chromium } = await import('@playwright/test')
  const root = resolve(import.meta.dirname, '../..')
  const { BROWSER_ARGS } = await tsImport(pathToFileURL(join(root, 'kit', 'browser', 'browser-args.ts')).href, import.meta.url)
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: BROWSER_ARGS })
  try {
    const { printSection } = await import('./table.mjs')
    printSection(await pageLoadSection({ browser }))
  } finally {
    await browser.close()
  }
}
