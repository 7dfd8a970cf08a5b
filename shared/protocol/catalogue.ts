/**
 * The message catalogue of the calling SDK wire protocol: every type, who sends it,
 * which SDK method / handler / host method it maps to. The single source of every
 * message type: the SDK's send methods, the message schemas (envelopes.ts, keyed by
 * this catalogue's types), the validators generated from them and the derived types
 * (types.ts) all come from here.
 *
 * Plain data, no validator library: both SDK sides import it, and a widget bundle
 * must stay small. Validation lives in validate.ts.
 */
import type { IframeLocation } from './enums.ts'

export { callEndStatus, callStatus, callRingingStatus, callInProgressStatus, callEndingStatus, callerIdTypes, errorType, iframeLocation } from './enums.ts'
export type { EndStatus, CallStatus, CallerIdType, IframeLocation } from './enums.ts'
export type * from './types.ts'
export { validateMessage, checkEnvelope, describeError, issueText } from './validate.ts'
export type { ValidationResult, EnvelopeCheck, Issue } from './validate.ts'

/** Sent as `version` in SYNC_ACK (the wire version this SDK speaks). */
export const SDK_VERSION = '0.9.7'

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
  /** Deprecation note; its presence marks the whole type deprecated. */
  readonly deprecated?: string
  /** Deprecated `data` fields → note. */
  readonly deprecatedFields?: Readonly<Record<string, string>>
  readonly description: string
}

const FINALIZE_NOTE = 'PUBLISH_TO_CHANNEL is deprecated since 0.9.4: use finalizeEngagement / FINALIZE_ENGAGEMENT'

/** A widget → host type sent by CallingExtensions[method]. */
function widgetSends<const T extends string, const M extends string>(type: T, method: M, description: string, hasData = true) {
  return { type, direction: 'widget-to-host', acceptedFrom: ['widget'], method, hasData, description } as const
}

/** A host → widget type sent by CallingHost[hostMethod] and received by eventHandlers[handler]. */
function hostSends<const T extends string, const H extends string, const M extends string>(
  type: T, handler: H, hostMethod: M, description: string, hasData = true,
) {
  return { type, direction: 'host-to-widget', acceptedFrom: ['host'], handler, hostMethod, hasData, description } as const
}

