/**
 * The kit's origins, derived from Playwright's baseURL (the harness) so the
 * kit also runs on other ports: the widget origin is the harness port + 1,
 * the hostile origin + 2 (as scripts/serve-dist.mjs serves them).
 */
import { ORIGINS } from '../origins.ts'
import { checkUrl, refusalText } from '../../shared/url/safe-url.ts'

export interface KitOrigins {
  harness: string
  /** Where our widget and the fixture widgets are served. */
  widget: string
  /** A third origin, for hostile frames. */
  hostile: string
}

export function kitOrigins(baseURL: string | undefined): KitOrigins {
  const harness = new URL(baseURL ?? ORIGINS.harness)
  const at = (offset: number) => `${harness.protocol}//${harness.hostname}:${Number(harness.port) + offset}`
  return { harness: harness.origin, widget: at(1), hostile: at(2) }
}

/** Our reference widget on the widget origin, with the given URL parameters. */
export function ourWidgetUrl(baseURL: string | undefined, params: Record<string, string> = { autoLogin: '1', outcome: 'answer', answerAfterMs: '300' }): string {
  return `${kitOrigins(baseURL).widget}/widget/?${new URLSearchParams(params).toString()}`
}

/** A fixture page under e2e/fixtures/<name>/ on one of the kit's origins (default: the widget origin). */
export function fixtureUrl(origins: KitOrigins, name: string, params: Record<string, string> = {}, origin: keyof KitOrigins = 'widget'): string {
  const query = new URLSearchParams(params).toString()
  return `${origins[origin]}/e2e/fixtures/${name}/${query ? `?${query}` : ''}`
}

/** The origin of an http(s) URL; throws a clear error otherwise. */
export function originOf(url: string): string {
  const checked = checkUrl(url)
  if (!checked.ok) throw new Error(`${refusalText('The widget URL', url, checked.reason)} Give an absolute http(s) URL, e.g. http://localhost:5174/`)
  return new URL(checked.href).origin
}
