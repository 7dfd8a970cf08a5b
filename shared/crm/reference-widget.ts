/**
 * Where the reference widget lives and what the dock calls it. Kept apart from
 * the seed (which imports it) so that a page that only needs the URL, the
 * harness, does not load the seed and the stores behind it.
 */

export const DEFAULT_WIDGET_URL = 'http://127.0.0.1:5174/widget/'

/**
 * Where the reference widget lives for a harness served at `location`: the
 * same host, the next port, `/widget/` (5173 → 5174 with `npm start`, 4173 →
 * 4174 in the e2e tests), so the harness and the widget are always two
 * origins, as in a real CRM.
 */
export function defaultWidgetUrl(location: { protocol: string; hostname: string; port: string }): string {
  const port = Number(location.port || (location.protocol === 'https:' ? 443 : 80))
  return `${location.protocol}//${location.hostname}:${port + 1}/widget/`
}
export const WIDGET_NAME = 'Ringside reference widget'
