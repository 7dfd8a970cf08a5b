/**
 * The full-envelope zod schema of every catalogue type (`schema`: the SDK's documented
 * types, what a finding is measured against) and, for widget → host types the host
 * is lenient with, the envelope it acts on (`accept`, see judgement.ts).
 *
 * The host side parses with these. Both sides validate with validators.generated.ts,
 * generated from these schemas by `npm run gen:validators`; a test keeps the two in step.
 */
import { z } from './zod-config.ts'
import type { MessageType } from './entries.ts'
import { hasIFrameUrl } from './refinements.ts'
import {
  acceptCallCompleted, acceptCallEnded, acceptCallRef, acceptFinalize, acceptIncomingCall, callCompletedData, callEndedData, callerIdMatchData,
  dialNumberData, engagementErrorData, engagementIdData, errorData, externalCallIdData, finalizeEngagementData,
  incomingCallData, initializedData, messageIdSchema, navigateToRecordData, navigateToRecordFailedData, noData,
  outgoingCallData, readyData, refineWith, replyData, resizeData, syncFieldShape, unspecified, visibilityChangedData,
} from './schemas.ts'

export function envelope<T extends string, D extends z.ZodType>(type: T, data: D) {
  return z.looseObject({ type: z.literal(type), messageId: messageIdSchema, data })
}

export const syncSchema = z.looseObject({
  type: z.literal('SYNC'),
  messageId: messageIdSchema,
  /** origin of the host page; the widget posts SYNC_ACK to it */
  hostUrl: z.string(),
  ...syncFieldShape,
})

export const syncAckSchema = z.looseObject({
  type: z.literal('SYNC_ACK'),
  messageId: messageIdSchema,
  hostUrl: z.string().optional(),
  ...syncFieldShape,
  debugMode: z.boolean().optional(),
  version: z.string().optional(),
  /** the widget's own origin */
  iFrameUrl: z.string().optional(),
})

export const setWidgetUrlSchema = z
  .looseObject({
    type: z.literal('SET_WIDGET_URL'),
    messageId: messageIdSchema,
    /** legacy / host form */
    iFrameUrl: z.string().optional(),
    data: z.looseObject({ iFrameUrl: z.string().optional() }).nullish(),
  })
  .refine(...refineWith(hasIFrameUrl))

/** A type whose envelope is `schema` on both judgements. */
const strict = <S extends z.ZodType>(schema: S) => ({ schema })
/** A message type with payload `data`, the host acting on `accept` (default: the same). */
function message<const T extends string, D extends z.ZodType, A extends z.ZodType = D>(type: T, data: D, accept?: A) {
  return { schema: envelope(type, data), accept: envelope(type, (accept ?? data) as A) }
}
const hostMessage = <const T extends string, D extends z.ZodType>(type: T, data: D) => strict(envelope(type, data))

export const SCHEMAS = {
  SYNC: strict(syncSchema),
  SYNC_ACK: strict(syncAckSchema),
  READY: hostMessage('READY', readyData),
  INITIALIZED: message('INITIALIZED', initializedData.optional()),
  LOGGED_IN: message('LOGGED_IN', noData),
  LOGGED_OUT: message('LOGGED_OUT', noData),
  USER_AVAILABLE: message('USER_AVAILABLE', noData),
  USER_UNAVAILABLE: message('USER_UNAVAILABLE', noData),
  INCOMING_CALL: message('INCOMING_CALL', incomingCallData, acceptIncomingCall),
  OUTGOING_CALL_STARTED: message('OUTGOING_CALL_STARTED', outgoingCallData),
  CALL_ANSWERED: message('CALL_ANSWERED', externalCallIdData, acceptCallRef),
  CALL_ENDED: message('CALL_ENDED', callEndedData, acceptCallEnded),
  CALL_COMPLETED: message('CALL_COMPLETED', callCompletedData, acceptCallCompleted),
  CALL_TRANSFERRED: message('CALL_TRANSFERRED', externalCallIdData, acceptCallRef),
  NAVIGATE_TO_RECORD: message('NAVIGATE_TO_RECORD', navigateToRecordData),
  FINALIZE_ENGAGEMENT: message('FINALIZE_ENGAGEMENT', finalizeEngagementData, acceptFinalize),
  PUBLISH_TO_CHANNEL: message('PUBLISH_TO_CHANNEL', finalizeEngagementData, acceptFinalize),
  CALL_DATA: message('CALL_DATA', z.unknown()),
  ERROR: message('ERROR', errorData),
  RESIZE_WIDGET: message('RESIZE_WIDGET', resizeData),
  SET_WIDGET_URL: strict(setWidgetUrlSchema),
  DIAL_NUMBER: hostMessage('DIAL_NUMBER', dialNumberData),
  ENGAGEMENT_CREATED: hostMessage('ENGAGEMENT_CREATED', engagementIdData),
  CREATE_ENGAGEMENT_SUCCEEDED: hostMessage('CREATE_ENGAGEMENT_SUCCEEDED', engagementIdData),
  CREATE_ENGAGEMENT_FAILED: hostMessage('CREATE_ENGAGEMENT_FAILED', engagementErrorData),
  UPDATE_ENGAGEMENT_SUCCEEDED: hostMessage('UPDATE_ENGAGEMENT_SUCCEEDED', engagementIdData),
  UPDATE_ENGAGEMENT_FAILED: hostMessage('UPDATE_ENGAGEMENT_FAILED', engagementErrorData),
  CALLER_ID_MATCH_SUCCEEDED: hostMessage('CALLER_ID_MATCH_SUCCEEDED', callerIdMatchData),
  CALLER_ID_MATCH_FAILED: hostMessage('CALLER_ID_MATCH_FAILED', replyData),
  NAVIGATE_TO_RECORD_FAILED: hostMessage('NAVIGATE_TO_RECORD_FAILED', navigateToRecordFailedData),
  FINALIZE_ENGAGEMENT_SUCCEEDED: hostMessage('FINALIZE_ENGAGEMENT_SUCCEEDED', replyData),
  FINALIZE_ENGAGEMENT_FAILED: hostMessage('FINALIZE_ENGAGEMENT_FAILED', replyData),
  PUBLISH_TO_CHANNEL_SUCCEEDED: hostMessage('PUBLISH_TO_CHANNEL_SUCCEEDED', replyData),
  PUBLISH_TO_CHANNEL_FAILED: hostMessage('PUBLISH_TO_CHANNEL_FAILED', replyData),
  INITIATE_CALL_ID_SUCCEEDED: hostMessage('INITIATE_CALL_ID_SUCCEEDED', unspecified),
  INITIATE_CALL_ID_FAILED: hostMessage('INITIATE_CALL_ID_FAILED', replyData),
  SET_WIDGET_URL_FAILED: hostMessage('SET_WIDGET_URL_FAILED', replyData),
  VISIBILITY_CHANGED: hostMessage('VISIBILITY_CHANGED', visibilityChangedData),
  END_CALL: hostMessage('END_CALL', noData),
  SET_CALL_STATE: hostMessage('SET_CALL_STATE', unspecified),
  FAILED: hostMessage('FAILED', z.unknown()),
} as const satisfies { readonly [K in MessageType]: { readonly schema: z.ZodType; readonly accept?: z.ZodType } }

export type Schemas = typeof SCHEMAS

/** The zod schemas of a catalogue type (host side and tooling; undefined for an unknown type). */
export function schemasOf(type: string): { readonly schema: z.ZodType; readonly accept?: z.ZodType } | undefined {
  return Object.prototype.hasOwnProperty.call(SCHEMAS, type) ? SCHEMAS[type as MessageType] : undefined
}
