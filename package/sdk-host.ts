/** `ringside/sdk/host`: the host (CRM) side of the calling SDK and the message judgement, without the widget side. */
export { CallingHost, CATALOGUE, MessageType, SCHEMAS, SDK_VERSION, judgeWidgetMessage, validateMessage, LENIENCY_RULES, FAILURE_REPLY } from '../shared/protocol/index.ts'
export type { CallingHostOptions, HostEventName, HostEvents, HostStatus, HostObserver, InboundNote, Judgement, Deviation } from '../shared/protocol/index.ts'
