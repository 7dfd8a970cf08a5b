/**
 * The developer app's registered redirect URLs, as the real CRM keeps them in
 * the app's auth settings ("Redirect URLs"): the `redirect_uri` of an
 * authorization request must be exactly one of them, or the consent screen
 * shows an error and sends the browser nowhere
 * (https://developers.hubspot.com/changelog/upcoming-public-apps-will-require-a-redirect-url-in-the-auth-settings).
 * A registered URL must be https, except on the host `localhost`, where http
 * is allowed for local development
 * (https://developers.hubspot.com/changelog/2018-03-05-oauth2-redirect-uri-served-over-http-localhost).
 *
 * Besides the registered list, Ringside's own callback page on the origin
 * that serves the request (the harness's OAuth callback) is always accepted:
 * it is the emulator's, whatever its port or host name. Any other callback
 * (a test's pretend app, a vendor's backend) is registered like a real app's.
 */
import { checkUrl } from '../url/safe-url.ts'

/** The harness's OAuth callback is marked in the query (a redirect_uri may not carry a fragment). */
export const OAUTH_CALLBACK_MARKER = 'oauth_callback'

/** Paths of Ringside's own callback pages: the harness's. */
export const OWN_CALLBACK_PATHS = [`/?${OAUTH_CALLBACK_MARKER}=1`] as const

/** The harness's OAuth callback on `origin`. */
export function harnessCallbackUrl(origin: string): string {
  return `${origin}${OWN_CALLBACK_PATHS[0]}`
}

/** Ringside's own callback page on `origin` (always accepted there). */
export function ownRedirectUrls(origin: string): string[] {
  return OWN_CALLBACK_PATHS.map((path) => `${origin}${path}`)
}

/** The default callback of examples/widget-backend (PORT 3000). */
export const EXAMPLE_BACKEND_REDIRECT_URL = 'http://localhost:3000/oauth/callback'

/** What a fresh account has registered. */
export const DEFAULT_REDIRECT_URLS: readonly string[] = [EXAMPLE_BACKEND_REDIRECT_URL]

/** Budgets (emulator choices; the real limits are not documented): URLs per app, characters per URL. */
export const MAX_REDIRECT_URLS = 50
export const MAX_REDIRECT_URL_LENGTH = 2048

/** The admin route that lists, adds and removes registered redirect URLs. */
export const REDIRECT_URLS_PATH = '/_ringside/v1/oauth/redirect-urls'

/** Why `value` cannot be registered as a redirect URL, or null if it can. */
export function redirectUrlProblem(value: string): string | null {
  if (value.length === 0) return 'A redirect URL is required.'
  if (value.length > MAX_REDIRECT_URL_LENGTH) return `A redirect URL may be at most ${MAX_REDIRECT_URL_LENGTH} characters.`
  if (value.trim() !== value) return 'A redirect URL must not start or end with spaces.'
  const verdict = checkUrl(value)
  if (!verdict.ok) return `A redirect URL must be an absolute https URL (or http on localhost): '${value}' ${verdict.reason}.`
  const url = new URL(verdict.href)
  if (value.includes('#')) return 'A redirect URL must not contain a fragment (#).'
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:') {
    if (url.hostname === 'localhost') return null
    return `'${value}' uses http on a host other than localhost; the CRM takes http only for localhost (use https, or http://localhost:<port>/…).`
  }
  return `A redirect URL must be https (or http on localhost), got '${url.protocol}'.`
}