export const CATALOGUE = {
  // --- handshake -----------------------------------------------------------
  SYNC: {
    type: 'SYNC', direction: 'handshake', acceptedFrom: ['host'], hasData: false,
    description: 'Host → widget on every iframe load, every 100 ms until SYNC_ACK',
  },
  SYNC_ACK: {
    type: 'SYNC_ACK', direction: 'handshake', acceptedFrom: ['widget'], hasData: false,
    description: 'Widget → host, answers the first SYNC with the same messageId',
  },
  READY: {
    type: 'READY', direction: 'host-to-widget', acceptedFrom: ['host'], handler: 'onReady', hasData: true,
    description: 'Synthetic on the widget after the handshake; a host-sent READY also routes to onReady',
  },
  // --- widget → host -------------------------------------------------------
  INITIALIZED: widgetSends('INITIALIZED', 'initialized', 'The phone software is ready'),
  LOGGED_IN: widgetSends('LOGGED_IN', 'userLoggedIn', 'User logged in to the phone software', false),
  LOGGED_OUT: widgetSends('LOGGED_OUT', 'userLoggedOut', 'User logged out', false),
  USER_AVAILABLE: widgetSends('USER_AVAILABLE', 'userAvailable', 'User available for inbound calls', false),
  USER_UNAVAILABLE: widgetSends('USER_UNAVAILABLE', 'userUnavailable', 'User unavailable for inbound calls', false),
  INCOMING_CALL: widgetSends('INCOMING_CALL', 'incomingCall',
    'Inbound call ringing; host answers CALLER_ID_MATCH_* (+ CREATE_ENGAGEMENT_* if requested)'),
  OUTGOING_CALL_STARTED: {
    ...widgetSends('OUTGOING_CALL_STARTED', 'outgoingCall', 'Outbound call started; createEngagement → CREATE_ENGAGEMENT_*'),
    deprecatedFields: { phoneNumber: 'outgoingCall phoneNumber is deprecated: use toNumber' },
  },
  CALL_ANSWERED: widgetSends('CALL_ANSWERED', 'callAnswered', 'Call answered'),
  CALL_ENDED: widgetSends('CALL_ENDED', 'callEnded', 'Call ended (with callEndStatus)'),
  CALL_COMPLETED: widgetSends('CALL_COMPLETED', 'callCompleted',
    'User done; host updates the engagement (UPDATE_ENGAGEMENT_*) and hides the widget unless hideWidget:false'),
  CALL_TRANSFERRED: widgetSends('CALL_TRANSFERRED', 'callTransferred', 'Call transferred (0.9.6); the host finalizes the call'),
  NAVIGATE_TO_RECORD: widgetSends('NAVIGATE_TO_RECORD', 'navigateToRecord', 'Open a CRM record; on failure NAVIGATE_TO_RECORD_FAILED'),
  FINALIZE_ENGAGEMENT: widgetSends('FINALIZE_ENGAGEMENT', 'finalizeEngagement', 'Finalize the engagement (0.9.4); FINALIZE_ENGAGEMENT_*'),
  PUBLISH_TO_CHANNEL: {
    ...widgetSends('PUBLISH_TO_CHANNEL', 'publishToChannel', 'Publish the call to a connected channel'),
    deprecated: FINALIZE_NOTE,
  },
  CALL_DATA: widgetSends('CALL_DATA', 'callData', 'Untyped call data'),
  ERROR: widgetSends('ERROR', 'sendError', 'sendError({message}) or the automatic UNKNOWN_MESSAGE_TYPE reply'),
  RESIZE_WIDGET: widgetSends('RESIZE_WIDGET', 'resizeWidget', 'Resize the widget iframe'),
  SET_WIDGET_URL: {
    type: 'SET_WIDGET_URL', direction: 'widget-to-host', acceptedFrom: ['widget', 'host'], method: 'setWidgetUrl', hasData: true,
    description: 'Widget asks the host to swap the iframe src (SET_WIDGET_URL_FAILED on failure); a receiver retargets',
  },
  // --- host → widget -------------------------------------------------------
  DIAL_NUMBER: hostSends('DIAL_NUMBER', 'onDialNumber', 'dialNumber', 'User started an outbound call from the CRM'),
  ENGAGEMENT_CREATED: {
    ...hostSends('ENGAGEMENT_CREATED', 'onEngagementCreated', 'engagementCreated', 'Engagement created'),
    deprecated: 'ENGAGEMENT_CREATED / onEngagementCreated is deprecated: use CREATE_ENGAGEMENT_SUCCEEDED',
  },
  CREATE_ENGAGEMENT_SUCCEEDED: hostSends('CREATE_ENGAGEMENT_SUCCEEDED', 'onCreateEngagementSucceeded', 'createEngagementSucceeded',
    'Engagement created'),
  CREATE_ENGAGEMENT_FAILED: hostSends('CREATE_ENGAGEMENT_FAILED', 'onCreateEngagementFailed', 'createEngagementFailed',
    'Engagement creation failed'),
  UPDATE_ENGAGEMENT_SUCCEEDED: hostSends('UPDATE_ENGAGEMENT_SUCCEEDED', 'onUpdateEngagementSucceeded', 'updateEngagementSucceeded',
    'Engagement updated'),
  UPDATE_ENGAGEMENT_FAILED: hostSends('UPDATE_ENGAGEMENT_FAILED', 'onUpdateEngagementFailed', 'updateEngagementFailed',
    'Engagement update failed'),
  CALLER_ID_MATCH_SUCCEEDED: hostSends('CALLER_ID_MATCH_SUCCEEDED', 'onCallerIdMatchSucceeded', 'callerIdMatchSucceeded',
    'Caller id matched CRM records'),
  CALLER_ID_MATCH_FAILED: hostSends('CALLER_ID_MATCH_FAILED', 'onCallerIdMatchFailed', 'callerIdMatchFailed', 'Caller id did not match'),
  NAVIGATE_TO_RECORD_FAILED: hostSends('NAVIGATE_TO_RECORD_FAILED', 'onNavigateToRecordFailed', 'navigateToRecordFailed',
    'Navigation failed'),
  FINALIZE_ENGAGEMENT_SUCCEEDED: hostSends('FINALIZE_ENGAGEMENT_SUCCEEDED', 'onFinalizeEngagementSucceeded',
    'finalizeEngagementSucceeded', 'Engagement finalized'),
  FINALIZE_ENGAGEMENT_FAILED: hostSends('FINALIZE_ENGAGEMENT_FAILED', 'onFinalizeEngagementFailed', 'finalizeEngagementFailed',
    'Finalizing failed'),
  PUBLISH_TO_CHANNEL_SUCCEEDED: {
    ...hostSends('PUBLISH_TO_CHANNEL_SUCCEEDED', 'onPublishToChannelSucceeded', 'publishToChannelSucceeded', 'Published to channel'),
    deprecated: 'PUBLISH_TO_CHANNEL_SUCCEEDED is deprecated: use FINALIZE_ENGAGEMENT_SUCCEEDED',
  },
  PUBLISH_TO_CHANNEL_FAILED: {
    ...hostSends('PUBLISH_TO_CHANNEL_FAILED', 'onPublishToChannelFailed', 'publishToChannelFailed', 'Publishing to channel failed'),
    deprecated: 'PUBLISH_TO_CHANNEL_FAILED is deprecated: use FINALIZE_ENGAGEMENT_FAILED',
  },
  INITIATE_CALL_ID_SUCCEEDED: hostSends('INITIATE_CALL_ID_SUCCEEDED', 'onInitiateCallIdSucceeded', 'initiateCallIdSucceeded',
    'Call id initiated (payload unspecified)'),
  INITIATE_CALL_ID_FAILED: hostSends('INITIATE_CALL_ID_FAILED', 'onInitiateCallIdFailed', 'initiateCallIdFailed',
    'Call id initiation failed'),
  SET_WIDGET_URL_FAILED: hostSends('SET_WIDGET_URL_FAILED', 'onSetWidgetUrlFailed', 'setWidgetUrlFailed',
    'The host could not swap the widget URL'),
  VISIBILITY_CHANGED: hostSends('VISIBILITY_CHANGED', 'onVisibilityChanged', 'visibilityChanged', 'Widget minimized or hidden'),
  END_CALL: hostSends('END_CALL', 'onEndCall', 'endCall', 'Host asks the widget to end the call (the demo answers with callEnded)', false),
  SET_CALL_STATE: hostSends('SET_CALL_STATE', 'onSetCallState', 'setCallState', 'Legacy, unspecified'),
  FAILED: hostSends('FAILED', 'onFailed', 'failed', 'Generic failure (onFailed)'),
} as const satisfies { readonly [K in string]: CatalogueEntry & { readonly type: K } }

export type MessageType = keyof typeof CATALOGUE

/** Every wire type, as an `as const` map (MessageType.CALL_ENDED === 'CALL_ENDED'). */
export const MessageType = Object.freeze(
  Object.fromEntries(Object.keys(CATALOGUE).map((k) => [k, k])),
) as { readonly [K in MessageType]: K }

/** Entry lookup that is safe for any string ('__proto__', 'constructor', …). */
const ENTRIES: ReadonlyMap<string, CatalogueEntry> = new Map(Object.entries(CATALOGUE))

export function getEntry(type: string): CatalogueEntry | undefined {
  return ENTRIES.get(type)
}

/** The entry of `type` if `side` may send it (a type the expected sender may not send is unknown to the receiver). */
export function entryFrom(side: Side, type: string): CatalogueEntry | undefined {
  const entry = ENTRIES.get(type)
  return entry && entry.acceptedFrom.includes(side) ? entry : undefined
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
