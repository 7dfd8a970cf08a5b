/**
 * The call engagement in the CRM: created for OUTGOING_CALL_STARTED /
 * INCOMING_CALL with createEngagement, PATCHed as the call goes on, updated by
 * CALL_COMPLETED (with the default associations), checked by
 * FINALIZE_ENGAGEMENT / PUBLISH_TO_CHANNEL, and read back after each change.
 *
 * Engagement faults (the faults panel's "fail next/every create/update") are
 * applied here, before the API: the reply is *_FAILED with an "Injected fault"
 * message and no API call is made, so the CRM never holds a half-made call.
 */
import { isHostCallId, type AcceptedMessageOf as MessageOf, type AcceptedPayload as Payload } from '../../../../shared/protocol/index.ts'
import { CALLING_APP_ID } from '../../../../shared/crm/account.ts'
import { ApiRequestError } from '../../../lib/api-client.ts'
import { callAssociationTypeId, objectTypeInfo, type ObjectType } from '../../../lib/crm-types.ts'
import type { EngagementView } from '../calling-types.ts'
import { positiveId, type CallRecord, type SimpleObject } from '../ports.ts'
import { endOfCall, errorText, type ControllerContext, type KnownCall, type LinkableRequest } from './context.ts'
import { refusalReason, refusedContent, refusedLogs } from '../refused-logs.ts'

/** The engagement properties the dock, timeline and inspector show (read back from the API). */
export const ENGAGEMENT_VIEW_PROPERTIES = ['hs_call_status', 'hs_call_duration', 'hs_call_body', 'hs_call_title', 'hs_call_external_id'] as const

export async function createEngagement(
  ctx: ControllerContext,
  request: MessageOf<'OUTGOING_CALL_STARTED'> | MessageOf<'INCOMING_CALL'>,
  call: KnownCall,
  base: Record<string, string | undefined>,
): Promise<void> {
  const store = () => ctx.store.getState()
  if (store().takeEngagementFault('create')) {
    const reply = ctx.host.createEngagementFailed({ error: { message: 'Injected fault: engagement creation failed (Ringside faults panel).' } })
    ctx.link(request, reply)
    return
  }
  const properties: Record<string, string> = {
    hs_call_source: 'INTEGRATIONS_PLATFORM',
    hs_call_app_id: String(CALLING_APP_ID),
  }
  // A call the widget started without externalCallId (SDK 0.6 and older) has only the host's own id: the CRM stores none.
  if (!isHostCallId(call.externalCallId)) properties.hs_call_external_id = call.externalCallId
  for (const [key, value] of Object.entries(base)) if (typeof value === 'string' && value.trim() !== '') properties[key] = value
  const record = call.record
  if (record && (record.objectType === 'contacts' || record.objectType === 'companies')) {
    properties.hs_call_callee_object_id = record.objectId
    properties.hs_call_callee_object_type_id = objectTypeInfo(record.objectType).typeId
  }
  const associations = record
    ? [{ to: { id: record.objectId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: callAssociationTypeId(record.objectType) }] }]
    : []
  try {
    const created = await ctx.api.post<SimpleObject>('/crm/v3/objects/calls', { properties, associations })
    const engagementId = positiveId(created.id)
    if (engagementId === undefined) throw new Error(`the API returned an unusable call id ${JSON.stringify(created.id)}`)
    if (!ctx.alive()) return
    ctx.calls.engagementCreated(call, engagementId)
    store().conformanceEvent({ kind: 'engagement-created', externalCallId: call.externalCallId, engagementId })
    store().updateCall(call.externalCallId, { engagementId })
    ctx.link(request, ctx.host.createEngagementSucceeded({ engagementId }))
    // And the legacy ENGAGEMENT_CREATED, as the real CRM still sends it: some published widgets
    // listen only for onEngagementCreated (evidence: shared/protocol/README.md, "Call events in context").
    ctx.host.engagementCreated({ engagementId })
  } catch (error) {
    if (!ctx.alive()) return
    ctx.link(request, ctx.host.createEngagementFailed({ error: { message: `Could not create the call engagement: ${errorText(error)}` } }))
  }
}

