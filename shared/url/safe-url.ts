/**
 * The one rule for every URL that comes from outside (a query string, a
 * postMessage, an import, an API field, a setting) and becomes a `src`, an
 * `href`, a navigation or a stored URL the CRM later shows. Page, widget, kit,
 * fixtures and the API server all ask this module; docs/urls.md states the rule
 * for users.
 *
 * A value is accepted when it is, as written:
 *  - an absolute `http:` or `https:` URL with a host and no credentials, or
 *  - a path on the same origin (`/…`), where the caller lists the paths it
 *    accepts (`paths`), or accepts any path and says against what it resolves
 *    (`paths: 'any'` with `base`).
 * Everything else is refused with a reason: other schemes (`javascript:`,
 * `data:`, `blob:`, `vbscript:`, `file:`, `mailto:`…), scheme-relative `//host`,
 * backslashes (the WHATWG URL parser reads `\` as `/` in http(s) URLs, so
 * `\\host` is `//host`), control characters anywhere and whitespace at the ends
 * (the parser strips them, which is how `java\tscript:` and ` javascript:` slip
 * past a prefix check), invisible and direction-changing characters (they make
 * the shown URL differ from the followed one), paths the parser would rewrite
 * (`..` segments, `%2e%2e`), and values over MAX_URL_LENGTH.
 *
 * A `blob:` or `data:` URL the page makes itself (URL.createObjectURL for a
 * download) is not outside input and does not come through here; the lint rule
 * (tools/eslint/url-sinks.mjs) knows that call.
 */

/**
 * The same-origin paths a CRM field may name, each documented in docs/urls.md. A place accepts a path only
 * when it lists one of these (or, for the calling SDK's `src`, any path of its own page).
 */
export const OWN_PATHS = {
  /** A call's recording, streamed through the API (`GET /_ringside/v1/calls/{callId}/recording`, `audioUrl` of the call's media). */
  recordingAudio: /^\/_ringside\/v1\/calls\/[0-9A-Za-z_-]{1,64}\/recording$/,
} as const

/** Longest URL accepted, in UTF-16 code units (browsers take more; no CRM URL needs it). */
export const MAX_URL_LENGTH = 8192

/** The same-origin paths a place accepts: patterns on the whole path (with query), or any path resolved against `base`. */
export type SamePaths = readonly RegExp[] | 'any'

export interface UrlRules {
  /** Same-origin paths this place accepts, besides absolute http(s) URLs. Default: none. */
  readonly paths?: SamePaths
  /** Resolve an accepted path against this absolute URL (e.g. the page's), so `href` is absolute. Required with `paths: 'any'`. */
  readonly base?: string
}

export type UrlVerdict =
  | { readonly ok: true; /** The normalised URL (absolute, or the path as written). */ readonly href: string; /** Its origin; null for an unresolved path. */ readonly origin: string | null }
  | { readonly ok: false; /** Why it was refused, a clause a caller can show after the value. */ readonly reason: string }

const SCHEME = /^([a-z][a-z0-9+.-]*):/i
// C0 controls and DEL: the URL parser drops tab and newlines anywhere and trims the rest at the ends.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/
/** Zero-width, bidirectional and other invisible format characters, and the BOM. */
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/
/** Whitespace the parser would trim, or that a reader cannot see, at either end. */
const EDGE_SPACE = /^\s|\s$/
/** Stand-in origin for checking a path's shape without a page (the `.invalid` TLD never resolves, RFC 2606). */
const PLACEHOLDER = 'http://same-origin.invalid'

const refuse = (reason: string): UrlVerdict => ({ ok: false, reason })

/** Checks `value` against the rule; see the module's comment. Never throws. */
export function checkUrl(value: unknown, rules: UrlRules = {}): UrlVerdict {
  if (typeof value !== 'string') return refuse(`is not text (${value === null ? 'null' : typeof value})`)
  if (value.length === 0) return refuse('is empty')
  if (value.length > MAX_URL_LENGTH) return refuse(`is ${value.length} characters long; at most ${MAX_URL_LENGTH} are accepted`)
  if (CONTROL.test(value)) return refuse('contains a control character (tab, newline, NUL…)')
  if (EDGE_SPACE.test(value)) return refuse('starts or ends with whitespace')
  if (INVISIBLE.test(value)) return refuse('contains an invisible or direction-changing character')
  if (value.includes('\\')) return refuse("contains a backslash, which browsers read as '/'")

  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase()
  if (scheme !== undefined) return checkAbsolute(value, scheme)
  if (value.startsWith('//')) return refuse('is scheme-relative (//host); write http:// or https://')
  if (!value.startsWith('/')) return refuse('is not an absolute http(s) URL or a path starting with /')
  return checkPath(value, rules)
}

function checkAbsolute(value: string, scheme: string): UrlVerdict {
  if (scheme !== 'http' && scheme !== 'https') return refuse(`uses the ${scheme}: scheme; only http(s) URLs are accepted`)
  // `http:host` and `http:/host` parse as http://host/ (a WHATWG quirk for special schemes): say it plainly instead.
  if (!/^https?:\/\/[^/]/i.test(value)) return refuse(`must be written ${scheme}://host/…`)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return refuse('is not a valid URL')
  }
  if (url.hostname === '') return refuse('has no host')
  if (url.username !== '' || url.password !== '') return refuse('carries a user name or password (user:password@host); these are not accepted in URLs')
  return { ok: true, href: url.href, origin: url.origin }
}

function checkPath(value: string, rules: UrlRules): UrlVerdict {
  const { paths, base } = rules
  if (paths === undefined || (Array.isArray(paths) && paths.length === 0)) return refuse('is a path; only an absolute http(s) URL is accepted here')
  let resolved: URL
  try {
    resolved = new URL(value, PLACEHOLDER)
  } catch {
    return refuse('is not a valid path')
  }
  const normal = `${resolved.pathname}${resolved.search}${resolved.hash}`
  if (resolved.origin !== PLACEHOLDER || normal !== value) return refuse('is a path the browser would rewrite (dot segments or unencoded characters)')
  if (paths !== 'any' && !paths.some((pattern) => pattern.test(value))) return refuse('is not one of the same-origin paths accepted here')
  if (base === undefined) return paths === 'any' ? refuse('is a path, and there is no page to resolve it against') : { ok: true, href: value, origin: null }
  let absolute: URL
  try {
    absolute = new URL(value, base)
  } catch {
    return refuse('is a path, and its base is not a URL')
  }
  if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return refuse('is a path on a page that is not http(s)')
  return { ok: true, href: absolute.href, origin: absolute.origin }
}

/** The accepted URL (see checkUrl), or undefined. */
export function safeUrl(value: unknown, rules?: UrlRules): string | undefined {
  const verdict = checkUrl(value, rules)
  return verdict.ok ? verdict.href : undefined
}

/** A refused value, shortened and quoted for a message. */
export function quoteUrl(value: unknown): string {
  if (typeof value !== 'string') return String(value)
  return JSON.stringify(value.length > 120 ? `${value.slice(0, 117)}...` : value)
}

/** The sentence a refusal shows: `<what> <value> <reason>.` */
export function refusalText(what: string, value: unknown, reason: string): string {
  return `${what} ${quoteUrl(value)} ${reason}.`
}

/** The accepted URL, or throws an Error whose message names `what`, the value and the reason. */
export function requireSafeUrl(value: unknown, what: string, rules?: UrlRules): string {
  const verdict = checkUrl(value, rules)
  if (!verdict.ok) throw new Error(refusalText(what, value, verdict.reason))
  return verdict.href
}
