/**
 * GET /_ringside/v1/widget-scripts?url=<widget page>: the scripts a widget's
 * page loads from other sites, for the harness to name when the widget does
 * not answer the handshake. A widget that loads the calling SDK from a public
 * CDN (jsDelivr, unpkg) cannot run in a browser that cannot reach it (offline,
 * a blocked network): its SDK script fails, nothing answers SYNC, and the
 * harness would otherwise only say "syncing". `ringside open` answers those
 * CDN URLs from Ringside (shared/sdk-cdn/cdn-urls.ts).
 *
 * Only a page on this machine is read (loopback or localhost, the rule of
 * shared/url/this-machine.ts): the harness's own widgets are local, and the
 * server never fetches an address a page hands it elsewhere. One GET through
 * the outbound rule, within the `widget-scripts` wait, 64 kB of the page.
 */
import { parseCdnUrl } from '../../../shared/sdk-cdn/cdn-urls.ts'
import { isOnThisMachine } from '../../../shared/url/this-machine.ts'
import { ApiError, Category, validationError } from '../../core/index.ts'
import { WAITS } from '../../../shared/waits.ts'
import { readWidgetPage, WidgetPageTimeout } from './widget-page.ts'

export interface WidgetScript {
  /** The script's absolute URL, as the page names it (resolved against the page). */
  url: string
  /** It is the calling SDK on a public CDN: `ringside open` answers it offline. */
  sdk: boolean
}

export interface WidgetScripts {
  url: string
  /** The page's <script src> on origins other than this machine's, SDK first, at most MAX_SCRIPTS. */
  scripts: WidgetScript[]
  /** Why the page could not be read (the list is then empty), or null. */
  problem: string | null
}

const MAX_SCRIPTS = 20
/** <script …src=…>: the src attribute, quoted or not. */
const SCRIPT_TAG = /<script\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>/gi
/** Tags looked at, at most: the loop over the page has a budget. */
const MAX_TAGS = 500

/** The `<script src>` of `html` that load from another site than this machine, resolved against `pageUrl`. */
export function offSiteScripts(html: string, pageUrl: string): WidgetScript[] {
  const found: WidgetScript[] = []
  let tags = 0
  for (const match of html.matchAll(SCRIPT_TAG)) {
    if (++tags > MAX_TAGS || found.length >= MAX_SCRIPTS) break
    const raw = (match[1] ?? match[2] ?? match[3] ?? '').trim()
    let url: URL
    try {
      url = new URL(raw.replaceAll('&amp;', '&'), pageUrl)
    } catch {
      continue
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue
    if (isOnThisMachine(url.href) || found.some((s) => s.url === url.href)) continue
    found.push({ url: url.href, sdk: parseCdnUrl(url.href) !== null })
  }
  return found.sort((a, b) => Number(b.sdk) - Number(a.sdk))
}

/** The answer for `?url=`; an ApiError (400) for a URL that is not a web page on this machine. */
export async function widgetScripts(raw: string | undefined, options: { timeoutMs?: number } = {}): Promise<WidgetScripts | ApiError> {
  let url: URL
  try {
    url = new URL(raw ?? '')
  } catch {
    return validationError('url must be the absolute http(s) address of a widget page on this machine.')
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isOnThisMachine(url.href)) {
    return validationError(`url must be an http(s) page on this machine (localhost or a loopback address); ${url.protocol}//${url.host} is not read.`)
  }
  const timeoutMs = options.timeoutMs ?? WAITS['widget-scripts'].ms
  try {
    const page = await readWidgetPage(url, { timeoutMs })
    if (page.status >= 400) return { url: url.href, scripts: [], problem: `the widget page answered ${page.status} ${page.statusText}`.trim() }
    return { url: url.href, scripts: offSiteScripts(page.html, url.href), problem: null }
  } catch (error) {
    const why = error instanceof WidgetPageTimeout ? error.message : error instanceof Error ? error.message : String(error)
    return { url: url.href, scripts: [], problem: `the widget page could not be read: ${why}` }
  }
}

/** 403 for a request another site's page made (Sec-Fetch-Site): only the harness asks the server to read a page. */
export function crossSiteRead(site: string): ApiError {
  return new ApiError(403, Category.FORBIDDEN, `Blocked request: only Ringside's own pages may ask the server to read a widget page (Sec-Fetch-Site: ${site}).`)
}
