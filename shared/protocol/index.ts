/** Public surface of the calling SDK (widget side + host side). See README.md. */
export { CallingExtensions } from './widget.ts'
export type { CallingExtensionsOptions, EventHandlers, OutgoingMessage } from './widget.ts'
export { CallingHost } from './host.ts'
export { WindowTransport } from './transport.ts'
export type { ForeignMessage, WindowTransportOptions, WireMessage } from './transport.ts'
export { announceSubstitution, answerSync } from './handshake.ts'
export { SyncLoop } from './sync-loop.ts'
export type { HostSendMethods, WidgetSendMethods } from './send-methods.ts'
export type {
  CallingHostOptions,
  HostEventName,
  HostEvents,
  HostObserver,
  HostOutbox,
  HostStatus,
  IgnoredEvent,
  InboundNote,
  OutgoingFault,
  OutgoingNote,
  RejectedEvent,
  SyncAckFailedCause,
  SyncAckInfo,
} from './host.ts'
export {
  CATALOGUE,
  MessageType,
  SDK_VERSION,
  callEndStatus,
  callEndingStatus,
  callInProgressStatus,
  callRingingStatus,
  callStatus,
  callerIdTypes,
  deprecationOf,
  errorType,
  getEntry,
  iframeLocation,
  notSdkReason,
  validateMessage,
} from './catalogue.ts'
export { FAILURE_REPLY, LENIENCY_RULES, judgeWidgetMessage } from './judgement.ts'
export { hostCallId, isHostCallId } from './leniency.ts'
export { LEGACY_ACK_VERSION, ackHasNoCallCompleted } from './sdk-releases.ts'
export { SCHEMAS, schemasOf } from './envelopes.ts'
export {
  CALL_RULES,
  applyCallEvent,
  emptySession,
  engagementCreated,
  isCallEventType,
  judgeCallEvent,
  startCall,
  stepCallEvent,
} from './call-session.ts'
export type { CallEventType, CallFinding, CallRule, CallRuleInfo, CallSession, CallVerdict, SessionCall } from './call-session.ts'
export { findingsOf, replayWire, startedCallId } from './session-replay.ts'
export type { ReplayedMessage, WireEntry } from './session-replay.ts'
export type { Schemas } from './envelopes.ts'
export type { AcceptedWidgetMessage, Deviation, Judgement, LeniencyRule, LeniencyRuleInfo, Severity } from './judgement.ts'
export type {
  AcceptedMessageOf,
  AcceptedPayload,
  AnyMessage,
  CallStatus,
  CallerIdMatch,
  CallerIdMatchPayload,
  CallerIdType,
  CatalogueEntry,
  CompanyIdMatch,
  ContactIdMatch,
  DialNumberPayload,
  Direction,
  EndStatus,
  EngagementErrorPayload,
  EngagementIdPayload,
  ErrorPayload,
  FromHostType,
  FromWidgetType,
  HandledType,
  HandlerName,
  HandlerNameOf,
  HostSendableType,
  HostToWidgetMessage,
  IframeLocation,
  MessageOf,
  NavigateToRecordFailedPayload,
  ObjectCoordinates,
  OnCallAnswered,
  OnCallCompleted,
  OnCallEnded,
  OnCallTransferred,
  OnError,
  OnFinalizeEngagement,
  OnIncomingCall,
  OnInitialized,
  OnNavigateToRecord,
  OnOutgoingCall,
  OnPublishToChannel,
  OnResize,
  OnSetWidgetUrl,
  Payload,
  RawEngagementProperties,
  ReadyPayload,
  ReplyPayload,
  Side,
  SizeInfo,
  SyncAckMessage,
  SyncFields,
  SyncMessage,
  ValidationResult,
  VisibilityChangedPayload,
  WidgetToHostMessage,
  Wire,
} from './catalogue.ts'
export { createLogger, resetWarnOnce, warnOnce } from './log.ts'
export type { Logger } from './log.ts'
export { createMessageIdFactory } from './message-id.ts'
export { httpOrigin, parseHttpUrl } from './origin.ts'
