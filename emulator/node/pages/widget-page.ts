/**
 * The page of a calling widget, as a CLI sees it before any browser: one GET
 * (an outbound read like every other: redirects followed and checked, within
 * a deadline and a byte budget) that tells whether it answers, why not
 * (refused, timed out, an untrusted https certificate), and the name a user
 * knows it by: its page's <title>. The URL is the user's own (typed on the
 * command line), so any http(s) address is read.
 *
 * `ringside start --widget` and `ringside check-widget` register that name for
 * the widget, so the harness's dock shows the widget's own name, not the seed's.
 */
import { Outbound, OutboundError } from '../../core/index.ts'
import { nodeTransport } from '../outbound-transport.ts'
import { showMs, waitSentence, WAITS } from '../../../shared/waits.ts'
import { MAX_WIDGET_NAME, widgetName } from '../../../shared/url/widget-name.ts'

export interface WidgetPage {
  status: number
  statusText: string
  /** The page's <title>, as plain text (entities decoded, whitespace collapsed, clipped); null when it has none. */
  title: string | null
}

/** Node's error codes for a certificate the client does not trust: the widget answers, but over https we cannot check it. */
export const TLS_ERROR_CODE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS|ERR_SSL/

const MAX_BODY = 64 * 1024
const MAX_NAME = MAX_WIDGET_NAME
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** The text of the first <title> of an HTML page, or null. */
export function titleOf(html: string): string | null {
  const match = /<title[^>]*>([^<]{0,2000})<\/title>/i.exec(html)
  if (!match) return null
  const text = match[1]!
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (entity, code: string) => {
      const lower = code.toLowerCase()
      if (lower.startsWith('#x')) return String.fromCodePoint(Math.min(Number.parseInt(lower.slice(2), 16), 0x10ffff))
      if (lower.startsWith('#')) return String.fromCodePoint(Math.min(Number(lower.slice(1)), 0x10ffff))
      return Object.hasOwn(ENTITIES, lower) ? ENTITIES[lower]! : entity
    })
    // eslint-disable-next-line no-control-regex -- control characters have no place in a name
    .replace(/[\u0000-\u001f\u007f\s]+/g, ' ')
    .trim()
  if (text === '') return null
  return text.length > MAX_NAME ? `${text.slice(0, MAX_NAME - 1)}…` : text
}

/** The name to register for the widget at `url`: its title, else "Widget at host/path" (one module decides, for the dock too). */
export { widgetName }

/** The page did not finish loading within its bound: what was received says how far it got. */
export class WidgetPageTimeout extends Error {
  readonly code = 'ETIMEDOUT'
  constructor(
    readonly ms: number,
    /** "no answer (not even a status line)", "it answered 200 OK and sent 1.2 kB of the page, then nothing more". */
    readonly received: string,
    /** The <title>, when it arrived before the bound. */
    readonly title: string | null,
  ) {
    super(`no answer within ${showMs(ms)}: ${received}`)
  }
}

const size = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} kB`)

/** The page as read: its status line and its first 64 kB of HTML. */
export interface WidgetPageText {
  status: number
  statusText: string
  html: string
}

/**
 * One GET of the widget's page through the outbound rule (emulator/core/outbound/),
 * within `timeoutMs` in all (connecting, every redirect, the status line, the
 * page up to 64 kB): a server that holds the page open, or sends it a byte at a
 * time, is cut there with a WidgetPageTimeout that says how far it got. Rejects
 * with an OutboundError (its `code` says why when Node gave one: ECONNREFUSED,
 * a TLS code) when it does not answer.
 */
export async function readWidgetPage(url: URL, options: { ignoreHttpsErrors?: boolean; timeoutMs?: number } = {}): Promise<WidgetPageText> {
  const timeoutMs = options.timeoutMs ?? WAITS['widget-page'].ms
  const outbound = new Outbound(nodeTransport({ ignoreHttpsErrors: options.ignoreHttpsErrors === true }), { deadlineMs: timeoutMs })
  const timedOut = (error: unknown) => error instanceof OutboundError && error.code === 'ETIMEDOUT'
  return outbound.run(async (reads) => {
    let page: Awaited<ReturnType<typeof reads.open>>
    try {
      // One byte over the page's budget: a longer page is read to MAX_BODY and cut here, not refused.
      page = await reads.open(new Request(url, { headers: { accept: 'text/html' } }), { maxBytes: MAX_BODY + 1, trust: 'user' })
    } catch (error) {
      if (timedOut(error)) throw new WidgetPageTimeout(timeoutMs, 'no answer (not even a status line)', null)
      throw error
    }
    let html = ''
    let bytes = 0
    const decoder = new TextDecoder()
    try {
      for await (const chunk of page.body) {
        bytes += chunk.byteLength
        html += decoder.decode(chunk, { stream: true })
        if (bytes >= MAX_BODY) break
      }
    } catch (error) {
      if (timedOut(error)) {
        const status = [page.status, page.statusText].filter(Boolean).join(' ')
        throw new WidgetPageTimeout(timeoutMs, `it answered ${status} and sent ${size(bytes)} of the page, then nothing more`, titleOf(html))
      }
      // A page that breaks off still answered: its text is what arrived.
    }
    await page.body.cancel().catch(() => {})
    return { status: page.status, statusText: page.statusText, html }
  })
}

/** The page's status and title (readWidgetPage, which says how it fails). */
export async function fetchWidgetPage(url: URL, options: { ignoreHttpsErrors?: boolean; timeoutMs?: number } = {}): Promise<WidgetPage> {
  const page = await readWidgetPage(url, options)
  return { status: page.status, statusText: page.statusText, title: titleOf(page.html) }
}

/**
 * The widget's name for the dock: its page's title when it answers within the
 * `widget-name` bound, else "Widget at host/path"; a page that does not finish
 * loading in time gets its sentence printed (`warn`), and the server starts anyway.
 */
export async function nameOfWidget(url: string, options: { ignoreHttpsErrors?: boolean; timeoutMs?: number; warn?: (sentence: string) => void } = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? WAITS['widget-name'].ms
  const page = await fetchWidgetPage(new URL(url), { ...options, timeoutMs }).catch((error: unknown) => {
    if (!(error instanceof WidgetPageTimeout)) return null
    const name = widgetName(url, error.title)
    options.warn?.(waitSentence('widget-name', timeoutMs, { url, received: error.received, name }))
    return { status: 200, statusText: '', title: error.title }
  })
  return widgetName(url, page && page.status < 400 ? page.title : null)
}
