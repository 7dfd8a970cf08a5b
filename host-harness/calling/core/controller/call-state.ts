/**
 * A call's progress as the widget reports it: CALL_ANSWERED (IN_PROGRESS, the
 * answer time), CALL_ENDED (the end status and the duration) and
 * CALL_TRANSFERRED (the host finalizes the call). Each PATCHes the engagement
 * and reads it back for the dock and the inspector.
 */
import type { AcceptedPayload as Payload } from '../../../../shared/protocol/index.ts'
import { callStatusOf } from '../../../../shared/crm/call-status.ts'
import { engagementFor, idOf, type ControllerContext, type KnownCall } from './context.ts'
import { patchCall, refresh } from './engagement.ts'

export async function onAnswered(ctx: ControllerContext, data: Payload<'CALL_ANSWERED'>): Promise<void> {
  const store = ctx.store.getState()
  const call = ctx.calls.find(data?.externalCallId)
  const id = idOf(data?.externalCallId, call)
  if (store.incoming && store.incoming.externalCallId === id) store.patch({ incoming: null })
  if (call) call.answeredAt ??= ctx.now()
  if (id !== undefined) store.updateCall(id, { status: 'IN_PROGRESS' })
  await patchCall(ctx, call?.engagementId, { hs_call_status: 'IN_PROGRESS' }, 'set the status IN_PROGRESS')
  await refresh(ctx, id, call?.engagementId)
}

/** hs_call_duration in ms from the answer (0 if never answered) to now: the CRM times the calls it logs. */
function durationOf(ctx: ControllerContext, call: KnownCall | undefined): string {
  return String(call?.answeredAt === undefined ? 0 : Math.max(0, ctx.now() - call.answeredAt))
}

export async function onEnded(ctx: ControllerContext, data: Payload<'CALL_ENDED'>): Promise<void> {
  const store = ctx.store.getState()
  const call = ctx.calls.find(data?.externalCallId)
  const id = idOf(data?.externalCallId, call)
  if (store.incoming && store.incoming.externalCallId === id) store.patch({ incoming: null })
  // No (or an unknown) callEndStatus: COMPLETED once answered, else CANCELED (leniency rule unknown-end-status).
  const endStatus = data?.callEndStatus ?? (call?.answeredAt !== undefined ? 'COMPLETED' : 'CANCELED')
  const status = callStatusOf(endStatus)
  if (id !== undefined) store.updateCall(id, { status })
  const engagementId = engagementFor(call, data?.engagementId)
  await patchCall(ctx, engagementId, { hs_call_status: status, hs_call_duration: durationOf(ctx, call) }, `set the status ${status}`)
  await refresh(ctx, id, engagementId)
}

/**
 * CALL_TRANSFERRED: the call left this user, and the widget sends nothing more about
 * it (the vendor's demos go straight back to their keypad). The host finalizes it:
 * hs_call_status COMPLETED (the calls API has no TRANSFERRED status) with its duration.
 */
export async function onTransferred(ctx: ControllerContext, data: Payload<'CALL_TRANSFERRED'>): Promise<void> {
  const store = ctx.store.getState()
  const call = ctx.calls.find(data?.externalCallId)
  const id = idOf(data?.externalCallId, call)
  if (store.incoming && store.incoming.externalCallId === id) store.patch({ incoming: null })
  if (id !== undefined) store.updateCall(id, { status: 'TRANSFERRED' })
  if (!call) return
  ctx.calls.finish(call)
  await patchCall(ctx, call.engagementId, { hs_call_status: 'COMPLETED', hs_call_duration: durationOf(ctx, call) }, 'finalize the transferred call')
  await refresh(ctx, id, call.engagementId)
  if (!ctx.alive()) return
  ctx.onCallLogged?.({
    externalCallId: call.externalCallId,
    outcome: 'transferred',
    ...(call.engagementId !== undefined ? { engagementId: call.engagementId } : {}),
    ...(call.record ? { record: call.record } : {}),
  })
}
