/**
 * `ringside/sdk/widget`: the widget side of the calling SDK (what a calling
 * widget needs), without the host side.
 */
export { CallingExtensions, CATALOGUE, MessageType, SDK_VERSION, callEndStatus, callEndingStatus, callInProgressStatus, callRingingStatus, callStatus, callerIdTypes, errorType } from '../shared/protocol/index.ts'
export type { CallingExtensionsOptions, EventHandlers, OutgoingMessage } from '../shared/protocol/index.ts'
