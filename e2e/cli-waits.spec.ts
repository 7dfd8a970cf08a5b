/**
 * Every wait of check-widget ends within its bound with a sentence and its exit code (shared/waits.ts, docs/waits.md):
 * a widget page that never finishes loading (its document, or a script it loads), a widget that hangs after the
 * handshake, a widget that loops on alert(). The bounds are shortened through $RINGSIDE_WAITS, as a user can, so
 * each verdict comes in seconds.
 *
 * The widgets are small pages served by a server inside each test (test support: nothing the product serves), on a
 * port block of their own; the SDK is loaded from its jsDelivr URL, which the kit answers offline.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { expect, test } from '@playwright/test'
import { checkWidget, portBlock } from './support/check-widget-run.ts'
import { answerDialogs, MAX_DIALOGS } from '../kit/dialogs.ts'

const SDK = 'https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk@0.9.7/dist/main.js'
/** The bounds of these runs: a few seconds each. */
const WAITS = { 'widget-page': 1_500, 'harness-open': 8_000, 'journey-message': 2_000, 'journey-step': 4_000, journey: 20_000, 'wrap-up': 3_000 }
const env = { RINGSIDE_WAITS: Object.entries(WAITS).map(([name, ms]) => `${name}=${ms}`).join(',') }
/**
 * Starting and stopping the harness server, Playwright, Chromium and its workers, three runs side by side on a busy
 * 2-core machine: generous, so only a wait that does not end fails (the verdicts name the bound that ended each wait).
 */
const STARTUP_MS = 100_000

