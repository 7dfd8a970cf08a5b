/**
 * Black-box wire recording: works with any widget, whatever SDK it uses.
 *
 * The init script runs in every frame of every page of the browser context
 * (the harness, the widget's cross-origin frame, any other frame, and the
 * harness's calling window, a popup that holds the widget in the `window`
 * placement) before the page's own scripts, so the capturing `message`
 * listener it adds sees each message first. Each event is forwarded through a
 * binding (`exposeBinding` on the context installs it in every frame) to a
 * MessageLog in the test process.
 *
 * In the harness frame, messages from the widget origin are widget → host;
 * in the widget frame, messages from its parent on the harness origin are
 * host → widget. Everything else is kept as `other` (e.g. a hostile frame).
 */
import type { Page } from '@playwright/test'
import { MessageLog, type LogOrigins, type RawRecord } from './message-log.ts'

const BINDING = '__ringsideKitRecord'

/** What the page-side listener sends for one event. */
interface PageRecord {
  time: number
  frameUrl: string
  origin: string
  fromParent: boolean
  data: unknown
}

/**
 * Runs in every frame: one capturing listener that queues each event and
 * forwards the queue to the binding in batches (one binding call costs a
 * round trip to the test process; a flood of 1,000 messages then takes a
 * few calls instead of 1,000), and a message from the parent at once. The queue is also flushed when the page goes away.
 */
function recorderScript(binding: string): void {
  const flag = `${binding}Installed`
  const scope = window as unknown as Record<string, unknown>
  if (scope[flag] === true) return
  scope[flag] = true
  type Send = (records: unknown[]) => Promise<unknown>
  let queue: Array<Record<string, unknown>> = []
  let timer: ReturnType<typeof setTimeout> | null = null
  const describe = (data: unknown) => ({ unserializable: Object.prototype.toString.call(data) })
  const flush = () => {
    if (timer !== null) clearTimeout(timer)
    timer = null
    const send = scope[binding] as Send | undefined
    if (queue.length === 0 || typeof send !== 'function') return
    const batch = queue
    queue = []
    // Something Playwright cannot serialize (e.g. a MessagePort): send one by one, describing the culprit.
    const oneByOne = () => {
      for (const record of batch) void send([record]).catch(() => send([{ ...record, data: describe(record.data) }]).catch(() => undefined))
    }
    try {
      void send(batch).catch(oneByOne)
    } catch {
      oneByOne()
    }
  }
  window.addEventListener(
    'message',
    (event: MessageEvent<unknown>) => {
      const fromParent = window.parent !== window && event.source === window.parent
      queue.push({ time: performance.timeOrigin + performance.now(), frameUrl: location.href, origin: event.origin, fromParent, data: event.data })
      // The host's messages (a few per call) go at once: a widget that hangs on one (a loop that never yields
      // runs before the timer would) must not hide that it received it. Floods come from the widget, in batches.
      if (fromParent) flush()
      else timer ??= setTimeout(flush, 15)
    },
    { capture: true },
  )
  window.addEventListener('pagehide', flush)
}

/**
 * Starts recording every frame's `message` events in `page`'s browser context
 * (call before the first navigation): the page and the pages it opens, such as
 * the calling window. Returns the log; it keeps filling until the context closes.
 */
export async function installMessageRecorder(page: Page, origins: LogOrigins): Promise<MessageLog> {
  const log = new MessageLog(origins)
  const context = page.context()
  await context.exposeBinding(BINDING, ({ page: source, frame }, records: PageRecord[]) => {
    const topFrame = frame === source.mainFrame()
    log.addAll(records.map((r): RawRecord => ({ time: r.time, frameUrl: r.frameUrl, topFrame, origin: r.origin, fromParent: r.fromParent, data: r.data })))
  })
  await context.addInitScript(recorderScript, BINDING)
  return log
}
