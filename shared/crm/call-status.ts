/**
 * hs_call_status: the values a call engagement's status can hold, and the one
 * mapping from the SDK's callEndStatus to it. The widget (callCompleted's
 * engagementProperties), the host (CALL_ENDED) and the API (the property's
 * options) all read it from here, so a call is logged the same whoever writes it.
 *
 * Where the values come from:
 * - The calls API guide lists BUSY, CALLING_CRM_USER, CANCELED, COMPLETED,
 *   CONNECTING, FAILED, IN_PROGRESS, NO_ANSWER, QUEUED and RINGING
 *   (https://developers.hubspot.com/docs/guides/api/crm/engagements/calls, hs_call_status).
 * - The calling extensions' inbound-call endpoint, which logs an inbound call as
 *   the same call engagement, takes a final call status of MISSED as well (and
 *   HOLD, UNKNOWN), and the CRM's call index shows such calls as missed
 *   (https://developers.hubspot.com/docs/api-reference/latest/crm/extensions/calling-extensions/inbound/create-inbound-call).
 *   So the CRM stores MISSED as a status of its own: a missed call is MISSED,
 *   not NO_ANSWER (which is an outbound call the callee did not pick up).
 *   HOLD and UNKNOWN are stored the same way: CALL_STATUSES is the one table
 *   of both, the property's options and the statuses inbound-call accepts
 *   (the official client's CompletedThirdPartyCallRequest finalCallStatus enum
 *   lists exactly these thirteen).
 * - REJECTED has no status in either list: a declined call is CANCELED.
 */
/** The SDK's callEndStatus values (the npm package's constants, re-exported by the protocol). */
export const callEndStatus = {
  COMPLETED: 'COMPLETED',
  FAILED: 'FAILED',
  CANCELED: 'CANCELED',
  BUSY: 'BUSY',
  NO_ANSWER: 'NO_ANSWER',
  REJECTED: 'REJECTED',
  MISSED: 'MISSED',
} as const
export type EndStatus = (typeof callEndStatus)[keyof typeof callEndStatus]

/** Every value hs_call_status accepts, in the order the API lists its options. */
export const CALL_STATUSES = [
  'BUSY',
  'CALLING_CRM_USER',
  'CANCELED',
  'COMPLETED',
  'CONNECTING',
  'FAILED',
  'HOLD',
  'IN_PROGRESS',
  'MISSED',
  'NO_ANSWER',
  'QUEUED',
  'RINGING',
  'UNKNOWN',
] as const
export type CallStatusValue = (typeof CALL_STATUSES)[number]

const END_STATUS_TO_CALL_STATUS: Readonly<Record<EndStatus, CallStatusValue>> = {
  COMPLETED: 'COMPLETED',
  FAILED: 'FAILED',
  CANCELED: 'CANCELED',
  BUSY: 'BUSY',
  NO_ANSWER: 'NO_ANSWER',
  REJECTED: 'CANCELED',
  MISSED: 'MISSED',
}

/** The hs_call_status a call that ended with this callEndStatus is logged with. */
export function callStatusOf(endStatus: EndStatus): CallStatusValue {
  return END_STATUS_TO_CALL_STATUS[endStatus]
}

/** The statuses of a call that is over: every status a callEndStatus is logged with. */
export const FINAL_CALL_STATUSES: readonly CallStatusValue[] = [...new Set(Object.values(END_STATUS_TO_CALL_STATUS))]
