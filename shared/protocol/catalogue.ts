/**
 * The message catalogue of the calling SDK wire protocol: every type, who sends it,
 * which SDK method / handler / host method it maps to, and its zod schema (schemas.ts).
 * The single source of every message type: the SDK's send methods, the validators
 * and the derived types (types.ts) all come from here.
 */
import { z } from './zod-config.ts'
import {
  id,
  noData,
  unspecified,
  replyData,
  initializedData,
  outgoingCallData,
  incomingCallData,
  externalCallIdData,
  callEndedData,
  callCompletedData,
  navigateToRecordData,
  finalizeEngagementData,
  errorData,
  resizeData,
  readyData,
  dialNumberData,
  engagementIdData,
  engagementErrorData,
  callerIdMatchData,
  navigateToRecordFailedData,
  visibilityChangedData,
  acceptCallRef,
  acceptCallEnded,
  acceptCallCompleted,
  acceptFinalize,
  envelope,
  syncSchema,
  syncAckSchema,
  setWidgetUrlSchema,
} from './schemas.ts'
import type { IframeLocation } from './schemas.ts'

export { callEndStatus, callStatus, callRingingStatus, callInProgressStatus, callEndingStatus, callerIdTypes, errorType, iframeLocation } from './schemas.ts'
export type { EndStatus, CallStatus, CallerIdType, IframeLocation } from './schemas.ts'
export type * from './types.ts'
import type { AnyMessage } from './types.ts'

/** Sent as `version` in SYNC_ACK (the wire version this SDK speaks). */
export const SDK_VERSION = '0.9.7'

// ---------------------------------------------------------------------------
// Catalogue
// ---------------------------------------------------------------------------

export type Direction = 'widget-to-host' | 'host-to-widget' | 'handshake'
export type Side = 'widget' | 'host'

export interface CatalogueEntry {
  readonly type: string
  readonly direction: Direction
  /** Senders that validateMessage accepts this type from. */
  readonly acceptedFrom: readonly Side[]
  /** CallingExtensions method that sends it. */
  readonly method?: string
  /** eventHandlers key that receives it on the widget side. */
  readonly handler?: string
  /** CallingHost method that sends it. */
  readonly hostMethod?: string
  /** false: the sender puts no `data` key on the message. */
  readonly hasData: boolean
  /** Full-envelope schema: the SDK's documented types (what a finding is measured against). */
  readonly schema: z.ZodType
  /**
   * Widget → host types only: the envelope the host ACTS on, after judgement.ts has
   * applied its leniency rules (absent: the same as `schema`). Looser than `schema`
   * where the real CRM copes with less than the SDK's types promise.
   */
  readonly accept?: z.ZodType
  /** Deprecation note; its presence marks the whole type deprecated. */
  readonly deprecated?: string
  /** Deprecated `data` fields → note. */
  readonly deprecatedFields?: Readonly<Record<string, string>>
  readonly description: string
}

const FINALIZE_NOTE = 'PUBLISH_TO_CHANNEL is deprecated since 0.9.4: use finalizeEngagement / FINALIZE_ENGAGEMENT'

/** A widget → host type sent by CallingExtensions[method]. */
function widgetSends<const T extends string, const M extends string, S extends z.ZodType, A extends z.ZodType = S>(
  type: T, method: M, data: S, description: string, hasData = true, accept?: A,
) {
  return {
    type, direction: 'widget-to-host', acceptedFrom: ['widget'], method, hasData, schema: envelope(type, data),
    accept: envelope(type, (accept ?? data) as A), description,
  } as const
}

/** A host → widget type sent by CallingHost[hostMethod] and received by eventHandlers[handler]. */
function hostSends<const T extends string, const H extends string, const M extends string, S extends z.ZodType>(
  type: T, handler: H, hostMethod: M, data: S, description: string, hasData = true,
) {
  return {
    type, direction: 'host-to-widget', acceptedFrom: ['host'], handler, hostMethod, hasData, schema: envelope(type, data),
    description,
  } as const
}