/** PATCHes call properties; an API refusal becomes a harness alert (the widget expects no answer here). */
export async function patchCall(ctx: ControllerContext, engagementId: number | undefined, properties: Record<string, string>, what: string): Promise<void> {
  if (engagementId === undefined) return
  try {
    await ctx.api.patch(`/crm/v3/objects/calls/${engagementId}`, { properties })
  } catch (error) {
    if (ctx.alive()) ctx.store.getState().alert(`Could not ${what} on call ${engagementId}: ${errorText(error)}`, 'harness')
  }
}

/**
 * Reads the engagement back from the API and shows it in the dock and inspector:
 * one source of truth for the call's status, duration and notes.
 */
export async function refresh(ctx: ControllerContext, externalCallId: string | undefined, engagementId: number | undefined): Promise<void> {
  if (externalCallId === undefined || engagementId === undefined) return
  try {
    const call = await ctx.api.get<SimpleObject>(`/crm/v3/objects/calls/${engagementId}`, { query: { properties: ENGAGEMENT_VIEW_PROPERTIES.join(',') } })
    if (!ctx.alive()) return
    const view: EngagementView = { id: String(call.id), properties: {} }
    for (const name of ENGAGEMENT_VIEW_PROPERTIES) view.properties[name] = call.properties[name] ?? null
    ctx.store.getState().updateCall(externalCallId, { engagement: view })
  } catch (error) {
    if (ctx.alive()) ctx.store.getState().updateCall(externalCallId, { engagement: { id: String(engagementId), properties: {}, error: errorText(error) } })
  }
}

/**
 * CALL_COMPLETED: the call's log (engagementProperties as sent), its default associations,
 * then the reply. Judged first against the widget's calls (ctx.calls.judge): a completion for
 * a call the widget did not start is ignored and answered UPDATE_ENGAGEMENT_FAILED; a call
 * never ended is ended first (call rule completed-without-end), the widget's own
 * hs_call_status winning.
 */
export async function onCompleted(ctx: ControllerContext, data: Payload<'CALL_COMPLETED'>, message: MessageOf<'CALL_COMPLETED'>): Promise<void> {
  const store = () => ctx.store.getState()
  const { verdict, call } = ctx.calls.judge('CALL_COMPLETED', data)
  const id = verdict.act ? verdict.externalCallId : undefined
  if (store().incoming && store().incoming?.externalCallId === id) store().patch({ incoming: null })
  // Close the widget first, as the CRM does, unless the widget asked to stay open or a task queue is being worked.
  if (data.hideWidget !== false && !ctx.keepVisible()) ctx.hide()
  if (!verdict.act || !call) {
    const reason = verdict.act ? 'unknown call' : verdict.reason
    ctx.link(message, ctx.host.updateEngagementFailed({ error: { message: `The host ignored CALL_COMPLETED: ${reason} (it never updates a call the widget did not start).` } }))
    return
  }
  const engagementId = verdict.engagementId
  if (engagementId === undefined) {
    ctx.link(message, ctx.host.updateEngagementFailed({ error: { message: `No engagement to update for call ${call.externalCallId}: send engagementId, or start the call with createEngagement: true.` } }))
    return
  }
  if (store().takeEngagementFault('update')) {
    ctx.link(message, ctx.host.updateEngagementFailed({ error: { message: 'Injected fault: engagement update failed (Ringside faults panel).' } }))
    return
  }
  // The values go to the engagements API as the widget sent them: it clears a property
  // set to null or "", stores numbers as text and refuses what it cannot store.
  const ended = verdict.endFirst ? endOfCall(ctx, call).properties : {}
  const properties = { ...ended, ...((data.engagementProperties ?? {}) as Record<string, unknown>) }
  try {
    if (Object.keys(properties).length > 0) await ctx.api.patch(`/crm/v3/objects/calls/${engagementId}`, { properties })
    else await ctx.api.get(`/crm/v3/objects/calls/${engagementId}`)
  } catch (error) {
    // Shown beside the call on the record page, with the notes the CRM did not save (refused-logs.ts).
    refusedLogs.getState().note({ engagementId: String(engagementId), externalCallId: call.externalCallId, reason: refusalReason(error), at: Date.now(), ...refusedContent(properties) })
    if (!ctx.alive()) return
    ctx.link(message, ctx.host.updateEngagementFailed({ error: { message: `Could not update engagement ${engagementId}: ${errorText(error)}` } }))
    await refresh(ctx, call.externalCallId, engagementId)
    return
  }
  refusedLogs.getState().saved(String(engagementId))
  // Default associations before the reply, so the CRM is complete when the widget hears success.
  if (call.record) await associateDefaults(ctx, engagementId, call.record)
  if (!ctx.alive()) return
  ctx.link(message, ctx.host.updateEngagementSucceeded({ engagementId }))
  ctx.calls.finish(call)
  store().updateCall(call.externalCallId, { status: 'COMPLETED', engagementId })
  await refresh(ctx, call.externalCallId, engagementId)
  if (!ctx.alive()) return
  ctx.onCallLogged?.({
    externalCallId: call.externalCallId,
    outcome: 'completed',
    engagementId,
    ...(call.record ? { record: call.record } : {}),
  })
}

