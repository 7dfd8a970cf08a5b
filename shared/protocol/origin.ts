/**
 * URL → origin helpers. Only http(s) URLs have an origin we will post to; anything
 * else (javascript:, data:, blob:, 'null', garbage) yields null. The rule is
 * shared/url/safe-url.ts's, the one rule for URLs from outside.
 */
import { safeUrl } from '../url/safe-url.ts'

/**
 * Parses `url` and returns it if safe-url accepts it: an absolute http(s) URL,
 * or, with `base`, a path (`/…`) on base's origin, resolved against it.
 */
export function parseHttpUrl(url: unknown, base?: string): URL | null {
  const href = safeUrl(url, base === undefined ? undefined : { paths: 'any', base })
  return href === undefined ? null : new URL(href)
}

/** The origin of an absolute http(s) URL, or null. */
export function httpOrigin(url: unknown): string | null {
  return parseHttpUrl(url)?.origin ?? null
}