export const CATALOGUE = {
  // --- handshake -----------------------------------------------------------
  SYNC: {
    type: 'SYNC', direction: 'handshake', acceptedFrom: ['host'], hasData: false, schema: syncSchema,
    description: 'Host → widget on every iframe load, every 100 ms until SYNC_ACK',
  },
  SYNC_ACK: {
    type: 'SYNC_ACK', direction: 'handshake', acceptedFrom: ['widget'], hasData: false, schema: syncAckSchema,
    description: 'Widget → host, answers the first SYNC with the same messageId',
  },
  READY: {
    type: 'READY', direction: 'host-to-widget', acceptedFrom: ['host'], handler: 'onReady', hasData: true,
    schema: envelope('READY', readyData),
    description: 'Synthetic on the widget after the handshake; a host-sent READY also routes to onReady',
  },
  // --- widget → host -------------------------------------------------------
  INITIALIZED: widgetSends('INITIALIZED', 'initialized', initializedData.optional(), 'The phone software is ready'),
  LOGGED_IN: widgetSends('LOGGED_IN', 'userLoggedIn', noData, 'User logged in to the phone software', false),
  LOGGED_OUT: widgetSends('LOGGED_OUT', 'userLoggedOut', noData, 'User logged out', false),
  USER_AVAILABLE: widgetSends('USER_AVAILABLE', 'userAvailable', noData, 'User available for inbound calls', false),
  USER_UNAVAILABLE: widgetSends('USER_UNAVAILABLE', 'userUnavailable', noData, 'User unavailable for inbound calls', false),
  INCOMING_CALL: widgetSends('INCOMING_CALL', 'incomingCall', incomingCallData,
    'Inbound call ringing; host answers CALLER_ID_MATCH_* (+ CREATE_ENGAGEMENT_* if requested)'),
  OUTGOING_CALL_STARTED: {
    ...widgetSends('OUTGOING_CALL_STARTED', 'outgoingCall', outgoingCallData,
      'Outbound call started; createEngagement → CREATE_ENGAGEMENT_*'),
    deprecatedFields: { phoneNumber: 'outgoingCall phoneNumber is deprecated: use toNumber' },
  },
  CALL_ANSWERED: widgetSends('CALL_ANSWERED', 'callAnswered', externalCallIdData, 'Call answered', true, acceptCallRef),
  CALL_ENDED: widgetSends('CALL_ENDED', 'callEnded', callEndedData, 'Call ended (with callEndStatus)', true, acceptCallEnded),
  CALL_COMPLETED: widgetSends('CALL_COMPLETED', 'callCompleted', callCompletedData,
    'User done; host updates the engagement (UPDATE_ENGAGEMENT_*) and hides the widget unless hideWidget:false', true,
    acceptCallCompleted),
  CALL_TRANSFERRED: widgetSends('CALL_TRANSFERRED', 'callTransferred', externalCallIdData,
    'Call transferred (0.9.6); the host finalizes the call', true, acceptCallRef),
  NAVIGATE_TO_RECORD: widgetSends('NAVIGATE_TO_RECORD', 'navigateToRecord', navigateToRecordData,
    'Open a CRM record; on failure NAVIGATE_TO_RECORD_FAILED'),
  FINALIZE_ENGAGEMENT: widgetSends('FINALIZE_ENGAGEMENT', 'finalizeEngagement', finalizeEngagementData,
    'Finalize the engagement (0.9.4); FINALIZE_ENGAGEMENT_*', true, acceptFinalize),
  PUBLISH_TO_CHANNEL: {
    ...widgetSends('PUBLISH_TO_CHANNEL', 'publishToChannel', finalizeEngagementData, 'Publish the call to a connected channel',
      true, acceptFinalize),
    deprecated: FINALIZE_NOTE,
  },
  CALL_DATA: widgetSends('CALL_DATA', 'callData', z.unknown(), 'Untyped call data'),
  ERROR: widgetSends('ERROR', 'sendError', errorData, 'sendError({message}) or the automatic UNKNOWN_MESSAGE_TYPE reply'),
  RESIZE_WIDGET: widgetSends('RESIZE_WIDGET', 'resizeWidget', resizeData, 'Resize the widget iframe'),
  SET_WIDGET_URL: {
    type: 'SET_WIDGET_URL', direction: 'widget-to-host', acceptedFrom: ['widget', 'host'], method: 'setWidgetUrl',
    hasData: true, schema: setWidgetUrlSchema,
    description: 'Widget asks the host to swap the iframe src (SET_WIDGET_URL_FAILED on failure); a receiver retargets',
  },
  // --- host → widget -------------------------------------------------------
  DIAL_NUMBER: hostSends('DIAL_NUMBER', 'onDialNumber', 'dialNumber', dialNumberData,
    'User started an outbound call from the CRM'),
  ENGAGEMENT_CREATED: {
    ...hostSends('ENGAGEMENT_CREATED', 'onEngagementCreated', 'engagementCreated', engagementIdData, 'Engagement created'),
    deprecated: 'ENGAGEMENT_CREATED / onEngagementCreated is deprecated: use CREATE_ENGAGEMENT_SUCCEEDED',
  },
  CREATE_ENGAGEMENT_SUCCEEDED: hostSends('CREATE_ENGAGEMENT_SUCCEEDED', 'onCreateEngagementSucceeded',
    'createEngagementSucceeded', engagementIdData, 'Engagement created'),
  CREATE_ENGAGEMENT_FAILED: hostSends('CREATE_ENGAGEMENT_FAILED', 'onCreateEngagementFailed', 'createEngagementFailed',
    engagementErrorData, 'Engagement creation failed'),
  UPDATE_ENGAGEMENT_SUCCEEDED: hostSends('UPDATE_ENGAGEMENT_SUCCEEDED', 'onUpdateEngagementSucceeded',
    'updateEngagementSucceeded', engagementIdData, 'Engagement updated'),
  UPDATE_ENGAGEMENT_FAILED: hostSends('UPDATE_ENGAGEMENT_FAILED', 'onUpdateEngagementFailed', 'updateEngagementFailed',
    engagementErrorData, 'Engagement update failed'),
  CALLER_ID_MATCH_SUCCEEDED: hostSends('CALLER_ID_MATCH_SUCCEEDED', 'onCallerIdMatchSucceeded', 'callerIdMatchSucceeded',
    callerIdMatchData, 'Caller id matched CRM records'),
  CALLER_ID_MATCH_FAILED: hostSends('CALLER_ID_MATCH_FAILED', 'onCallerIdMatchFailed', 'callerIdMatchFailed', replyData,
    'Caller id did not match'),
  NAVIGATE_TO_RECORD_FAILED: hostSends('NAVIGATE_TO_RECORD_FAILED', 'onNavigateToRecordFailed', 'navigateToRecordFailed',
    navigateToRecordFailedData, 'Navigation failed'),
  FINALIZE_ENGAGEMENT_SUCCEEDED: hostSends('FINALIZE_ENGAGEMENT_SUCCEEDED', 'onFinalizeEngagementSucceeded',
    'finalizeEngagementSucceeded', replyData, 'Engagement finalized'),
  FINALIZE_ENGAGEMENT_FAILED: hostSends('FINALIZE_ENGAGEMENT_FAILED', 'onFinalizeEngagementFailed',
    'finalizeEngagementFailed', replyData, 'Finalizing failed'),
  PUBLISH_TO_CHANNEL_SUCCEEDED: {
    ...hostSends('PUBLISH_TO_CHANNEL_SUCCEEDED', 'onPublishToChannelSucceeded', 'publishToChannelSucceeded', replyData,
      'Published to channel'),
    deprecated: 'PUBLISH_TO_CHANNEL_SUCCEEDED is deprecated: use FINALIZE_ENGAGEMENT_SUCCEEDED',
  },
  PUBLISH_TO_CHANNEL_FAILED: {
    ...hostSends('PUBLISH_TO_CHANNEL_FAILED', 'onPublishToChannelFailed', 'publishToChannelFailed', replyData,
      'Publishing to channel failed'),
    deprecated: 'PUBLISH_TO_CHANNEL_FAILED is deprecated: use FINALIZE_ENGAGEMENT_FAILED',
  },
  INITIATE_CALL_ID_SUCCEEDED: hostSends('INITIATE_CALL_ID_SUCCEEDED', 'onInitiateCallIdSucceeded',
    'initiateCallIdSucceeded', unspecified, 'Call id initiated (payload unspecified)'),
  INITIATE_CALL_ID_FAILED: hostSends('INITIATE_CALL_ID_FAILED', 'onInitiateCallIdFailed', 'initiateCallIdFailed',
    replyData, 'Call id initiation failed'),
  SET_WIDGET_URL_FAILED: hostSends('SET_WIDGET_URL_FAILED', 'onSetWidgetUrlFailed', 'setWidgetUrlFailed', replyData,
    'The host could not swap the widget URL'),
  VISIBILITY_CHANGED: hostSends('VISIBILITY_CHANGED', 'onVisibilityChanged', 'visibilityChanged', visibilityChangedData,
    'Widget minimized or hidden'),
  END_CALL: hostSends('END_CALL', 'onEndCall', 'endCall', noData,
    'Host asks the widget to end the call (the demo answers with callEnded)', false),
  SET_CALL_STATE: hostSends('SET_CALL_STATE', 'onSetCallState', 'setCallState', unspecified, 'Legacy, unspecified'),
  FAILED: hostSends('FAILED', 'onFailed', 'failed', z.unknown(), 'Generic failure (onFailed)'),
} as const satisfies { readonly [K in string]: CatalogueEntry & { readonly type: K } }

