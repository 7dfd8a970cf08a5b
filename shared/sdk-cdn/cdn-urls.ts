/**
 * The public CDN URLs of @hubspot/calling-extensions-sdk and where Ringside serves
 * them instead: the one mapping that the server (/sdk/npm/…), the Playwright kit's
 * routes (check-widget, the fixtures) and `ringside open` share.
 *
 * - jsDelivr: https://cdn.jsdelivr.net/npm/@hubspot/calling-extensions-sdk[@<version>][/<file>]
 *   (also its fastly., gcore. and testingcf. hosts); `/+esm` is its ES-module build.
 * - unpkg: https://unpkg.com/@hubspot/calling-extensions-sdk[@<version>][/<file>]
 * - cdnjs does not host the package (its library list has no calling-extensions-sdk), so no cdnjs URL exists to map.
 *
 * <version> is what npm and both CDNs accept: an exact version, the `latest` tag, a
 * range (`0.9`, `^0.9.3`, `0.9.x`) or nothing (latest). A prerelease pin `x.y.z-<tag>`
 * (HubSpot's CDN-load demo pins `0.9.3-alpha.0`) gets the release x.y.z when Ringside holds
 * it, with a warning that names the substitution (Substitution); else the usual refusal. Without a file, both CDNs
 * serve the package's `main`, dist/main.js. Ringside serves dist/main.js (the
 * release's globals, see releases.ts) and dist/main.esm.js (also as jsDelivr's
 * `.min.js` variants) at /sdk/npm/@hubspot/calling-extensions-sdk@<version>/<file>.
 */
import semver from 'semver'
import { LATEST_RELEASE, SDK_PACKAGE, SDK_RELEASES, releaseOf, type SdkRelease } from './releases.ts'

export type CdnFile = 'main.js' | 'main.esm.js'

/** The jsDelivr and unpkg hosts that serve npm packages, with the path prefix before the package name. */
const CDN_HOSTS: ReadonlyMap<string, string> = new Map([
  ['cdn.jsdelivr.net', '/npm/'],
  ['fastly.jsdelivr.net', '/npm/'],
  ['gcore.jsdelivr.net', '/npm/'],
  ['testingcf.jsdelivr.net', '/npm/'],
  ['unpkg.com', '/'],
])

/** Where Ringside serves the package (its own origin, any port). */
export const SERVED_PREFIX = `/sdk/npm/${SDK_PACKAGE}`

/** Every request to one of the CDNs for this package (for Playwright's route()). */
export const CDN_SDK_URL = new RegExp(
  `^https?://(?:${[...CDN_HOSTS.keys()].map((h) => h.replaceAll('.', '\\.')).join('|')})/(?:npm/)?${SDK_PACKAGE.replace('/', '\\/')}(?:@[^/?#]*)?(?:[/?#].*)?$`,
)

const FILES: ReadonlyMap<string, CdnFile> = new Map([
  ['', 'main.js'],
  ['dist/main.js', 'main.js'],
  ['dist/main.min.js', 'main.js'],
  ['dist/main.esm.js', 'main.esm.js'],
  ['dist/main.esm.min.js', 'main.esm.js'],
  ['+esm', 'main.esm.js'],
])

export interface SdkRequest {
  /** As written in the URL ('' when none). */
  readonly version: string
  /** The file path after the version ('' when none). */
  readonly file: string
}

/** Splits `@hubspot/calling-extensions-sdk[@version][/file]`; null for another package. */
function splitPackagePath(path: string): SdkRequest | null {
  if (!path.startsWith(SDK_PACKAGE)) return null
  const rest = path.slice(SDK_PACKAGE.length)
  if (rest !== '' && rest[0] !== '@' && rest[0] !== '/') return null
  const slash = rest.indexOf('/')
  const versionPart = slash === -1 ? rest : rest.slice(0, slash)
  const file = slash === -1 ? '' : rest.slice(slash + 1)
  let version: string
  try {
    version = decodeURIComponent(versionPart.slice(1))
  } catch {
    version = versionPart.slice(1)
  }
  return { version, file: file.replace(/\/+$/, '') }
}

/** The package request in a public CDN URL; null when the URL is not the SDK on a known CDN. */
export function parseCdnUrl(url: string): SdkRequest | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  const prefix = CDN_HOSTS.get(parsed.hostname)
  if (prefix === undefined || !parsed.pathname.startsWith(prefix)) return null
  return splitPackagePath(parsed.pathname.slice(prefix.length))
}

