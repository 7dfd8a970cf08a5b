/**
 * A call's progress as the widget reports it: CALL_ANSWERED (IN_PROGRESS, the
 * answer time), CALL_ENDED (the end status and the duration) and
 * CALL_TRANSFERRED (the host finalizes the call). Each PATCHes the engagement
 * and reads it back for the dock and the inspector.
 */
import type { AcceptedPayload as Payload } from '../../../../shared/protocol/index.ts'
import { durationOf, endOfCall, type ControllerContext } from './context.ts'
import { patchCall, refresh } from './engagement.ts'

/**
 * Each call event is first judged against the widget's calls (ctx.calls.judge, the shared
 * call session): an event for a call the widget did not start is ignored, as the real CRM
 * would, and only the call's own engagement is ever changed. The inspector reports the
 * same verdict.
 */
export async function onAnswered(ctx: ControllerContext, data: Payload<'CALL_ANSWERED'>): Promise<void> {
  const { verdict, call } = ctx.calls.judge('CALL_ANSWERED', data)
  if (!verdict.act || !call) return
  const store = ctx.store.getState()
  const id = call.externalCallId
  if (store.incoming && store.incoming.externalCallId === id) store.patch({ incoming: null })
  call.answeredAt ??= ctx.now()
  store.updateCall(id, { status: 'IN_PROGRESS' })
  await patchCall(ctx, verdict.engagementId, { hs_call_status: 'IN_PROGRESS' }, 'set the status IN_PROGRESS')
  await refresh(ctx, id, verdict.engagementId)
}

export async function onEnded(ctx: ControllerContext, data: Payload<'CALL_ENDED'>): Promise<void> {
  const { verdict, call } = ctx.calls.judge('CALL_ENDED', data)
  if (!verdict.act || !call) return
  const store = ctx.store.getState()
  const id = call.externalCallId
  if (store.incoming && store.incoming.externalCallId === id) store.patch({ incoming: null })
  const { status, properties } = endOfCall(ctx, call, data?.callEndStatus)
  store.updateCall(id, { status })
  await patchCall(ctx, verdict.engagementId, properties, `set the status ${status}`)
  await refresh(ctx, id, verdict.engagementId)
}

/**
 * CALL_TRANSFERRED: the call left this user, and the widget sends nothing more about
 * it (the vendor's demos go straight back to their keypad). The host finalizes it:
 * hs_call_status COMPLETED (the calls API has no TRANSFERRED status) with its duration.
 */
export async function onTransferred(ctx: ControllerContext, data: Payload<'CALL_TRANSFERRED'>): Promise<void> {
  const { verdict, call } = ctx.calls.judge('CALL_TRANSFERRED', data)
  if (!verdict.act || !call) return
  const store = ctx.store.getState()
  const id = call.externalCallId
  if (store.incoming && store.incoming.externalCallId === id) store.patch({ incoming: null })
  store.updateCall(id, { status: 'TRANSFERRED' })
  ctx.calls.finish(call)
  await patchCall(ctx, verdict.engagementId, { hs_call_status: 'COMPLETED', hs_call_duration: durationOf(ctx, call) }, 'finalize the transferred call')
  await refresh(ctx, id, verdict.engagementId)
  if (!ctx.alive()) return
  ctx.onCallLogged?.({
    externalCallId: call.externalCallId,
    outcome: 'transferred',
    ...(verdict.engagementId !== undefined ? { engagementId: verdict.engagementId } : {}),
    ...(call.record ? { record: call.record } : {}),
  })
}