/** A widget that answers the handshake, logs in, and runs `onDial` when the host dials. */
const widgetPage = (title: string, onDial: string, head = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}
<script src="${SDK}"></script></head><body><h1>${title}</h1><script>
const cti = new window.default({ eventHandlers: { onReady: () => cti.initialized({ isLoggedIn: true, isAvailable: true }), onDialNumber: () => { ${onDial} } } })
</script></body></html>`

/** A local server for one test: `handle` answers, or holds, each request; every socket is destroyed on close. */
async function serve(port: number, handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server> {
  const server = createServer(handle)
  await new Promise<void>((ready) => server.listen(port, '127.0.0.1', ready))
  return server
}
const close = (server: Server) => {
  server.closeAllConnections()
  server.close()
}
const html = (response: ServerResponse, body: string) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body)

test.describe('check-widget: every wait ends with a sentence', () => {
  test.describe.configure({ mode: 'parallel', timeout: 240_000 })

  test('a widget page that never finishes loading: its document (exit 2, within widget-page), or a script it loads (exit 1, within the sync timeout and the step)', async () => {
    const port = portBlock(21)
    const server = await serve(port, (request, response) => {
      if (request.url === '/held-document/') {
        // The status line, the head and the title, then nothing more: the connection stays open.
        response.writeHead(200, { 'content-type': 'text/html' })
        response.write('<!doctype html><html><head><title>Never finishes</title>')
      } else if (request.url === '/held-script/') {
        html(response, widgetPage('Held script', '', `<script src="/held.js"></script>`))
      } else if (request.url !== '/held.js') {
        response.writeHead(404).end()
      } // /held.js: never answered
    })
    try {
      const started = Date.now()
      const document = await checkWidget([`http://127.0.0.1:${port}/held-document/`, '--port', String(portBlock(20))], 150_000, env)
      expect(document.code, document.output).toBe(2)
      expect(document.output.trim()).toBe(
        `ringside check-widget: the widget page at http://127.0.0.1:${port}/held-document/ did not finish loading within 1.5 s: it answered 200 OK and sent 56 bytes of the page, then nothing more. Check that your dev server finishes serving it.`,
      )
      expect(Date.now() - started).toBeLessThan(WAITS['widget-page'] + 10_000)

      const script = await checkWidget([`http://127.0.0.1:${port}/held-script/`, '--port', String(portBlock(20)), '--sync-timeout', '1500', '--driver', 'none'], 150_000, env)
      expect(script.code, script.output).toBe(1)
      // The host sends SYNC once the widget's frame has loaded, which it never does: the handshake's bound (sync + step) ends it.
      expect(script.output).toMatch(
        new RegExp(`Why: .*: the widget did not send SYNC_ACK within 5\\.5 s after the harness opened \\(the step did not finish\\); the widget's page had not finished loading: http://127\\.0\\.0\\.1:${port}/held\\.js \\(no answer after \\d+\\.\\d s\\)`),
      )
      expect(script.output).toContain('Verdict: NOT READY')
    } finally {
      close(server)
    }
  })

  test('a widget that hangs after the handshake (a loop that never yields, on DIAL_NUMBER): the verdict names the step and what did not come (exit 1), not the handshake', async () => {
    const port = portBlock(23)
    const server = await serve(port, (_request, response) => html(response, widgetPage('Hangs on dial', 'for (;;) {}')))
    try {
      const started = Date.now()
      const run = await checkWidget([`http://127.0.0.1:${port}/`, '--port', String(portBlock(22)), '--sync-timeout', '3000'], 150_000, env)
      expect(run.code, run.output).toBe(1)
      expect(run.output).toMatch(/✔ \[\d+\/\d+\] outbound journey · widget placement: answers the host's SYNC with SYNC_ACK/)
      expect(run.output).toMatch(
        /the widget answered the handshake, then did not send OUTGOING_CALL_STARTED within 4 s after DIAL_NUMBER \(the step did not finish; the widget's frame did not answer within 1 s: a script in it runs without a break \(a loop that never yields\)\)/,
      )
      expect(run.output).toContain('Verdict: NOT READY')
      expect(Date.now() - started).toBeLessThan(STARTUP_MS + 3_000 + WAITS['harness-open'] + WAITS.journey + WAITS['wrap-up'])
    } finally {
      close(server)
    }
  })

  // The harness sandboxes the widget as the CRM does, without allow-modals: Chromium ignores its alert(), so a loop on it never yields.
  test('a widget that loops on alert(): the run ends within its bounds, and the verdict says its frame stopped answering (exit 1)', async () => {
    const port = portBlock(25)
    const loop = '<script>let n = 0; for (;;) alert(`hello ${n++}`)</script>'
    const server = await serve(port, (_request, response) => html(response, widgetPage('Alert loop', '', loop)))
    try {
      const started = Date.now()
      const run = await checkWidget([`http://127.0.0.1:${port}/`, '--port', String(portBlock(24)), '--sync-timeout', '1500', '--driver', 'none'], 150_000, env)
      expect(run.code, run.output).toBe(1)
      expect(run.output).toMatch(/Why: .*: the widget did not send SYNC_ACK within 5\.5 s after the harness opened \(the step did not finish; the widget's frame did not answer within 1 s: a script in it runs without a break/)
      expect(run.output).toContain('Verdict: NOT READY')
      expect(Date.now() - started).toBeLessThan(STARTUP_MS + 1_500 + WAITS['harness-open'] + WAITS['journey-step'] + WAITS['wrap-up'])
    } finally {
      close(server)
    }
  })
})

test('the dialogs of a journey\'s pages (not sandboxed: the harness, the calling window) are dismissed and counted; after 20, the next is left open and said', async ({ browser }) => {
  const context = await browser.newContext()
  try {
    const dialogs = answerDialogs(context)
    const page = await context.newPage()
    await page.goto('about:blank')
    // The loop stops at the dialog left open: evaluate() does not return, so it is not awaited.
    void page.evaluate(() => {
      for (let n = 0; ; n++) alert(`hello ${n}`)
    }).catch(() => undefined)
    await expect.poll(() => dialogs.count()).toBe(MAX_DIALOGS + 1)
    expect(dialogs.sentence()).toBe(`a page of the journey opened 21 dialogs (the first: alert "hello 0"); the kit dismissed 20 and left the next one open, which stops that page's scripts as it would stop a CRM page`)
  } finally {
    await context.close().catch(() => undefined)
  }
})