/** The record the call was made from, and for a contact its companies. */
async function associateDefaults(ctx: ControllerContext, engagementId: number, record: CallRecord): Promise<void> {
  const put = (type: ObjectType, id: string) => ctx.api.put(`/crm/v3/objects/calls/${engagementId}/associations/${type}/${id}/${callAssociationTypeId(type)}`)
  try {
    await put(record.objectType, record.objectId)
    if (record.objectType === 'contacts') {
      const contact = await ctx.api.get<SimpleObject>(`/crm/v3/objects/contacts/${record.objectId}`, { query: { associations: 'companies' } })
      const companies = contact.associations?.companies?.results ?? []
      const ids = [...new Set(companies.map((c) => c.id))]
      for (const id of ids) await put('companies', id)
    }
  } catch (error) {
    if (ctx.alive()) ctx.store.getState().alert(`Could not associate call ${engagementId}: ${errorText(error)}`, 'harness')
  }
}

export type FinalizeType = 'FINALIZE_ENGAGEMENT' | 'PUBLISH_TO_CHANNEL'
type FinalizeReply = { engagementId?: number; externalCallId?: string }

/** FINALIZE_ENGAGEMENT / PUBLISH_TO_CHANNEL: *_SUCCEEDED if the call's engagement exists, else *_FAILED (judged first, as CALL_COMPLETED). */
export async function onFinalize(
  ctx: ControllerContext,
  type: FinalizeType,
  data: Payload<'FINALIZE_ENGAGEMENT'>,
  message: MessageOf<'FINALIZE_ENGAGEMENT'> | MessageOf<'PUBLISH_TO_CHANNEL'>,
): Promise<void> {
  const { verdict } = ctx.calls.judge(type, data)
  const engagementId = verdict.act ? verdict.engagementId : undefined
  const externalCallId = verdict.act ? verdict.externalCallId : data.externalCallId
  const reply = {
    ...(engagementId !== undefined ? { engagementId } : {}),
    ...(externalCallId !== undefined ? { externalCallId } : {}),
  }
  let error: string | null = null
  if (!verdict.act) {
    error = `The host ignored ${type}: ${verdict.reason} (it never finalizes a call the widget did not start).`
  } else if (engagementId === undefined) {
    error = `No engagement to finalize for ${externalCallId === undefined ? 'this call' : `call ${externalCallId}`}: send engagementId.`
  } else {
    try {
      await ctx.api.get(`/crm/v3/objects/calls/${engagementId}`)
    } catch (e) {
      error = e instanceof ApiRequestError && e.status === 404 ? `Unknown engagement ${engagementId}.` : errorText(e)
    }
  }
  if (!ctx.alive()) return
  replyFinalize(ctx, type, message, reply, error)
}

/** FINALIZE_ENGAGEMENT and PUBLISH_TO_CHANNEL: the success or failure reply of each. */
export function replyFinalize(ctx: Pick<ControllerContext, 'host' | 'link'>, type: FinalizeType, request: LinkableRequest, reply: FinalizeReply, error: string | null): void {
  const h = ctx.host
  const replies = {
    FINALIZE_ENGAGEMENT: { succeeded: (r: FinalizeReply) => h.finalizeEngagementSucceeded(r), failed: (r: FinalizeReply & { error: { message: string } }) => h.finalizeEngagementFailed(r) },
    PUBLISH_TO_CHANNEL: { succeeded: (r: FinalizeReply) => h.publishToChannelSucceeded(r), failed: (r: FinalizeReply & { error: { message: string } }) => h.publishToChannelFailed(r) },
  }[type]
  ctx.link(request, error === null ? replies.succeeded(reply) : replies.failed({ ...reply, error: { message: error } }))
}
