import { queryParam } from './page-utils.ts'

/** The SYNC fields both host fixtures send, as the CRM does for a classic call widget. */
export const SYNC_FIELDS = {
  portalId: 123,
  userId: 7,
  ownerId: 7,
  iframeLocation: 'widget',
  usesCallingWindow: false,
} as const

/** `?widget=<url>` resolved against the page; shows and throws a clear error otherwise. */
export function widgetUrlFromQuery(): URL {
  const raw = queryParam('widget')
  const url = raw ? new URL(raw, location.href) : null
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const message = `fixture needs ?widget=<http(s) url>, got ${JSON.stringify(raw)}`
    document.body.append(Object.assign(document.createElement('p'), { role: 'alert', textContent: message }))
    throw new Error(message)
  }
  return url
}

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
