/**
 * The kit's origins, derived from Playwright's baseURL (the harness) so the
 * kit also runs on other ports: the widget origin is the harness port + 1;
 * the test pages (dist-test/, served by tools/test/serve-dist.mjs, never by
 * Ringside) are on + 2 (hostile frames), + 3 and + 4 (e2e/origins.ts).
 */
import { DEFAULT_PORTS, loopbackUrl } from '../shared/ports.mjs'
import { checkUrl, refusalText } from '../shared/url/safe-url.ts'

export interface KitOrigins {
  harness: string
  /** Where our widget is served. */
  widget: string
  /** A test origin, for hostile frames. */
  hostile: string
  /** A test origin for fixture hosts and pages. */
  testPages: string
  /** A test origin for fixture widgets. */
  testWidgets: string
}

/** The harness of a check run: http://127.0.0.1:$KIT_PORT (default DEFAULT_PORTS.checkWidget); its widget and hostile origins are the next ports. */
export function kitBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return loopbackUrl(Number(env.KIT_PORT ?? DEFAULT_PORTS.checkWidget))
}

export function kitOrigins(baseURL: string | undefined): KitOrigins {
  const harness = new URL(baseURL ?? kitBaseUrl())
  const at = (offset: number) => `${harness.protocol}//${harness.hostname}:${Number(harness.port) + offset}`
  return { harness: harness.origin, widget: at(1), hostile: at(2), testPages: at(3), testWidgets: at(4) }
}

/** Our reference widget on the widget origin, with the given URL parameters. */
export function ourWidgetUrl(baseURL: string | undefined, params: Record<string, string> = { autoLogin: '1', outcome: 'answer', answerAfterMs: '300' }): string {
  return `${kitOrigins(baseURL).widget}/widget/?${new URLSearchParams(params).toString()}`
}

/** A fixture page under e2e/fixtures/<name>/ on one of the test origins (default: the fixture widgets'). */
export function fixtureUrl(origins: KitOrigins, name: string, params: Record<string, string> = {}, origin: 'hostile' | 'testPages' | 'testWidgets' = 'testWidgets'): string {
  const query = new URLSearchParams(params).toString()
  return `${origins[origin]}/e2e/fixtures/${name}/${query ? `?${query}` : ''}`
}

/** The origin of an http(s) URL; throws a clear error otherwise. */
export function originOf(url: string): string {
  const checked = checkUrl(url)
  if (!checked.ok) throw new Error(`${refusalText('The widget URL', url, checked.reason)} Give an absolute http(s) URL, e.g. http://localhost:5174/`)
  return new URL(checked.href).origin
}
