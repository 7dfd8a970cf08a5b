/**
 * Black-box wire recording: works with any widget, whatever SDK it uses.
 *
 * `page.addInitScript` runs in every frame of the page (the harness, the
 * widget's cross-origin frame, any other frame) before the page's own
 * scripts, so the capturing `message` listener it adds sees each message
 * first. Each event is forwarded through a binding (`page.exposeBinding`
 * installs it in every frame) to a MessageLog in the test process.
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

/** Runs in every frame: one capturing listener, forwarding to the binding. */
function recorderScript(binding: string): void {
  const flag = `${binding}Installed`
  const scope = window as unknown as Record<string, unknown>
  if (scope[flag] === true) return
  scope[flag] = true
  window.addEventListener(
    'message',
    (event: MessageEvent<unknown>) => {
      const send = scope[binding]
      if (typeof send !== 'function') return
      const record = {
        time: performance.timeOrigin + performance.now(),
        frameUrl: location.href,
        origin: event.origin,
        fromParent: window.parent !== window && event.source === window.parent,
        data: event.data,
      }
      const fallback = () => {
        // Something Playwright cannot serialize (e.g. a MessagePort): keep a description.
        const described = Object.prototype.toString.call(event.data)
        return (send as (r: unknown) => Promise<unknown>)({ ...record, data: { unserializable: described } })
      }
      try {
        void (send as (r: unknown) => Promise<unknown>)(record).catch(() => fallback().catch(() => undefined))
      } catch {
        void fallback().catch(() => undefined)
      }
    },
    { capture: true },
  )
}

/**
 * Starts recording every frame's `message` events on `page` (call before the
 * first navigation). Returns the log; it keeps filling until the page closes.
 */
export async function installMessageRecorder(page: Page, origins: LogOrigins): Promise<MessageLog> {
  const log = new MessageLog(origins)
  await page.exposeBinding(BINDING, ({ frame }, record: PageRecord) => {
    const raw: RawRecord = {
      time: record.time,
      frameUrl: record.frameUrl,
      topFrame: frame === page.mainFrame(),
      origin: record.origin,
      fromParent: record.fromParent,
      data: record.data,
    }
    log.add(raw)
  })
  await page.addInitScript(recorderScript, BINDING)
  return log
}
