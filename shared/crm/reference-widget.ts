/**
 * Where the reference widget lives and what the dock calls it. Kept apart from
 * the seed (which imports it) so that a page that only needs the URL, the
 * harness, does not load the seed and the stores behind it.
 */
import { DEFAULT_PORTS } from '../ports.mjs'

/**
 * Where the reference widget lives for a harness served at `location`: the
 * same host, the next port, `/widget/` (with `npm start`, the port after
 * DEFAULT_PORTS.start), so the harness and the widget are always two
 * origins, as in a real CRM.
 */
export function defaultWidgetUrl(location: { protocol: string; hostname: string; port: string }): string {
  const port = Number(location.port || (location.protocol === 'https:' ? 443 : 80))
  return `${location.protocol}//${location.hostname}:${port + 1}/widget/`
}
/** The reference widget of a server on the default port (the seed's registered widget unless told otherwise). */
export const DEFAULT_WIDGET_URL = defaultWidgetUrl({ protocol: 'http:', hostname: '127.0.0.1', port: String(DEFAULT_PORTS.start) })

export const WIDGET_NAME = 'Ringside reference widget'