/** The package request in a path Ringside serves (/sdk/npm/@hubspot/calling-extensions-sdk@…); null otherwise. */
export function parseServedPath(pathname: string): SdkRequest | null {
  if (!pathname.startsWith('/sdk/npm/')) return null
  return splitPackagePath(pathname.slice('/sdk/npm/'.length))
}

/** Ringside's path for a package request. */
export function servedPath({ version, file }: SdkRequest): string {
  return `${SERVED_PREFIX}@${encodeURIComponent(version || 'latest')}/${file || 'dist/main.js'}`
}

export const SUPPORTED_VERSIONS_TEXT = `${SDK_RELEASES.map((r) => r.version).join(', ')} (and latest = ${LATEST_RELEASE.version}, or a range such as 0.9)`

/** A prerelease pin answered with the release of the same x.y.z: what the page asked for, what it got. */
export interface Substitution {
  readonly requested: string
  readonly served: string
}

/** The one sentence the harness, the inspector and check-widget show for a substitution. */
export function substitutionSentence({ requested, served }: Substitution): string {
  return `The widget pins ${SDK_PACKAGE}@${requested}, a prerelease Ringside does not hold: Ringside serves the release ${served} in its place.`
}

export type Resolution =
  | { readonly ok: true; readonly release: SdkRelease; readonly file: CdnFile; readonly substitution?: Substitution }
  | { readonly ok: false; readonly message: string }

/** The exact version a request names, and the release that a prerelease pin `x.y.z-<tag>` gets instead (when Ringside holds x.y.z). */
function pinnedVersion(requested: string): { exact: string | null; substitution?: Substitution } {
  const versions = SDK_RELEASES.map((r) => r.version)
  if (requested === 'latest') return { exact: LATEST_RELEASE.version }
  const valid = semver.valid(requested)
  if (valid === null) return { exact: semver.validRange(requested) ? semver.maxSatisfying(versions, requested) : null }
  if (releaseOf(valid) !== undefined || semver.prerelease(valid) === null) return { exact: valid }
  const served = `${semver.major(valid)}.${semver.minor(valid)}.${semver.patch(valid)}`
  return releaseOf(served) === undefined ? { exact: null } : { exact: served, substitution: { requested: valid, served } }
}

/** The release and file a request gets, or the one-sentence reason it gets none. */
export function resolveSdkRequest({ version, file }: SdkRequest): Resolution {
  const requested = version === '' ? 'latest' : version
  const { exact, substitution } = pinnedVersion(requested)
  const release = exact === null ? undefined : SDK_RELEASES.find((r) => r.version === exact)
  if (!release) {
    return { ok: false, message: `Ringside serves ${SDK_PACKAGE} ${SUPPORTED_VERSIONS_TEXT}, not ${JSON.stringify(requested.slice(0, 60))}.` }
  }
  const served = FILES.get(file)
  if (!served) {
    return { ok: false, message: `Ringside serves ${SDK_PACKAGE}@${release.version}'s dist/main.js and dist/main.esm.js, not ${JSON.stringify(file.slice(0, 100))}.` }
  }
  return substitution === undefined ? { ok: true, release, file: served } : { ok: true, release, file: served, substitution }
}

/** The version text a served file may carry in its REQUESTED_SLOT: only what semver writes ([0-9A-Za-z.+-]). */
export function requestedText(resolution: Extract<Resolution, { ok: true }>): string {
  return resolution.substitution?.requested ?? resolution.release.version
}

/**
 * The substitution Ringside's CDN build announces in its SYNC_ACK (`ringsideSdkSubstitution`,
 * see shared/protocol/handshake.ts), or null: read from a message off the wire, so checked.
 */
export function substitutionInAck(message: unknown): Substitution | null {
  if (typeof message !== 'object' || message === null) return null
  const field: unknown = (message as { ringsideSdkSubstitution?: unknown }).ringsideSdkSubstitution
  if (typeof field !== 'object' || field === null) return null
  const { requested, served } = field as { requested?: unknown; served?: unknown }
  if (typeof requested !== 'string' || typeof served !== 'string' || semver.valid(requested) === null || releaseOf(served) === undefined) return null
  return { requested, served }
}
