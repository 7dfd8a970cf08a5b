/**
 * fast-check arbitraries of messages that must be rejected: arbitrary values, broken
 * envelopes, known types with a required field missing or of the wrong kind, payloads
 * replaced by non-objects, huge strings and prototype tricks.
 *
 * Every mutation is chosen so that it can never yield a valid message; the generators
 * do not consult the schemas under test (that would make the property tautological).
 */
import fc from 'fast-check'
import type { MessageType } from '../catalogue.ts'
import { sampleMessage } from './samples.ts'

type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array'

/** Required `data` fields per type and what kind of value they must hold. */
const REQUIRED_FROM_HOST: Partial<Record<MessageType, Record<string, Kind>>> = {
  ENGAGEMENT_CREATED: { engagementId: 'number' },
  CREATE_ENGAGEMENT_SUCCEEDED: { engagementId: 'number' },
  UPDATE_ENGAGEMENT_SUCCEEDED: { engagementId: 'number' },
  CREATE_ENGAGEMENT_FAILED: { error: 'object' },
  UPDATE_ENGAGEMENT_FAILED: { error: 'object' },
  CALLER_ID_MATCH_SUCCEEDED: { callerIdMatches: 'array' },
  VISIBILITY_CHANGED: { isMinimized: 'boolean', isHidden: 'boolean' },
  // DIAL_NUMBER needs phoneNumber or phone_number: both are removed/broken together below
  DIAL_NUMBER: { phoneNumber: 'string' },
}

const REQUIRED_FROM_WIDGET: Partial<Record<MessageType, Record<string, Kind>>> = {
  INCOMING_CALL: { externalCallId: 'string', fromNumber: 'string', toNumber: 'string' },
  OUTGOING_CALL_STARTED: { externalCallId: 'string' },
  CALL_ANSWERED: { externalCallId: 'string' },
  CALL_ENDED: { externalCallId: 'string', engagementId: 'number' },
  CALL_COMPLETED: { externalCallId: 'string' },
  CALL_TRANSFERRED: { externalCallId: 'string' },
  NAVIGATE_TO_RECORD: { objectCoordinates: 'object' },
  FINALIZE_ENGAGEMENT: { externalCallId: 'string', engagementId: 'number' },
  PUBLISH_TO_CHANNEL: { externalCallId: 'string', engagementId: 'number' },
  ERROR: { message: 'string' },
  RESIZE_WIDGET: { width: 'number', height: 'number' },
  SET_WIDGET_URL: { iFrameUrl: 'string' },
}

const hugeString = fc.constantFrom('x'.repeat(200_000), '9'.repeat(100_000), '\u0000'.repeat(50_000))
const someObject = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 4 })

function wrongFor(kind: Kind): fc.Arbitrary<unknown> {
  const common = [fc.constant(null), someObject, fc.array(fc.integer(), { maxLength: 3 })]
  switch (kind) {
    case 'string':
      return fc.oneof(fc.integer(), fc.double(), fc.boolean(), ...common)
    case 'number':
      return fc.oneof(
        fc.string(),
        hugeString,
        fc.boolean(),
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '42'),
        ...common,
      )
    case 'boolean':
      return fc.oneof(fc.string(), fc.integer(), fc.constantFrom('true', 0, 1), ...common)
    case 'object':
      return fc.oneof(fc.string(), hugeString, fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }))
    case 'array':
      return fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), someObject)
  }
}

const nonObjectData = fc.oneof(
  fc.string(),
  hugeString,
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
)

function withoutKey(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...record }
  delete copy[key]
  return copy
}

/** A known type with one required field missing or of the wrong kind, or non-object data. */
function brokenPayload(required: Partial<Record<MessageType, Record<string, Kind>>>): fc.Arbitrary<unknown> {
  const cases = Object.entries(required).flatMap(([type, fields]) =>
    Object.entries(fields ?? {}).map(([field, kind]) => ({ type: type as MessageType, field, kind })),
  )
  return fc.constantFrom(...cases).chain(({ type, field, kind }) => {
    const base = sampleMessage(type)
    const data = base.data as Record<string, unknown>
    // DIAL_NUMBER also carries the legacy duplicate, which would satisfy the requirement
    const trimmed = type === 'DIAL_NUMBER' ? withoutKey(data, 'phone_number') : data
    return fc.oneof(
      fc.constant({ ...base, data: withoutKey(trimmed, field) }),
      wrongFor(kind).map((wrong) => ({ ...base, data: { ...trimmed, [field]: wrong } })),
      nonObjectData.map((wrong) => ({ ...base, data: wrong })),
      // the fields hidden behind an own "__proto__" key are not fields at all
      fc.constant(JSON.parse(`{"type":${JSON.stringify(type)},"messageId":"m1","data":{"__proto__":${JSON.stringify(trimmed)}}}`) as unknown),
    )
  })
}

/** A valid message of a type the sender may send, with its envelope broken. */
function brokenEnvelope(types: MessageType[]): fc.Arbitrary<unknown> {
  return fc.constantFrom(...types).chain((type) => {
    const base = sampleMessage(type)
    return fc.oneof(
      fc.constant(withoutKey(base, 'messageId')),
      fc.constantFrom('', null, Number.NaN, true, {}, []).map((messageId) => ({ ...base, messageId })),
      fc.oneof(fc.integer(), fc.constant(null), someObject, fc.constant(undefined)).map((t) => ({ ...base, type: t })),
      fc.constant(withoutKey(base, 'type')),
      // inherited, not own, envelope fields
      fc.constant(Object.create(base) as object),
      fc.constant([base]),
    )
  })
}

const KNOWN = new Set<string>()
function unknownType(knownTypes: MessageType[]): fc.Arbitrary<unknown> {
  for (const t of knownTypes) KNOWN.add(t)
  return fc
    .oneof(fc.string(), hugeString, fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'SYNC_ACK_FAILED', 'UNLOADING'))
    .filter((t) => !KNOWN.has(t))
    .map((type) => ({ type, messageId: 'm1', data: {} }))
}

const FROM_HOST_TYPES: MessageType[] = Object.keys(REQUIRED_FROM_HOST) as MessageType[]
const FROM_WIDGET_TYPES: MessageType[] = Object.keys(REQUIRED_FROM_WIDGET) as MessageType[]
const ALL_TYPES = [...FROM_HOST_TYPES, ...FROM_WIDGET_TYPES, 'SYNC', 'SYNC_ACK', 'READY', 'FAILED', 'END_CALL', 'LOGGED_IN'] as MessageType[]

/**
 * Malformed messages as a sender of the given side could produce them. For
 * 'from-host' the result is never a valid host → widget message (an unknown type
 * from the host is valid input for an UNKNOWN_MESSAGE_TYPE reply, never for a handler).
 */
export function malformedMessage(expected: 'from-host' | 'from-widget'): fc.Arbitrary<unknown> {
  const required = expected === 'from-host' ? REQUIRED_FROM_HOST : REQUIRED_FROM_WIDGET
  const types = expected === 'from-host' ? FROM_HOST_TYPES : FROM_WIDGET_TYPES
  return fc.oneof(
    { weight: 3, arbitrary: fc.anything({ withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true, withDate: true, withTypedArray: true, withSparseArray: true, maxDepth: 3 }) },
    { weight: 4, arbitrary: brokenPayload(required) },
    { weight: 2, arbitrary: brokenEnvelope(types) },
    { weight: 1, arbitrary: unknownType(ALL_TYPES) },
  )
}
