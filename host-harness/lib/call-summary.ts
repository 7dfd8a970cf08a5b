/**
 * A call engagement in a line: the properties the harness reads, when it
 * happened, and its heading (the timeline and the tickets panel show calls alike).
 */
import type { CrmObject } from './crm-api.ts'

export const CALL_PROPERTIES = [
  'hs_timestamp',
  'hs_call_title',
  'hs_call_body',
  'hs_call_status',
  'hs_call_direction',
  'hs_call_duration',
  'hs_call_disposition',
  'hs_call_from_number',
  'hs_call_to_number',
  'hs_call_recording_url',
  'hs_call_external_id',
  'hs_call_app_id',
  'hs_createdate',
] as const

/** When the call happened: hs_timestamp, else the create date. */
export function callTime(call: CrmObject): string {
  return call.properties.hs_timestamp ?? call.createdAt
}

export function callHeading(call: CrmObject): string {
  const direction = call.properties.hs_call_direction
  const kind = direction === 'INBOUND' ? 'Inbound call' : direction === 'OUTBOUND' ? 'Outbound call' : 'Call'
  const title = call.properties.hs_call_title?.trim()
  return title ? `${kind}: ${title}` : kind
}
