/**
 * Request parsing and response building, each done in one place for every
 * route: JSON and form bodies, comma-separated or repeated query lists, and
 * JSON responses.
 */
import { z, type ZodType } from 'zod'
import { ApiError, Category, unsupportedMediaType, validationError } from './errors.ts'

/** Largest request body the emulator reads (the real API caps events at 1 MB; batches can hold several). */
export const MAX_BODY_BYTES = 12 * 1024 * 1024

/**
 * Deepest nesting of arrays and objects a JSON body may have. Real APIs
 * document limits of this order (JSON parsers of web frameworks stop at 100
 * to 1,000 levels); no CRM request shape needs more than a handful.
 */
export const MAX_JSON_DEPTH = 100

export type BodyKind = 'json' | 'form'

/**
 * The deepest nesting of `[` and `{` in a JSON text, in one pass without
 * recursion (characters inside strings do not count). Stops counting at
 * `limit + 1`, so the answer is cheap even for a hostile body.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
    } else if (c === 0x5b || c === 0x7b) {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > limit) return deepest
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--
    }
  }
  return deepest
}

/**
 * Parse a JSON text from a client: 400 for malformed JSON or for nesting
 * deeper than MAX_JSON_DEPTH (measured before parsing, so no later step can
 * recurse too deep on it).
 */
export function parseJsonText(text: string, what = 'request body', maxDepth = MAX_JSON_DEPTH): unknown {
  if (jsonDepth(text, maxDepth) > maxDepth) {
    throw validationError(`Invalid input JSON: the ${what} is nested more than ${maxDepth} levels deep.`, {
      context: { maxDepth: [String(maxDepth)] },
    })
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw validationError(`Invalid input JSON: ${error instanceof Error ? error.message : 'cannot parse'}`)
  }
}

/** `decodeURIComponent` that returns undefined for bad percent-encoding instead of throwing. */
export function safeDecodeURIComponent(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/**
 * A JSON object of `value`s keyed by any string, copied into an object
 * without a prototype. Unlike `z.record`, it keeps a key named `__proto__`
 * (JSON.parse makes it an own property), so such a key reaches the checks
 * and is refused like any other unknown name instead of vanishing.
 */
export function ownRecord<T extends ZodType>(value: T) {
  return z
    .custom<Record<string, unknown>>((input) => typeof input === 'object' && input !== null && !Array.isArray(input), {
      message: 'must be a JSON object',
    })
    .transform((input, ctx) => {
      const out: Record<string, z.output<T>> = Object.create(null)
      for (const key of Object.keys(input)) {
        const result = value.safeParse(input[key])
        if (result.success) out[key] = result.data
        else for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] } as never)
      }
      return out
    })
}

export type ParsedBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; bytes: number }
  | { kind: 'form'; value: Record<string, string>; bytes: number }
  /** What a route's own reader made of the body (Route.readBody). */
  | { kind: 'read'; value: unknown }

/** A Content-Length value: decimal digits only. */
const DECIMAL = /^\d+$/
const UTF8 = new TextDecoder()

/** 413 for a request body over `limit` bytes. */
export const bodyTooLarge = (bytes: number | string, limit: number) =>
  new ApiError(413, Category.PAYLOAD_TOO_LARGE, `Request body is ${bytes} bytes; the limit is ${limit}.`)

/**
 * The body as text, refused with 413 once it passes `limit` bytes: at once
 * when Content-Length says so, else counted chunk by chunk as it streams in
 * (a chunked upload is never held whole beyond the limit).
 *
 * A body of a declared length within the limit is read whole with
 * `arrayBuffer()`: over HTTP the length frames the body, so it cannot grow
 * past it, and the server's request object then reads the socket's bytes
 * directly instead of through a web stream (the cheaper path for every
 * write request). The length is still checked once read, for a request made
 * in process with a header that understates its body.
 */
export async function readBodyText(request: Request, limit: number): Promise<{ text: string; bytes: number }> {
  const header = request.headers.get('content-length')
  const declared = Number(header ?? 0)
  if (declared > limit) throw bodyTooLarge(declared, limit)
  const whole = header !== null && DECIMAL.test(header) ? new Uint8Array(await request.arrayBuffer()) : await readAllWithin(request.body, limit)
  if (whole === 'too-large' || whole.byteLength > limit) throw bodyTooLarge(`over ${limit}`, limit)
  return { text: UTF8.decode(whole), bytes: whole.byteLength }
}

/**
 * Every byte of a stream, or 'too-large' as soon as it passes `limit` (the
 * stream is then cancelled, so a huge body is never held whole). Request
 * bodies and the answers of calling apps' servers are read with it.
 */
