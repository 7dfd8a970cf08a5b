/**
 * The message catalogue's entries: every wire type, who sends it, which SDK method /
 * handler / host method it maps to, and the lookups over them. Plain data that imports
 * nothing, so every other module of the SDK can build on it; catalogue.ts is the
 * public face that gathers it with the enums, the derived types and validation.
 */

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
}

const FINALIZE_NOTE = 'PUBLISH_TO_CHANNEL is deprecated since 0.9.4: use finalizeEngagement / FINALIZE_ENGAGEMENT'

/** A widget → host type sent by CallingExtensions[method]. */
function widgetSends<const T extends string, const M extends string>(type: T, method: M, hasData = true) {
  return { type, direction: 'widget-to-host', acceptedFrom: ['widget'], method, hasData } as const
}

/** A host → widget type sent by CallingHost[hostMethod] and received by eventHandlers[handler]. */
function hostSends<const T extends string, const H extends string, const M extends string>(
  type: T, handler: H, hostMethod: M, hasData = true,
) {
  return { type, direction: 'host-to-widget', acceptedFrom: ['host'], handler, hostMethod, hasData } as const
}

export const CATALOGUE = {
  // --- handshake -----------------------------------------------------------
  /** Host → widget on every iframe load, every 100 ms until SYNC_ACK */
  SYNC: { type: 'SYNC', direction: 'handshake', acceptedFrom: ['host'], hasData: false },
  /** Widget → host, answers the first SYNC with the same messageId */
  SYNC_ACK: { type: 'SYNC_ACK', direction: 'handshake', acceptedFrom: ['widget'], hasData: false },
  /** Synthetic on the widget after the handshake; a host-sent READY also routes to onReady */
  READY: { type: 'READY', direction: 'host-to-widget', acceptedFrom: ['host'], handler: 'onReady', hasData: true },
  // --- widget → host -------------------------------------------------------
  /** The phone software is ready */
  INITIALIZED: widgetSends('INITIALIZED', 'initialized'),
  /** User logged in to the phone software */
  LOGGED_IN: widgetSends('LOGGED_IN', 'userLoggedIn', false),
  /** User logged out */
  LOGGED_OUT: widgetSends('LOGGED_OUT', 'userLoggedOut', false),
  /** User available for inbound calls */
  USER_AVAILABLE: widgetSends('USER_AVAILABLE', 'userAvailable', false),
  /** User unavailable for inbound calls */
  USER_UNAVAILABLE: widgetSends('USER_UNAVAILABLE', 'userUnavailable', false),
  /** Inbound call ringing; host answers CALLER_ID_MATCH_* (+ CREATE_ENGAGEMENT_* if requested) */
  INCOMING_CALL: widgetSends('INCOMING_CALL', 'incomingCall'),
  /** Outbound call started; createEngagement → CREATE_ENGAGEMENT_* */
  OUTGOING_CALL_STARTED: {
    ...widgetSends('OUTGOING_CALL_STARTED', 'outgoingCall'),
    deprecatedFields: { phoneNumber: 'outgoingCall phoneNumber is deprecated: use toNumber' },
  },
  /** Call answered */
  CALL_ANSWERED: widgetSends('CALL_ANSWERED', 'callAnswered'),
  /** Call ended (with callEndStatus) */
  CALL_ENDED: widgetSends('CALL_ENDED', 'callEnded'),
  /** User done; host updates the engagement (UPDATE_ENGAGEMENT_*) and hides the widget unless hideWidget:false */
  CALL_COMPLETED: widgetSends('CALL_COMPLETED', 'callCompleted'),
  /** Call transferred (0.9.6); the host finalizes the call */
  CALL_TRANSFERRED: widgetSends('CALL_TRANSFERRED', 'callTransferred'),
  /** Open a CRM record; on failure NAVIGATE_TO_RECORD_FAILED */
  NAVIGATE_TO_RECORD: widgetSends('NAVIGATE_TO_RECORD', 'navigateToRecord'),
  /** Finalize the engagement (0.9.4); FINALIZE_ENGAGEMENT_* */
  FINALIZE_ENGAGEMENT: widgetSends('FINALIZE_ENGAGEMENT', 'finalizeEngagement'),
  /** Publish the call to a connected channel */
  PUBLISH_TO_CHANNEL: {
    ...widgetSends('PUBLISH_TO_CHANNEL', 'publishToChannel'),
    deprecated: FINALIZE_NOTE,
  },
  /** Untyped call data */
  CALL_DATA: widgetSends('CALL_DATA', 'callData'),
  /** sendError({message}) or the automatic UNKNOWN_MESSAGE_TYPE reply */
  ERROR: widgetSends('ERROR', 'sendError'),
  /** Resize the widget iframe */
  RESIZE_WIDGET: widgetSends('RESIZE_WIDGET', 'resizeWidget'),
  /** Widget asks the host to swap the iframe src (SET_WIDGET_URL_FAILED on failure); a receiver retargets */
  SET_WIDGET_URL: {
    type: 'SET_WIDGET_URL', direction: 'widget-to-host', acceptedFrom: ['widget', 'host'], method: 'setWidgetUrl', hasData: true,
  },
  // --- host → widget -------------------------------------------------------
  /** User started an outbound call from the CRM */
  DIAL_NUMBER: hostSends('DIAL_NUMBER', 'onDialNumber', 'dialNumber'),
  /** Engagement created */
  ENGAGEMENT_CREATED: {
    ...hostSends('ENGAGEMENT_CREATED', 'onEngagementCreated', 'engagementCreated'),
    deprecated: 'ENGAGEMENT_CREATED / onEngagementCreated is deprecated: use CREATE_ENGAGEMENT_SUCCEEDED',
  },
  /** Engagement created */
  CREATE_ENGAGEMENT_SUCCEEDED: hostSends('CREATE_ENGAGEMENT_SUCCEEDED', 'onCreateEngagementSucceeded', 'createEngagementSucceeded'),
  /** Engagement creation failed */
  CREATE_ENGAGEMENT_FAILED: hostSends('CREATE_ENGAGEMENT_FAILED', 'onCreateEngagementFailed', 'createEngagementFailed'),
  /** Engagement updated */
  UPDATE_ENGAGEMENT_SUCCEEDED: hostSends('UPDATE_ENGAGEMENT_SUCCEEDED', 'onUpdateEngagementSucceeded', 'updateEngagementSucceeded'),
  /** Engagement update failed */
  UPDATE_ENGAGEMENT_FAILED: hostSends('UPDATE_ENGAGEMENT_FAILED', 'onUpdateEngagementFailed', 'updateEngagementFailed'),
  /** Caller id matched CRM records */
  CALLER_ID_MATCH_SUCCEEDED: hostSends('CALLER_ID_MATCH_SUCCEEDED', 'onCallerIdMatchSucceeded', 'callerIdMatchSucceeded'),
  /** Caller id did not match */
  CALLER_ID_MATCH_FAILED: hostSends('CALLER_ID_MATCH_FAILED', 'onCallerIdMatchFailed', 'callerIdMatchFailed'),
  /** Navigation failed */
  NAVIGATE_TO_RECORD_FAILED: hostSends('NAVIGATE_TO_RECORD_FAILED', 'onNavigateToRecordFailed', 'navigateToRecordFailed'),
  /** Engagement finalized */
  FINALIZE_ENGAGEMENT_SUCCEEDED: hostSends('FINALIZE_ENGAGEMENT_SUCCEEDED', 'onFinalizeEngagementSucceeded', 'finalizeEngagementSucceeded'),
  /** Finalizing failed */
  FINALIZE_ENGAGEMENT_FAILED: hostSends('FINALIZE_ENGAGEMENT_FAILED', 'onFinalizeEngagementFailed', 'finalizeEngagementFailed'),
  /** Published to channel */
  PUBLISH_TO_CHANNEL_SUCCEEDED: {
    ...hostSends('PUBLISH_TO_CHANNEL_SUCCEEDED', 'onPublishToChannelSucceeded', 'publishToChannelSucceeded'),
    deprecated: 'PUBLISH_TO_CHANNEL_SUCCEEDED is deprecated: use FINALIZE_ENGAGEMENT_SUCCEEDED',
  },
  /** Publishing to channel failed */
  PUBLISH_TO_CHANNEL_FAILED: {
    ...hostSends('PUBLISH_TO_CHANNEL_FAILED', 'onPublishToChannelFailed', 'publishToChannelFailed'),
    deprecated: 'PUBLISH_TO_CHANNEL_FAILED is deprecated: use FINALIZE_ENGAGEMENT_FAILED',
  },
  /** Call id initiated (payload unspecified) */
  INITIATE_CALL_ID_SUCCEEDED: hostSends('INITIATE_CALL_ID_SUCCEEDED', 'onInitiateCallIdSucceeded', 'initiateCallIdSucceeded'),
  /** Call id initiation failed */
  INITIATE_CALL_ID_FAILED: hostSends('INITIATE_CALL_ID_FAILED', 'onInitiateCallIdFailed', 'initiateCallIdFailed'),
  /** The host could not swap the widget URL */
  SET_WIDGET_URL_FAILED: hostSends('SET_WIDGET_URL_FAILED', 'onSetWidgetUrlFailed', 'setWidgetUrlFailed'),
  /** Widget minimized or hidden */
  VISIBILITY_CHANGED: hostSends('VISIBILITY_CHANGED', 'onVisibilityChanged', 'visibilityChanged'),
  /** Host asks the widget to end the call (the demo answers with callEnded) */
  END_CALL: hostSends('END_CALL', 'onEndCall', 'endCall', false),
  /** Legacy, unspecified */
  SET_CALL_STATE: hostSends('SET_CALL_STATE', 'onSetCallState', 'setCallState'),
  /** Generic failure (onFailed) */
  FAILED: hostSends('FAILED', 'onFailed', 'failed'),
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
