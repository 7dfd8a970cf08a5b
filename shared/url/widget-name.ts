/**
 * The one name of a calling widget, wherever Ringside shows it (the dock's title, the
 * name `ringside start --widget` and check-widget register, check-widget's reports):
 * its page's <title>, else its address, "Widget at host/path".
 */

/** Names are clipped to this many characters. */
export const MAX_WIDGET_NAME = 80

const clip = (text: string) => (text.length > MAX_WIDGET_NAME ? `${text.slice(0, MAX_WIDGET_NAME - 1)}…` : text)

/**
 * `title`: the page's <title> as plain text, when it could be read (a cross-origin frame's
 * cannot: the dock then names the widget by its address, as a CLI that could not read it does).
 */
export function widgetName(url: string, title: string | null): string {
  const named = title?.trim()
  if (named) return clip(named)
  let where = url
  try {
    const parsed = new URL(url)
    const path = parsed.pathname === '/' ? '' : parsed.pathname.replace(/\/$/, '')
    where = `${parsed.host}${path}`
  } catch {
    // not a URL: its text
  }
  return `Widget at ${clip(where)}`
}
