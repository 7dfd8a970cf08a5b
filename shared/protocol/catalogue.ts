/**
 * The message catalogue of the calling SDK wire protocol: every type, who sends it,
 * which SDK method / handler / host method it maps to, and one zod schema per type.
 *
 * Schemas are loose objects (unknown keys pass through, as the real host and widgets
 * add fields freely) and tolerant where real traffic is (DIAL_NUMBER ids may be 0,
 * `objectType` may be missing, legacy `phone_number`); they are strict where types
 * matter: required fields, finite numbers, enums. Required fields follow the npm
 * package's TypeScript types. See /work/shared/reference/sdk-wire-protocol.md §3.
 */
import { z } from 'zod'

/*
 * zod 4 compiles each object schema into a parser with `new Function` on its first
 * use (and probes `new Function` once when the first object schema is built). We turn
 * that off, before any schema below is built (zod reads the flag at construction):
 * - CSP: widget and host pages with a strict Content-Security-Policy (no
 *   'unsafe-eval') refuse the probe, and browsers send a CSP violation report for it
 *   even though zod catches the error. A calling widget must not cause those.
 * - handshake latency: the compile costs ~1.5 ms per message type on first use, and
 *   the handshake is the first use of SYNC and SYNC_ACK on both sides. Interpreted
 *   parsing is slower per message (a few µs) but has no first-use cost.
 * `z.config` is page-global and merges: pages that already set jitless (the harness,
 * the OAuth consent page) agree with it. Code that builds zod schemas before this
 * module is evaluated should set it itself first.
 */
z.config({ jitless: true })

/** Sent as `version` in SYNC_ACK (the wire version this SDK speaks). */
export const SDK_VERSION = '0.9.7'

// ---------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------

export const callEndStatus = {
  COMPLETED: 'COMPLETED',
  FAILED: 'FAILED',
  CANCELED: 'CANCELED',
  BUSY: 'BUSY',
  NO_ANSWER: 'NO_ANSWER',
  REJECTED: 'REJECTED',
  MISSED: 'MISSED',
} as const
export type EndStatus = (typeof callEndStatus)[keyof typeof callEndStatus]

export const callStatus = {
  CONNECTING: 'CONNECTING',
  CALLING_CRM_USER: 'CALLING_CRM_USER',
  IN_PROGRESS: 'IN_PROGRESS',
  CANCELED: 'CANCELED',
  FAILED: 'FAILED',
  BUSY: 'BUSY',
  NO_ANSWER: 'NO_ANSWER',
  COMPLETED: 'COMPLETED',
  ENDING: 'ENDING',
  QUEUED: 'QUEUED',
  RINGING: 'RINGING',
} as const
export type CallStatus = (typeof callStatus)[keyof typeof callStatus]

export const callRingingStatus = {
  QUEUED: 'QUEUED',
  RINGING: 'RINGING',
  CONNECTING: 'CONNECTING',
  CALLING_CRM_USER: 'CALLING_CRM_USER',
} as const
export const callInProgressStatus = { IN_PROGRESS: 'IN_PROGRESS' } as const
export const callEndingStatus = { ENDING: 'ENDING' } as const

export const callerIdTypes = { CONTACT: 'CONTACT', COMPANY: 'COMPANY' } as const
export type CallerIdType = (typeof callerIdTypes)[keyof typeof callerIdTypes]

export const errorType = { UNKNOWN_MESSAGE_TYPE: 'UNKNOWN_MESSAGE_TYPE' } as const

export const iframeLocation = { widget: 'widget', remote: 'remote', window: 'window' } as const
export type IframeLocation = (typeof iframeLocation)[keyof typeof iframeLocation]

const values = <T extends Record<string, string>>(map: T) =>
  Object.values(map) as [T[keyof T], ...T[keyof T][]]

// ---------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------

