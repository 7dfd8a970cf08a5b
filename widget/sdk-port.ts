/**
 * The widget's port to the calling SDK.
 *
 * Outbound: the call machine never touches the SDK. It sends
 * {@link SdkCommand}s to an invoked actor (id `sdk`), and that actor calls the
 * matching {@link SdkPort} method. Inbound: every host handler is turned into
 * one {@link HostEvent} (a machine event named `host.*`). The bridge in
 * `sdk-bridge.ts` is the only place where one becomes the other.
 */

export type EndStatus = 'COMPLETED' | 'FAILED' | 'CANCELED' | 'BUSY' | 'NO_ANSWER' | 'REJECTED' | 'MISSED'

export interface SizeInfo {
  width: number
  height: number
}

export interface InitializedData {
  isLoggedIn: boolean
  isAvailable: boolean
  engagementId?: number
  sizeInfo: SizeInfo
}

/** The DIAL_NUMBER payload, after validation (see `host-events.ts`). */
export interface DialNumberData {
  phoneNumber: string
  ownerId?: string | number
  subjectId?: string | number
  objectId?: string | number
  objectType?: string
  portalId?: number
  countryCode?: string
  calleeInfo?: { calleeId: string | number; calleeObjectTypeId: string }
  startTimestamp?: number
  toPhoneNumberSrc?: string
  /** Any other top-level field of the payload whose value is a primitive. */
  extra?: Record<string, string | number | boolean>
}

export interface OutgoingCallData {
  externalCallId: string
  toNumber: string
  fromNumber: string
  callStartTime: number
  createEngagement: boolean
  dialingContext?: Record<string, unknown>
}

export interface IncomingCallData {
  externalCallId: string
  fromNumber: string
  toNumber: string
  callStartTime: number
  createEngagement: boolean
}

export interface CallRef {
  externalCallId: string
}

export interface CallEndedData {
  externalCallId: string
  engagementId: number
  callEndStatus: EndStatus
}

export interface EngagementProperties {
  hs_timestamp: string
  hs_call_body: string
  hs_call_status: string
  hs_call_duration: string
  hs_call_disposition?: string
  hs_call_direction: 'OUTBOUND' | 'INBOUND'
  hs_call_from_number: string
  hs_call_to_number: string
  /** Sent only to rename the call: the CRM keeps the title it created the call with otherwise. */
  hs_call_title?: string
}

export interface CallCompletedData {
  externalCallId: string
  engagementId?: number
  hideWidget: boolean
  engagementProperties: EngagementProperties
}

/**
 * The SDK methods the widget uses, named as in the npm package. Declared as
 * function properties (not methods) so that binding a real SDK checks each
 * parameter type strictly: our payloads must fit the SDK's.
 */
export interface SdkPort {
  initialized: (data: InitializedData) => void
  userLoggedIn: () => void
  userLoggedOut: () => void
  userAvailable: () => void
  userUnavailable: () => void
  outgoingCall: (data: OutgoingCallData) => void
  incomingCall: (data: IncomingCallData) => void
  callAnswered: (data: CallRef) => void
  callEnded: (data: CallEndedData) => void
  callCompleted: (data: CallCompletedData) => void
  callTransferred: (data: CallRef) => void
  sendError: (data: { message: string }) => void
  resizeWidget: (data: SizeInfo) => void
}

/** One SDK method call, as data: what the machine sends to the `sdk` actor. */
export type SdkCommand =
  | { type: 'initialized'; data: InitializedData }
  | { type: 'userLoggedIn' }
  | { type: 'userLoggedOut' }
  | { type: 'userAvailable' }
  | { type: 'userUnavailable' }
  | { type: 'outgoingCall'; data: OutgoingCallData }
  | { type: 'incomingCall'; data: IncomingCallData }
  | { type: 'callAnswered'; data: CallRef }
  | { type: 'callEnded'; data: CallEndedData }
  | { type: 'callCompleted'; data: CallCompletedData }
  | { type: 'callTransferred'; data: CallRef }
  | { type: 'sendError'; data: { message: string } }
  | { type: 'resizeWidget'; data: SizeInfo }

/** Calls the port method a command names. */
export function runCommand(port: SdkPort, command: SdkCommand): void {
  switch (command.type) {
    case 'initialized':
      return port.initialized(command.data)
    case 'userLoggedIn':
      return port.userLoggedIn()
    case 'userLoggedOut':
      return port.userLoggedOut()
    case 'userAvailable':
      return port.userAvailable()
    case 'userUnavailable':
      return port.userUnavailable()
    case 'outgoingCall':
      return port.outgoingCall(command.data)
    case 'incomingCall':
      return port.incomingCall(command.data)
    case 'callAnswered':
      return port.callAnswered(command.data)
    case 'callEnded':
      return port.callEnded(command.data)
    case 'callCompleted':
      return port.callCompleted(command.data)
    case 'callTransferred':
      return port.callTransferred(command.data)
    case 'sendError':
      return port.sendError(command.data)
    case 'resizeWidget':
      return port.resizeWidget(command.data)
  }
}

export interface ContactMatch {
  callerIdType: 'CONTACT'
  firstName: string
  lastName: string
  email?: string
}

export interface CompanyMatch {
  callerIdType: 'COMPANY'
  name: string
}

export type CallerIdMatch = ContactMatch | CompanyMatch

export interface ReadyData {
  engagementId?: number
  portalId?: number
  userId?: number
  ownerId?: string | number
  iframeLocation?: string
}

/** Host-to-widget messages, as call-machine events. */
export type HostEvent =
  | ({ type: 'host.ready' } & ReadyData)
  | { type: 'host.dialNumber'; data: DialNumberData }
  | { type: 'host.engagementCreated'; engagementId: number }
  | { type: 'host.engagementCreateFailed'; message: string }
  | { type: 'host.engagementUpdated'; engagementId: number | null }
  | { type: 'host.engagementUpdateFailed'; message: string }
  | { type: 'host.callerIdMatched'; matches: CallerIdMatch[] }
  | { type: 'host.callerIdMatchFailed'; message: string }
  | { type: 'host.endCall' }
  | { type: 'host.visibilityChanged'; isMinimized: boolean; isHidden: boolean }
  /** A host reply the widget only reports (navigation, finalize, unknown types). */
  | { type: 'host.notice'; message: string }
