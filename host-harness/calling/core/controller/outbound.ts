/**
 * OUTGOING_CALL_STARTED: the call is known from now on, logged against the
 * dialed record (the widget's dialingContext, else the last Call button, else
 * a phone match), and with createEngagement an engagement is created.
 */
import type { AcceptedMessageOf as MessageOf, AcceptedPayload as Payload } from '../../../../shared/protocol/index.ts'
import { isRecord } from '../../../../shared/crm/guards.ts'
import { recordTypeOf } from '../../../lib/crm-types.ts'
import { positiveId } from '../ports.ts'
import { matchCaller } from './caller-id.ts'
import type { ControllerContext, KnownCall } from './context.ts'
import { createEngagement } from './engagement.ts'

export async function onOutgoing(ctx: ControllerContext, data: Payload<'OUTGOING_CALL_STARTED'>, message: MessageOf<'OUTGOING_CALL_STARTED'>): Promise<void> {
  const toNumber = data.toNumber ?? data.phoneNumber ?? ''
  const record = await outgoingRecord(ctx, data, toNumber)
  const call: KnownCall = { externalCallId: data.externalCallId, direction: 'outbound', startedAt: ctx.now(), ...(record ? { record } : {}) }
  ctx.calls.start(call, data.createEngagement === true)
  ctx.store.getState().patch({
    incoming: null,
    call: { externalCallId: call.externalCallId, direction: 'outbound', number: toNumber, status: 'CONNECTING', ...(record ? { record } : {}) },
  })
  if (data.createEngagement === true) {
    await createEngagement(ctx, message, call, {
      hs_call_direction: 'OUTBOUND',
      hs_call_status: 'CONNECTING',
      hs_call_to_number: toNumber,
      hs_call_from_number: data.fromNumber,
      hs_call_title: `Call to ${record?.label ?? toNumber}`,
      hs_timestamp: new Date(data.callStartTime ?? ctx.now()).toISOString(),
    })
  }
}

/** The dialed record: the dialing context, else the last Call button, else a phone match. */
async function outgoingRecord(ctx: ControllerContext, data: Payload<'OUTGOING_CALL_STARTED'>, toNumber: string): Promise<KnownCall['record']> {
  const dial = ctx.calls.takeDial()
  const context = isRecord(data.dialingContext) ? data.dialingContext : undefined
  const contextType = recordTypeOf(context?.objectType)
  const contextId = positiveId(context?.objectId)
  if (contextType && contextId !== undefined) {
    const same = dial && dial.record.objectType === contextType && dial.record.objectId === String(contextId)
    return same ? dial.record : { objectType: contextType, objectId: String(contextId) }
  }
  if (dial) return dial.record
  const matches = toNumber ? await matchCaller(ctx.api, toNumber, ctx.account.portalId) : []
  const first = matches[0]
  return first ? first.record : undefined
}