/** zod 4 numbers reject NaN and ±Infinity. */
const num = z.number()
const id = z.union([num, z.string()])
const messageIdSchema = z.union([z.string().min(1), num])
const objectCoordinates = z.looseObject({
  portalId: num,
  objectId: num,
  /** "0-1" contact, "0-2" company; custom objects use other `<n>-<n>` ids. */
  objectTypeId: z.string().regex(/^\d+-\d+$/, 'expected an object type id like "0-1"'),
})
/** Payload of a no-arg message (the sender puts no `data` key). */
const noData = z.union([z.undefined(), z.null(), z.looseObject({})]).optional()
/** Payload the vendor never specified: an object or nothing. */
const unspecified = z.union([z.undefined(), z.null(), z.looseObject({})]).optional()
const errorInfo = z.looseObject({ message: z.string() })
/** Payload of loosely specified *_FAILED / *_SUCCEEDED replies. */
const replyData = z
  .union([
    z.undefined(),
    z.null(),
    z.looseObject({
      engagementId: id.optional(),
      externalCallId: z.string().optional(),
      error: errorInfo.optional(),
    }),
  ])
  .optional()

const syncFieldShape = {
  portalId: num.optional(),
  userId: num.optional(),
  ownerId: id.optional(),
  engagementId: num.nullable().optional(),
  iframeLocation: z.enum(values(iframeLocation)).optional(),
  usesCallingWindow: z.boolean().optional(),
}

// ---------------------------------------------------------------------------
// Payload schemas
// ---------------------------------------------------------------------------

const initializedData = z.looseObject({
  isLoggedIn: z.boolean().optional(),
  isAvailable: z.boolean().optional(),
  engagementId: num.optional(),
  sizeInfo: z.looseObject({ width: num, height: num }).optional(),
  // echoed by the vendor's React demo
  iframeLocation: z.enum(values(iframeLocation)).optional(),
  usesCallingWindow: z.boolean().optional(),
  portalId: num.optional(),
  hostUrl: z.string().optional(),
})

const outgoingCallData = z.looseObject({
  externalCallId: z.string(),
  fromNumber: z.string().optional(),
  toNumber: z.string().optional(),
  callStartTime: num.optional(),
  createEngagement: z.boolean().optional(),
  /** all properties of the DIAL_NUMBER payload that started the call */
  dialingContext: z.looseObject({}).optional(),
  /** @deprecated use toNumber */
  phoneNumber: z.string().optional(),
})

const incomingCallData = z.looseObject({
  externalCallId: z.string(),
  fromNumber: z.string(),
  toNumber: z.string(),
  callStartTime: num.optional(),
  createEngagement: z.boolean().optional(),
})

const externalCallIdData = z.looseObject({ externalCallId: z.string() })

const callEndedData = z.looseObject({
  externalCallId: z.string(),
  engagementId: num,
  callEndStatus: z.enum(values(callEndStatus)).optional(),
})

const callCompletedData = z.looseObject({
  externalCallId: z.string(),
  engagementId: id.optional(),
  /** default true */
  hideWidget: z.boolean().optional(),
  /** hs_timestamp, hs_call_body, hs_call_status, hs_call_duration, … */
  engagementProperties: z.record(z.string(), z.union([z.string(), num])).optional(),
})

const navigateToRecordData = z.looseObject({
  objectCoordinates,
  engagementId: num.optional(),
  openIn: z.enum(['CURRENT_TAB', 'NEW_TAB']).optional(),
})

const finalizeEngagementData = z.looseObject({ externalCallId: z.string(), engagementId: num })

const errorData = z.union([
  z.looseObject({ message: z.string() }),
  z.looseObject({
    type: z.literal(errorType.UNKNOWN_MESSAGE_TYPE),
    data: z.looseObject({ originalMessage: z.unknown() }),
  }),
])

const resizeData = z.looseObject({ width: num.nonnegative(), height: num.nonnegative() })

const readyData = z.looseObject({
  ...syncFieldShape,
  hostUrl: z.string().optional(),
  /** set when the READY follows a SET_WIDGET_URL */
  iFrameUrl: z.string().optional(),
})

const optionalText = z.string().nullish()
const dialNumberData = z
  .looseObject({
    phoneNumber: optionalText,
    /** legacy duplicate of phoneNumber */
    phone_number: optionalText,
    countryCode: optionalText,
    calleeInfo: z
      .looseObject({ calleeId: id.optional(), calleeObjectTypeId: z.string().optional() })
      .nullish(),
    ownerId: id.nullish(),
    portalId: num.nullish(),
    /** may be 0 (ticket calls, #228) */
    subjectId: id.nullish(),
    /** may be 0 (#228) */
    objectId: id.nullish(),
    /** may be missing (#228) */
    objectType: optionalText,
    startTimestamp: num.nullish(),
    toPhoneNumberSrc: optionalText,
    threadId: z.unknown().optional(),
  })
  .refine((d) => typeof d.phoneNumber === 'string' || typeof d.phone_number === 'string', {
    message: 'phoneNumber (or legacy phone_number) is required',
    path: ['phoneNumber'],
  })

