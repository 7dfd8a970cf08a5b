/**
 * `validateMessage`: the check every message crossing the boundary goes through, on
 * both sides. The envelope checks are written here; each type's fields are checked by
 * its generated validator (validators.generated.ts, from the catalogue's zod schemas),
 * so the widget side ships without zod and reports the same reasons zod would.
 */
import { deprecationOf, entryFrom, type CatalogueEntry } from './entries.ts'
import type { AnyMessage } from './types.ts'
import type { Issue } from './validator-runtime.ts'
import { VALIDATORS } from './validators.generated.ts'

export type { Issue }

export type ValidationResult =
  | { ok: true; message: AnyMessage; entry: CatalogueEntry; deprecation?: string }
  | { ok: false; reason: string; type?: string }

/** The envelope checks of validateMessage: a plain object with a string type, a messageId and a type this sender may send. */
export type EnvelopeCheck =
  | { ok: true; raw: Record<string, unknown>; type: string; entry: CatalogueEntry }
  | { ok: false; reason: string; type?: string }

/** Plain object of any realm (prototype is null or some realm's Object.prototype). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === null || Object.getPrototypeOf(proto) === null
}

const MAX_TEXT = 120
function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text
}

/**
 * Why a message is not a calling-SDK message at all, or undefined when it is SDK-shaped.
 * The SDK's own receiving side (IFrameManager.onMessage in @hubspot/calling-extensions-sdk)
 * returns without a word when `!messageId || !type`: a vendor library's traffic in the
 * widget's page (plain objects, strings, objects with only `type` or only `messageId`) never
 * reaches the CRM's handlers. This is the same test: falsy `type` or `messageId` (0, '', null,
 * absent), or no object at all. Never throws.
 */
export function notSdkReason(raw: unknown): string | undefined {
  if (!isPlainObject(raw)) return `not a calling-SDK message (${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw === 'object' ? 'not a plain object' : `a ${typeof raw}`})`
  try {
    const type: unknown = raw.type
    const messageId: unknown = raw.messageId
    if (!type && !messageId) return 'not a calling-SDK message (no type, no messageId)'
    if (!type) return 'not a calling-SDK message (no type)'
    if (!messageId) return 'not a calling-SDK message (no messageId)'
    return undefined
  } catch {
    return 'not a calling-SDK message (unreadable)'
  }
}

export function checkEnvelope(raw: unknown, expected: 'from-widget' | 'from-host'): EnvelopeCheck {
  if (!isPlainObject(raw)) return { ok: false, reason: 'not an object' }
  const type = raw.type
  if (typeof type !== 'string') return { ok: false, reason: 'missing type' }
  const messageId = raw.messageId
  const idOk =
    (typeof messageId === 'string' && messageId.length > 0) ||
    (typeof messageId === 'number' && Number.isFinite(messageId))
  if (!idOk) return { ok: false, reason: 'missing messageId', type: clip(type) }
  const entry = entryFrom(expected === 'from-widget' ? 'widget' : 'host', type)
  if (!entry) return { ok: false, reason: 'unknown type', type: clip(type) }
  const data = raw.data
  if (typeof data === 'object' && data !== null && !Array.isArray(data) && !isPlainObject(data)) {
    return { ok: false, reason: 'invalid: data is not a plain object', type }
  }
  return { ok: true, raw, type, entry }
}

/**
 * One issue as `path: message` (clipped), e.g. `data.engagementId: Invalid input:
 * expected number, received undefined`. Takes zod's issues (host side) and the
 * generated validators' alike.
 */
export function issueText(issue: { readonly path: readonly PropertyKey[]; readonly message: string }): string {
  const path = issue.path.map(String).join('.')
  return clip(path ? `${path}: ${issue.message}` : issue.message)
}

/** The reason validateMessage gives for these issues (at most three). */
export function describeIssues(issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[]): string {
  return `invalid: ${issues.slice(0, 3).map(issueText).join('; ')}`
}

/**
 * Validates a message received from the other side against the SDK's types. Never throws.
 *
 * `message` in the result is the very object passed in (no clone), now typed.
 * A type the expected sender may not send is reported as `unknown type`, which is
 * how the npm package treats it (a widget answers UNKNOWN_MESSAGE_TYPE).
 * The host judges widget messages with judgeWidgetMessage (judgement.ts), which
 * uses the same schemas for the findings and acts on more than it accepts.
 */
export function validateMessage(raw: unknown, expected: 'from-widget' | 'from-host'): ValidationResult {
  try {
    const envelope = checkEnvelope(raw, expected)
    if (!envelope.ok) return envelope
    const { type, entry } = envelope
    const issues: Issue[] = []
    VALIDATORS[type as keyof typeof VALIDATORS](raw, issues)
    if (issues.length > 0) return { ok: false, reason: describeIssues(issues), type }
    const message = raw as AnyMessage
    const deprecation = deprecationOf(type, envelope.raw.data)
    return deprecation === undefined ? { ok: true, message, entry } : { ok: true, message, entry, deprecation }
  } catch (error) {
    return { ok: false, reason: `invalid: validation failed (${describeError(error)})` }
  }
}

export function describeError(error: unknown): string {
  try {
    return clip(error instanceof Error ? error.message : typeof error)
  } catch {
    return 'unprintable error'
  }
}
