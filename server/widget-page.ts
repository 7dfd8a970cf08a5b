/**
 * The page of a calling widget, as a CLI sees it before any browser: one GET
 * (redirects not followed: any answer means it is up) that tells whether it
 * answers, why not (refused, timed out, an untrusted https certificate), and
 * the name a user knows it by: its page's <title>.
 *
 * `ringside start --widget` and `ringside check-widget` register that name for
 * the widget, so the harness's dock shows the widget's own name, not the seed's.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'

export interface WidgetPage {
  status: number
  statusText: string
  /** The page's <title>, as plain text (entities decoded, whitespace collapsed, clipped); null when it has none. */
  title: string | null
}

/** Node's error codes for a certificate the client does not trust: the widget answers, but over https we cannot check it. */
export const TLS_ERROR_CODE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS|ERR_SSL/

const MAX_BODY = 64 * 1024
const MAX_NAME = 80
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

/** The name to register for the widget at `url`: its title, else "Widget at host/path". */
export function widgetName(url: string, title: string | null): string {
  if (title) return title
  const parsed = new URL(url)
  const path = parsed.pathname === '/' ? '' : parsed.pathname.replace(/\/$/, '')
  const where = `${parsed.host}${path}`
  return `Widget at ${where.length > MAX_NAME ? `${where.slice(0, MAX_NAME - 1)}…` : where}`
}

/**
 * One GET of the widget's page. Rejects with Node's error (its `code` says
 * why: ECONNREFUSED, ETIMEDOUT, a TLS code) when it does not answer.
 */
export function fetchWidgetPage(url: URL, options: { ignoreHttpsErrors?: boolean; timeoutMs?: number } = {}): Promise<WidgetPage> {
  const timeoutMs = options.timeoutMs ?? 10_000
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      { method: 'GET', agent: false, timeout: timeoutMs, rejectUnauthorized: !options.ignoreHttpsErrors, headers: { accept: 'text/html' } },
      (response: IncomingMessage) => {
        let body = ''
        const done = () => resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', title: titleOf(body) })
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          body += chunk
          if (body.length >= MAX_BODY) {
            response.destroy()
            done()
          }
        })
        response.on('end', done)
        response.on('error', done)
      },
    )
    request.on('timeout', () => request.destroy(Object.assign(new Error(`no answer within ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })))
    request.on('error', reject)
    request.end()
  })
}

/** The widget's name for the dock: its page's title when it answers within `timeoutMs`, else "Widget at host/path". */
export async function nameOfWidget(url: string, options: { ignoreHttpsErrors?: boolean; timeoutMs?: number } = {}): Promise<string> {
  const page = await fetchWidgetPage(new URL(url), { timeoutMs: 2_000, ...options }).catch(() => null)
  return widgetName(url, page && page.status < 400 ? page.title : null)
}
