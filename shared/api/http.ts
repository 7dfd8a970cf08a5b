/**
 * Request parsing and response building, each done in one place for every
 * route: JSON and form bodies, comma-separated or repeated query lists, and
 * JSON responses.
 */
import type { ZodType } from 'zod'
import { ApiError, Category, unsupportedMediaType, validationError } from './errors.ts'

/** Largest request body the emulator reads (the real API caps events at 1 MB; batches can hold several). */
export const MAX_BODY_BYTES = 12 * 1024 * 1024

export type BodyKind = 'json' | 'form'

export type ParsedBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; bytes: number }
  | { kind: 'form'; value: Record<string, string>; bytes: number }

/**
 * Read the body once. An empty body is `none`; a body in a content type
 * other than `accepts` is 415; malformed JSON is 400.
 */
export async function parseBody(request: Request, accepts: readonly BodyKind[]): Promise<ParsedBody> {
  const text = await request.text()
  if (text.length === 0) return { kind: 'none' }
  const bytes = new TextEncoder().encode(text).byteLength
  if (bytes > MAX_BODY_BYTES) {
    throw new ApiError(413, Category.PAYLOAD_TOO_LARGE, `Request body is ${bytes} bytes; the limit is ${MAX_BODY_BYTES}.`)
  }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  const isJson = type === 'application/json' || type.endsWith('+json')
  const isForm = type === 'application/x-www-form-urlencoded'
  const expected = accepts.map((k) => (k === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'))
  if (isJson && accepts.includes('json')) {
    try {
      return { kind: 'json', value: JSON.parse(text) as unknown, bytes }
    } catch (error) {
      throw validationError(`Invalid input JSON: ${error instanceof Error ? error.message : 'cannot parse'}`)
    }
  }
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
 * A list-valued query parameter. The spec describes comma-separated lists;
 * the official Node client repeats the key instead. Both are accepted and
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
