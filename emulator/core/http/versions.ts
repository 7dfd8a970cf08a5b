/**
 * The one table of the API's other path forms: HubSpot's date-versioned
 * paths and the legacy aliases, each mapped to the route path that serves it.
 *
 * Since 2026-03 the real API names its versions by release date, in the path
 * after the API's name: `/api-name/YYYY-MM/resource`, e.g.
 * `GET /crm/objects/2026-03/contacts` for `GET /crm/v3/objects/contacts`
 * (https://developers.hubspot.com/docs/api-reference/2026-03/overview). A
 * version comes out each March and September; the numeric v1–v4 paths are
 * legacy. The routes of this emulator are registered once, at their legacy
 * path; the router maps a date-versioned (or alias) path to that legacy path
 * with `toRoutePath()` before it matches, so every route, present and future,
 * answers under its date-versioned form too, with the same behaviour.
 *
 * What maps where follows the published 2026-03 and 2026-09 references:
 * - the objects API's association paths (`/crm/objects/2026-03/{type}/{id}/associations/…`)
 *   are the v4 association endpoints (array of AssociationSpec in, LabelsBetweenObjectPair
 *   out), not the v3 ones; the v3 association endpoints (`…/{toId}/{associationType}`,
 *   `/crm/v3/associations/…`) have no date-versioned form;
 * - `/crm/associations/2026-03/…` is the v4 associations API, labels and
 *   definitions included;
 * - `/oauth/2026-03/…` is the OAuth API that HubSpot also published as v3
 *   (`/oauth/v3/token`, `…/introspect`, `…/revoke`); OAuth v1 has no
 *   date-versioned form;
 * - the timeline's date versions (`/integrators/timeline/2026-03/events`) take
 *   app events of the new developer platform, a different body from v3's
 *   templates and events, and are not mapped.
 * A version that is not published (e.g. `2025-01`, or the `2025-09` and
 * `2026-09-beta` previews) matches no route and gets the API's 404.
 */

/** The date versions the emulator serves, oldest first. */
export const DATE_VERSIONS = ['2026-03', '2026-09'] as const
export type DateVersion = (typeof DATE_VERSIONS)[number]

/** The newest served date version (the one the docs call "latest"). */
export const LATEST_DATE_VERSION: DateVersion = DATE_VERSIONS[DATE_VERSIONS.length - 1] as DateVersion

/**
 * One mapping: a request path whose first segments match `from` is served by
 * the route at `to` followed by the rest of the path. In `from`, `{version}`
 * is a date version and `*` any one segment; the `*` segments are carried
 * into the `*` of `to`, in order. The first mapping that matches wins, so a
 * narrower one comes before the wider one of the same API.
 */
export interface PathMapping {
  from: string
  to: string
  /** The date versions published for this API; default every one in DATE_VERSIONS. */
  versions?: readonly DateVersion[]
}

const VERSION = '{version}'
const ANY = '*'

/** The table (see the comment at the top for the why of each row). */
export const PATH_MAPPINGS: readonly PathMapping[] = [
  // Legacy aliases: both names are in use by the official clients.
  { from: '/integrators/timeline/v3', to: '/crm/v3/timeline' },
  { from: '/crm/associations/v4', to: '/crm/v4/associations' },
  // Date versions.
  { from: `/crm/objects/${VERSION}/*/*/associations`, to: '/crm/v4/objects/*/*/associations' },
  { from: `/crm/objects/${VERSION}`, to: '/crm/v3/objects' },
  { from: `/crm/associations/${VERSION}`, to: '/crm/v4/associations' },
  { from: `/crm/properties/${VERSION}`, to: '/crm/v3/properties' },
  { from: `/crm/pipelines/${VERSION}`, to: '/crm/v3/pipelines' },
  { from: `/crm/owners/${VERSION}`, to: '/crm/v3/owners' },
  { from: `/crm/extensions/calling/${VERSION}`, to: '/crm/v3/extensions/calling' },
  { from: `/crm-object-schemas/${VERSION}`, to: '/crm-object-schemas/v3' },
  { from: `/oauth/${VERSION}`, to: '/oauth/v3' },
]