type Catalogue = typeof CATALOGUE
export type MessageType = keyof Catalogue

/** Every wire type, as an `as const` map (MessageType.CALL_ENDED === 'CALL_ENDED'). */
export const MessageType = Object.freeze(
  Object.fromEntries(Object.keys(CATALOGUE).map((k) => [k, k])),
) as { readonly [K in MessageType]: K }

// ---------------------------------------------------------------------------
// Lookup and validation
// ---------------------------------------------------------------------------

/** Entry lookup that is safe for any string ('__proto__', 'constructor', …). */
const ENTRIES: ReadonlyMap<string, CatalogueEntry> = new Map(Object.entries(CATALOGUE))
const FROM_WIDGET: ReadonlyMap<string, CatalogueEntry> = new Map(
  [...ENTRIES].filter(([, e]) => e.acceptedFrom.includes('widget')),
)
const FROM_HOST: ReadonlyMap<string, CatalogueEntry> = new Map(
  [...ENTRIES].filter(([, e]) => e.acceptedFrom.includes('host')),
)

export function getEntry(type: string): CatalogueEntry | undefined {
  return ENTRIES.get(type)
}

export type ValidationResult =
  | { ok: true; message: AnyMessage; entry: CatalogueEntry; deprecation?: string }
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

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.slice(0, 3).map(issueText).join('; ')
}

