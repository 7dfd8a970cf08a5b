/** Types derived from the catalogue and its schemas (envelopes.ts): envelopes, payloads and the npm package's type names. */
import type { z } from './zod-config.ts'
import type { CATALOGUE, MessageType, Side } from './entries.ts'
import type { Schemas, syncSchema, syncAckSchema } from './envelopes.ts'
import type { IframeLocation } from './enums.ts'
import type {
  objectCoordinates,
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
  contactIdMatch,
  companyIdMatch,
  callerIdMatchData,
  navigateToRecordFailedData,
  visibilityChangedData,
} from './schemas.ts'

type Catalogue = typeof CATALOGUE

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
export type MessageOf<T extends MessageType> = Wire<z.output<Schemas[T]['schema']>>
/** The `data` of a message type (undefined for types without a data key). */
export type Payload<T extends MessageType> = 'data' extends keyof MessageOf<T> ? MessageOf<T>['data'] : undefined

/**
 * The envelope of a widget → host type as the host acts on it (after the leniency rules
 * of judgement.ts): what CallingHost's listeners receive. Looser than MessageOf<T> for
 * the call events (engagementId and externalCallId may be missing).
 */
export type AcceptedMessageOf<T extends MessageType> = Schemas[T] extends { accept: infer A extends z.ZodType }
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