interface CompiledMapping {
  from: string[]
  to: string[]
  versions: readonly string[] | undefined
}

const segmentsOf = (path: string) => path.split('/').slice(1)

const COMPILED: readonly CompiledMapping[] = PATH_MAPPINGS.map((m) => ({
  from: segmentsOf(m.from),
  to: segmentsOf(m.to),
  versions: m.from.includes(VERSION) ? (m.versions ?? DATE_VERSIONS) : undefined,
}))

/** The `*` segments of `parts` under `pattern` (a prefix match), or undefined if it does not match. */
function capture(pattern: readonly string[], parts: readonly string[], versions: readonly string[] | undefined): string[] | undefined {
  if (parts.length < pattern.length) return undefined
  const captured: string[] = []
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] as string
    const part = parts[i] as string
    if (want === ANY) {
      if (part === '') return undefined
      captured.push(part)
    } else if (want === VERSION) {
      if (!versions?.includes(part)) return undefined
    } else if (want !== part) {
      return undefined
    }
  }
  return captured
}

/** `pattern` with its `*` filled from `captured` and `{version}` from `version`. */
function fill(pattern: readonly string[], captured: readonly string[], version?: string): string[] {
  let next = 0
  return pattern.map((seg) => (seg === ANY ? (captured[next++] as string) : seg === VERSION ? (version as string) : seg))
}

/**
 * The route path that serves a request path given in a date-versioned or
 * alias form, e.g. `/crm/objects/2026-03/contacts/1` → `/crm/v3/objects/contacts/1`;
 * undefined when no mapping applies (the path is legacy already, or names a
 * version that is not served).
 */
export function toRoutePath(path: string): string | undefined {
  const parts = segmentsOf(path)
  for (const mapping of COMPILED) {
    const captured = capture(mapping.from, parts, mapping.versions)
    if (captured) return '/' + [...fill(mapping.to, captured), ...parts.slice(mapping.from.length)].join('/')
  }
  return undefined
}

/**
 * Every date-versioned form of a legacy path, newest version last: a route
 * path (`/crm/v3/objects/:objectType`) or a concrete one
 * (`/crm/v3/objects/tickets/7`). Only forms that `toRoutePath` maps back to
 * exactly this path are returned, so a legacy endpoint whose date-versioned
 * path means another endpoint (the v3 association endpoints) gets none.
 */
export function dateVersionedPaths(legacyPath: string): string[] {
  const parts = segmentsOf(legacyPath)
  const found: string[] = []
  for (const version of DATE_VERSIONS) {
    for (const mapping of COMPILED) {
      if (!mapping.versions?.includes(version)) continue
      const captured = capture(mapping.to, parts, undefined)
      if (!captured) continue
      const candidate = '/' + [...fill(mapping.from, captured, version), ...parts.slice(mapping.to.length)].join('/')
      if (toRoutePath(candidate) === legacyPath && !found.includes(candidate)) found.push(candidate)
    }
  }
  return found
}

/** `YYYY-MM`, optionally with a suffix such as `-beta`: how a date version looks in a path. */
const DATE_VERSION_SHAPE = /^\d{4}-\d{2}(?:-[a-z]+)?$/

/**
 * For a path that has a date-versioned API's name followed by a version that
 * is not served (`/crm/objects/2025-01/contacts`), that API's prefix and the
 * version asked for, so the 404 can say which versions exist.
 */
export function unservedDateVersion(path: string): { api: string; version: string } | undefined {
  const parts = segmentsOf(path)
  for (const mapping of COMPILED) {
    if (!mapping.versions) continue
    const at = mapping.from.indexOf(VERSION)
    const part = parts[at]
    if (part === undefined || !DATE_VERSION_SHAPE.test(part) || mapping.versions.includes(part)) continue
    if (capture(mapping.from.slice(0, at), parts, undefined)) return { api: '/' + mapping.from.slice(0, at).join('/'), version: part }
  }
  return undefined
}
