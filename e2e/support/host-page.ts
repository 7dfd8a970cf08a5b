import { checkUrl, refusalText } from '../../shared/url/safe-url.ts'
import { queryParam } from './page-utils.ts'

/** The SYNC fields both host fixtures send, as the CRM does for a classic call widget. */
export const SYNC_FIELDS = {
  portalId: 123,
  userId: 7,
  ownerId: 7,
  iframeLocation: 'widget',
  usesCallingWindow: false,
} as const

/** The query parameter `name` as a URL shared/url/safe-url.ts accepts (absolute http(s)); shows and throws a clear error otherwise. */
export function urlFromQuery(name: string): URL {
  const raw = queryParam(name)
  const verdict = checkUrl(raw)
  if (!verdict.ok) {
    const message = `fixture needs ?${name}=<absolute http(s) url>: ${refusalText(name, raw, verdict.reason)}`
    document.body.append(Object.assign(document.createElement('p'), { role: 'alert', textContent: message }))
    throw new Error(message)
  }
  return new URL(verdict.href)
}

/** `?widget=<url>`: see urlFromQuery. */
export const widgetUrlFromQuery = (): URL => urlFromQuery('widget')

/** `?hostile=<url>` when present (a third-origin frame beside the widget), checked like `widget`; null when absent. */
export const hostileUrlFromQuery = (): URL | null => (queryParam('hostile') === null ? null : urlFromQuery('hostile'))

/**
 * Calls `listener` on every load of `frame`, before any listener on the frame
 * itself (capture phase on the document), so timings start at the real load.
 */
export function watchFrameLoad(frame: () => HTMLIFrameElement | null, listener: () => void): void
export function watchFrameLoad(frame: HTMLIFrameElement, listener: () => void): void
export function watchFrameLoad(frame: HTMLIFrameElement | (() => HTMLIFrameElement | null), listener: () => void): void {
  const current = typeof frame === 'function' ? frame : () => frame
  document.addEventListener(
    'load',
    (event) => {
      if (event.target !== null && event.target === current()) listener()
    },
    true,
  )
}
