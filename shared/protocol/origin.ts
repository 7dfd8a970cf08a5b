/**
 * URL → origin helpers. Only http(s) URLs have an origin we will post to; anything
 * else (javascript:, data:, blob:, 'null', garbage) yields null.
 */

/** Parses `url` (relative URLs resolve against `base`) and returns the URL if it is http(s). */
export function parseHttpUrl(url: unknown, base?: string): URL | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > 8192) return null
  let parsed: URL
  try {
    parsed = base === undefined ? new URL(url) : new URL(url, base)
  } catch {
    return null
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : null
}

/** The origin of an absolute http(s) URL, or null. */
export function httpOrigin(url: unknown): string | null {
  return parseHttpUrl(url)?.origin ?? null
}
