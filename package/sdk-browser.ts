/**
 * The browser build of the calling SDK served at /sdk/<version>/: the widget
 * side, shaped like the vendor's CDN build (the `CallingExtensions` class as
 * the default export, the constants beside it).
 */
import { CallingExtensions } from '../shared/protocol/index.ts'

export { CallingExtensions, MessageType, SDK_VERSION, callEndStatus, callEndingStatus, callInProgressStatus, callRingingStatus, callStatus, callerIdTypes, errorType } from '../shared/protocol/index.ts'
export default CallingExtensions