const engagementIdData = z.looseObject({ engagementId: num })
const engagementErrorData = z.looseObject({ error: errorInfo })

const name = z.string().nullish()
const contactIdMatch = z.looseObject({
  callerIdType: z.literal(callerIdTypes.CONTACT),
  objectCoordinates,
  firstName: name,
  lastName: name,
  email: name,
})
const companyIdMatch = z.looseObject({
  callerIdType: z.literal(callerIdTypes.COMPANY),
  objectCoordinates,
  name,
})
const callerIdMatchData = z.looseObject({
  callerIdMatches: z.array(z.discriminatedUnion('callerIdType', [contactIdMatch, companyIdMatch])),
})

const navigateToRecordFailedData = z
  .looseObject({ engagementId: num.optional(), objectCoordinates: objectCoordinates.optional() })
  .optional()

const visibilityChangedData = z.looseObject({ isMinimized: z.boolean(), isHidden: z.boolean() })

// ---------------------------------------------------------------------------
// What the host acts on (judgement.ts normalises a message first, then parses it
// with these). Each loosening is a leniency rule of judgement.ts, with its evidence.
// ---------------------------------------------------------------------------

/** A call event that may name its call by externalCallId only, or not at all (the current call). */
const looseCallRef = { externalCallId: z.string().optional(), engagementId: num.optional() }
const acceptCallRef = z.looseObject({ externalCallId: z.string().optional() }).nullish()
const acceptCallEnded = callEndedData.extend(looseCallRef).nullish()
const acceptCallCompleted = callCompletedData.extend({
  ...looseCallRef,
  hideWidget: z.unknown().optional(),
  /** values go to the engagements API as they are: it judges them (null and "" clear a property) */
  engagementProperties: z.record(z.string(), z.unknown()).optional(),
})
const acceptFinalize = finalizeEngagementData.extend(looseCallRef)

// ---------------------------------------------------------------------------
// Envelope schemas
// ---------------------------------------------------------------------------

function envelope<T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.looseObject({ type: z.literal(type), messageId: messageIdSchema, data })
}

const syncSchema = z.looseObject({
  type: z.literal('SYNC'),
  messageId: messageIdSchema,
  /** origin of the host page; the widget posts SYNC_ACK to it */
  hostUrl: z.string(),
  ...syncFieldShape,
})

const syncAckSchema = z.looseObject({
  type: z.literal('SYNC_ACK'),
  messageId: messageIdSchema,
  hostUrl: z.string().optional(),
  ...syncFieldShape,
  debugMode: z.boolean().optional(),
  version: z.string().optional(),
  /** the widget's own origin */
  iFrameUrl: z.string().optional(),
})

const setWidgetUrlSchema = z
  .looseObject({
    type: z.literal('SET_WIDGET_URL'),
    messageId: messageIdSchema,
    /** legacy / host form */
    iFrameUrl: z.string().optional(),
    data: z.looseObject({ iFrameUrl: z.string().optional() }).nullish(),
  })
  .refine((m) => typeof m.iFrameUrl === 'string' || typeof m.data?.iFrameUrl === 'string', {
    message: 'iFrameUrl is required (data.iFrameUrl or top-level iFrameUrl)',
    path: ['data', 'iFrameUrl'],
  })

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
// Derived types
// ---------------------------------------------------------------------------

/**
 * Removes the `[k: string]: unknown` index signatures that loose zod objects add, so
 * payload types accept interfaces and give precise autocompletion. Runtime objects
 * may still carry extra keys.
 */
export type Wire<T> = T extends readonly (infer U)[]
  ? Wire<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Wire<T[K]> }
    : T

/** The full envelope of a message type. */
export type MessageOf<T extends MessageType> = Wire<z.output<Catalogue[T]['schema']>>
/** The `data` of a message type (undefined for types without a data key). */
export type Payload<T extends MessageType> = 'data' extends keyof MessageOf<T> ? MessageOf<T>['data'] : undefined

