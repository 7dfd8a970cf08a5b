/**
 * The wire protocol's enums, as `as const` maps and union types, named like the npm
 * package's constants. Plain data (no validator library): the widget side imports them.
 */

// callEndStatus lives with the one mapping from it to hs_call_status (shared/crm/, the floor under protocol/).
export { callEndStatus, type EndStatus } from '../crm/call-status.ts'

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