/** The deprecation note that applies to a message of `type` carrying `data`, if any. */
export function deprecationOf(type: string, data: unknown): string | undefined {
  const entry = ENTRIES.get(type)
  if (!entry) return undefined
  if (entry.deprecated) return entry.deprecated
  const fields = entry.deprecatedFields
  if (fields && typeof data === 'object' && data !== null) {
    for (const field in fields) {
      if (Object.prototype.hasOwnProperty.call(data, field)) return fields[field]
    }
  }
  return undefined
}

/** The envelope checks of validateMessage: a plain object with a string type, a messageId and a type this sender may send. */
export type EnvelopeCheck =
  | { ok: true; raw: Record<string, unknown>; type: string; entry: CatalogueEntry }
  | { ok: false; reason: string; type?: string }

export function checkEnvelope(raw: unknown, expected: 'from-widget' | 'from-host'): EnvelopeCheck {
  if (!isPlainObject(raw)) return { ok: false, reason: 'not an object' }
  const type = raw.type
  if (typeof type !== 'string') return { ok: false, reason: 'missing type' }
  const messageId = raw.messageId
  const idOk =
    (typeof messageId === 'string' && messageId.length > 0) ||
    (typeof messageId === 'number' && Number.isFinite(messageId))
  if (!idOk) return { ok: false, reason: 'missing messageId', type: clip(type) }
  const entry = (expected === 'from-widget' ? FROM_WIDGET : FROM_HOST).get(type)
  if (!entry) return { ok: false, reason: 'unknown type', type: clip(type) }
  const data = raw.data
  if (typeof data === 'object' && data !== null && !Array.isArray(data) && !isPlainObject(data)) {
    return { ok: false, reason: 'invalid: data is not a plain object', type }
  }
  return { ok: true, raw, type, entry }
}

/** One zod issue as `path: message` (clipped), e.g. `data.engagementId: Invalid input: expected number, received undefined`. */
export function issueText(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.')
  return clip(path ? `${path}: ${issue.message}` : issue.message)
}

/**
 * Validates a message received from the other side against the SDK's types. Never throws.
 *
 * `message` in the result is the very object passed in (no clone), now typed.
 * A type the expected sender may not send is reported as `unknown type`, which is
 * how the npm package treats it (a widget answers UNKNOWN_MESSAGE_TYPE).
 * The host judges widget messages with judgeWidgetMessage (judgement.ts), which
 * uses this for the findings and acts on more than it accepts.
 */
export function validateMessage(raw: unknown, expected: 'from-widget' | 'from-host'): ValidationResult {
  try {
    const envelope = checkEnvelope(raw, expected)
    if (!envelope.ok) return envelope
    const { type, entry } = envelope
    const result = entry.schema.safeParse(raw)
    if (!result.success) return { ok: false, reason: `invalid: ${describeIssues(result.error.issues)}`, type }
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
