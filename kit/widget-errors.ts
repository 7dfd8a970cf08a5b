/**
 * What went wrong inside the widget's frame, whoever's script it was: the
 * widget's own code, or a script it loaded from another origin (an SDK from a
 * CDN, a vendor's library). Attributing by the script's URL misses the
 * latter, so errors are attributed by the frame they happened in: the
 * DevTools protocol names the execution context (and its origin) of every
 * console.error and uncaught exception. One protocol session per page of the
 * browser context (the harness page, a calling window), plus one per widget
 * frame that runs in a process of its own (a widget on another site).
 *
 * Also every console message of the widget's frame (any level, for the
 * report), and the widget frame's failed loads of code and data (a script answering
 * 404 with its reason, a connection refused), which say why a widget never
 * started; a missing stylesheet or font does not stop a widget, so it is not listed.
 * And the loads of the widget's frame still under way, of any kind (a script or
 * stylesheet its server holds open keeps the frame from loading, and the host
 * from sending SYNC): a hung handshake or step names them.
 */
import type { BrowserContext, CDPSession, Frame, Page, Request } from '@playwright/test'

const MAX_ERRORS = 20
/** Console messages kept for the report, of any level. */
const MAX_CONSOLE = 200
/** Loads under way tracked at once (a page that starts thousands is said to by the first ones). */
const MAX_PENDING = 200
/** The loads whose failure can stop a widget (Playwright's resource types). */
const VITAL = new Set(['document', 'script', 'fetch', 'xhr'])
const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text)

interface RemoteObject {
  type: string
  value?: unknown
  description?: string
  unserializableValue?: string
}

const show = (arg: RemoteObject) => (arg.type === 'string' ? String(arg.value) : (arg.description ?? arg.unserializableValue ?? JSON.stringify(arg.value) ?? arg.type))

export interface WidgetErrors {
  /** console.error and uncaught errors of the widget's frame (clipped, at most 20). */
  errors(): string[]
  /** Loads of the widget's frame that failed (status ≥ 400 or no answer), at most 20. */
  failedLoads(): string[]
  /** Every console message of the widget's frame, "<level>: <text>" (clipped, at most 200). */
  console(): string[]
  /** The loads of the widget's frame that have not finished yet, as one sentence; null when none. */
  pendingLoads(): string | null
}

export async function collectWidgetErrors(context: BrowserContext, widgetOrigin: string): Promise<WidgetErrors> {
  const errors: string[] = []
  const failedLoads: string[] = []
  const consoleLines: string[] = []
  const add = (list: string[], text: string, max = MAX_ERRORS) => {
    if (list.length < max) list.push(clip(text))
  }
  const watched = new WeakSet<Page | Frame>()
  /** Loads of the widget's frame under way: when each started, and its status once its headers came. */
  const pending = new Map<Request, { since: number; status: number | null }>()

  const watch = async (target: Page | Frame) => {
    if (watched.has(target)) return
    watched.add(target)
    let session: CDPSession
    try {
      session = await context.newCDPSession(target)
    } catch {
      // A frame in its parent's process: the page's session sees it.
      return
    }
    const origins = new Map<number, string>()
    session.on('Runtime.executionContextCreated', ({ context: c }: { context: { id: number; origin: string; auxData?: { isDefault?: boolean } } }) => {
      if (c.auxData?.isDefault !== false) origins.set(c.id, c.origin)
    })
    session.on('Runtime.executionContextDestroyed', ({ executionContextId }: { executionContextId: number }) => origins.delete(executionContextId))
    session.on('Runtime.executionContextsCleared', () => origins.clear())
    const inWidget = (id: number | undefined) => id !== undefined && origins.get(id) === widgetOrigin
    session.on('Runtime.consoleAPICalled', ({ type, args, executionContextId }: { type: string; args: RemoteObject[]; executionContextId: number }) => {
      if (!inWidget(executionContextId)) return
      const text = args.map(show).join(' ')
      add(consoleLines, `${type}: ${text}`, MAX_CONSOLE)
      if (type === 'error') add(errors, `console.error: ${text}`)
    })
    session.on('Runtime.exceptionThrown', ({ exceptionDetails: d }: { exceptionDetails: { text: string; executionContextId?: number; exception?: RemoteObject } }) => {
      if (!inWidget(d.executionContextId)) return
      const description = d.exception?.description ?? (d.exception ? show(d.exception) : d.text)
      add(errors, `uncaught ${description.split('\n')[0]}`)
    })
    await session.send('Runtime.enable').catch(() => undefined)
  }

  const inWidgetFrame = (frame: Frame) => {
    try {
      return frame.parentFrame() !== null && new URL(frame.url()).origin === widgetOrigin
    } catch {
      return false
    }
  }

  /** The widget's frame, or a frame navigating to the widget (its document's request comes before its URL changes). */
  const ofWidget = (request: Request) => {
    try {
      const frame = request.frame()
      return inWidgetFrame(frame) || (request.isNavigationRequest() && frame.parentFrame() !== null && new URL(request.url()).origin === widgetOrigin)
    } catch {
      return false // a service worker's request
    }
  }

  const watchPage = async (page: Page) => {
    await watch(page)
    page.on('request', (request) => {
      if (ofWidget(request) && pending.size < MAX_PENDING) pending.set(request, { since: Date.now(), status: null })
    })
    page.on('requestfinished', (request) => pending.delete(request))
    page.on('requestfailed', (request) => pending.delete(request))
    page.on('framenavigated', (frame) => {
      if (inWidgetFrame(frame)) void watch(frame)
    })
    page.on('response', (response) => {
      const load = pending.get(response.request())
      if (load) load.status = response.status()
      if (response.status() < 400 || !VITAL.has(response.request().resourceType())) return
      let frame: Frame
      try {
        frame = response.frame()
      } catch {
        return // a service worker's request
      }
      if (!inWidgetFrame(frame)) return
      void response
        .text()
        .catch(() => '')
        .then((body) => {
          const reason = response.headers()['content-type']?.startsWith('text/plain') || response.headers()['content-type']?.includes('json') ? body.trim().split('\n')[0] : ''
          add(failedLoads, `${response.url()} answered ${response.status()} ${response.statusText()}${reason ? `: ${clip(reason)}` : ''}`)
        })
    })
    page.on('requestfailed', (request) => {
      if (!VITAL.has(request.resourceType())) return
      try {
        if (!inWidgetFrame(request.frame())) return
      } catch {
        return // a service worker's request
      }
      add(failedLoads, `${request.url()} failed: ${request.failure()?.errorText ?? 'no answer'}`)
    })
  }

  for (const page of context.pages()) await watchPage(page)
  context.on('page', (page) => void watchPage(page))
  const pendingLoads = () => {
    if (pending.size === 0) return null
    const now = Date.now()
    const loads = [...pending].slice(0, 5).map(([request, { since, status }]) => {
      const after = `${((now - since) / 1000).toFixed(1)} s`
      return `${clip(request.url())} (${status === null ? `no answer after ${after}` : `answered ${status}, its body still coming after ${after}`})`
    })
    return `the widget's page had not finished loading: ${loads.join(', ')}${pending.size > 5 ? ` and ${pending.size - 5} more` : ''}`
  }
  return { errors: () => [...errors], failedLoads: () => [...failedLoads], console: () => [...consoleLines], pendingLoads }
}