/**
 * The envelope of a widget → host type as the host acts on it (after the leniency rules
 * of judgement.ts): what CallingHost's listeners receive. Looser than MessageOf<T> for
 * the call events (engagementId and externalCallId may be missing).
 */
export type AcceptedMessageOf<T extends MessageType> = Catalogue[T] extends { accept: infer A extends z.ZodType }
  ? Wire<z.output<A>>
  : MessageOf<T>
/** The `data` of AcceptedMessageOf<T>. */
export type AcceptedPayload<T extends MessageType> = 'data' extends keyof AcceptedMessageOf<T> ? AcceptedMessageOf<T>['data'] : undefined

type TypesWhere<Cond> = { [K in MessageType]: Catalogue[K] extends Cond ? K : never }[MessageType]

type AcceptedFrom<S extends Side> = {
  [K in MessageType]: S extends Catalogue[K]['acceptedFrom'][number] ? K : never
}[MessageType]
/** Types the host accepts from the widget. */
export type FromWidgetType = AcceptedFrom<'widget'>
/** Types the widget accepts from the host. */
export type FromHostType = AcceptedFrom<'host'>
/** What CallingHost.send() accepts (SYNC is automatic). */
export type HostSendableType = Exclude<FromHostType, 'SYNC'>
/** Types with an eventHandlers entry on the widget side. */
export type HandledType = TypesWhere<{ handler: string }>
export type HandlerNameOf<T extends HandledType> = Catalogue[T] extends { handler: infer H extends string } ? H : never
export type HandlerName = HandlerNameOf<HandledType>

export type WidgetToHostMessage = { [K in FromWidgetType]: MessageOf<K> }[FromWidgetType]
export type HostToWidgetMessage = { [K in FromHostType]: MessageOf<K> }[FromHostType]
export type AnyMessage = { [K in MessageType]: MessageOf<K> }[MessageType]

// Payload aliases, named like the npm package's types.
type Out<S extends z.ZodType> = Wire<z.output<S>>
export type OnInitialized = Out<typeof initializedData>
export type OnIncomingCall = Out<typeof incomingCallData>
export type OnOutgoingCall = Out<typeof outgoingCallData>
export type OnCallAnswered = Out<typeof externalCallIdData>
export type OnCallTransferred = Out<typeof externalCallIdData>
export type OnCallEnded = Out<typeof callEndedData>
export type OnCallCompleted = Out<typeof callCompletedData>
export type RawEngagementProperties = NonNullable<OnCallCompleted['engagementProperties']>
export type OnNavigateToRecord = Out<typeof navigateToRecordData>
export type ObjectCoordinates = Out<typeof objectCoordinates>
export type OnFinalizeEngagement = Out<typeof finalizeEngagementData>
/** @deprecated use OnFinalizeEngagement */
export type OnPublishToChannel = Out<typeof finalizeEngagementData>
export type OnError = { message: string }
export type ErrorPayload = Out<typeof errorData>
export type OnResize = Out<typeof resizeData>
export type SizeInfo = OnResize
export type OnSetWidgetUrl = { iFrameUrl: string }
export type ContactIdMatch = Out<typeof contactIdMatch>
export type CompanyIdMatch = Out<typeof companyIdMatch>
export type CallerIdMatch = ContactIdMatch | CompanyIdMatch
export type CallerIdMatchPayload = Out<typeof callerIdMatchData>
export type DialNumberPayload = Out<typeof dialNumberData>
export type EngagementIdPayload = Out<typeof engagementIdData>
export type EngagementErrorPayload = Out<typeof engagementErrorData>
export type ReplyPayload = Out<typeof replyData>
export type NavigateToRecordFailedPayload = Out<typeof navigateToRecordFailedData>
export type VisibilityChangedPayload = Out<typeof visibilityChangedData>
export type ReadyPayload = Out<typeof readyData>
export type SyncMessage = Out<typeof syncSchema>
export type SyncAckMessage = Out<typeof syncAckSchema>

/** The SYNC fields a host sends besides type/messageId/hostUrl. */
export interface SyncFields {
  portalId: number
  userId: number
  ownerId: number | string
  iframeLocation: IframeLocation
  usesCallingWindow: boolean
  engagementId?: number
}

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