export async function readAllWithin(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array<ArrayBuffer> | 'too-large'> {
  const chunks: Uint8Array[] = []
  let bytes = 0
  if (body !== null) {
    const reader = body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      bytes += value.byteLength
      if (bytes > limit) {
        await reader.cancel().catch(() => {})
        return 'too-large'
      }
      chunks.push(value)
    }
  }
  const whole = new Uint8Array(bytes)
  let offset = 0
  for (const chunk of chunks) {
    whole.set(chunk, offset)
    offset += chunk.byteLength
  }
  return whole
}

/**
 * Read the body once. An empty body is `none`; a body in a content type
 * other than `accepts` is 415; malformed JSON is 400.
 */
export async function parseBody(request: Request, accepts: readonly BodyKind[], maxDepth = MAX_JSON_DEPTH): Promise<ParsedBody> {
  const { text, bytes } = await readBodyText(request, MAX_BODY_BYTES)
  if (text.length === 0) return { kind: 'none' }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  const isJson = type === 'application/json' || type.endsWith('+json')
  const isForm = type === 'application/x-www-form-urlencoded'
  const expected = accepts.map((k) => (k === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'))
  if (isJson && accepts.includes('json')) return { kind: 'json', value: parseJsonText(text, 'request body', maxDepth), bytes }
  if (isForm && accepts.includes('form')) {
    const value: Record<string, string> = Object.create(null)
    for (const [key, v] of new URLSearchParams(text)) value[key] = v
    return { kind: 'form', value, bytes }
  }
  throw unsupportedMediaType(type, expected)
}

/** A JSON response with the given status. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json;charset=utf-8', ...headers },
  })
}

/** 204 No Content. */
export function noContent(headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 204, headers })
}

/** A text/html response (timeline render endpoint). */
export function html(body: string, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/html;charset=utf-8' } })
}

/**
 * A list-valued query parameter. The real API documents comma-separated
 * lists (`?properties=a,b`); the official Node client repeats the key instead. Both are accepted and
 * merged; empty items are dropped.
 */
export function listParam(query: URLSearchParams, name: string): string[] | undefined {
  const raw = query.getAll(name)
  if (raw.length === 0) return undefined
  return raw.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v.length > 0)
}

/** A boolean query parameter: "true"/"false" (case-insensitive), else 400. */
export function boolParam(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const raw = query.get(name)
  if (raw === null || raw === '') return fallback
  const v = raw.toLowerCase()
  if (v === 'true') return true
  if (v === 'false') return false
  throw validationError(`Query parameter '${name}' must be true or false, got '${raw}'.`)
}

/** An integer query parameter within [min, max], else 400. */
export function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name)
  if (raw === null || raw === '') return fallback
  if (!/^-?\d+$/.test(raw)) throw validationError(`Query parameter '${name}' must be an integer, got '${raw}'.`)
  const n = Number(raw)
  if (n < min || n > max) throw validationError(`Query parameter '${name}' must be between ${min} and ${max}, got ${n}.`)
  return n
}

/**
 * Check a request body (or part of one) against a zod schema; on failure a
 * 400 VALIDATION_ERROR naming each problem and where it is.
 */
export function parseInput<T>(schema: ZodType<T>, value: unknown, what = 'request body'): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issues = result.error.issues.slice(0, 20)
  const where = (path: readonly PropertyKey[]) => (path.length === 0 ? what : path.map(String).join('.'))
  throw validationError(`Invalid input in ${what}: ${issues.map((i) => `${where(i.path)}: ${i.message}`).join('; ')}`, {
    errors: issues.map((i) => ({ message: i.message, in: where(i.path), code: i.code })),
  })
}

/** UTF-8 size of a string. */
export function utf8Bytes(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        i++
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}

/**
 * An array of at most `max` items of `item`: the length is checked first, so
 * an over-long array is refused at once rather than after every item has been
 * validated (a batch of millions of items once took seconds to refuse).
 */
export function boundedArray<T extends ZodType>(item: T, max: number, min?: { count: number; message: string }) {
  const array = min ? z.array(item).min(min.count, min.message) : z.array(item)
  return z
    .custom<unknown[]>((value) => !Array.isArray(value) || value.length <= max, {
      error: (issue) => `must hold at most ${max} items; got ${(issue.input as unknown[]).length}`,
      abort: true,
    })
    .pipe(array)
}

/**
 * The value stored under a user-chosen name, own properties only: a property
 * named `constructor`, `toString` or `__proto__` that was never set is
 * undefined, never a function inherited from Object.prototype.
 */
export function own<T>(map: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined
}
