/**
 * INCOMING_CALL: the call is known from now on, the widget is shown with the
 * incoming-call banner, the caller is matched by the API's phone search
 * (CALLER_ID_MATCH_SUCCEEDED / _FAILED), and with createEngagement an
 * engagement is created on the matched record.
 */
import type { AcceptedMessageOf as MessageOf, AcceptedPayload as Payload } from '../../../../shared/protocol/index.ts'
import { matchCaller, type PhoneMatch } from './caller-id.ts'
import { errorText, type ControllerContext, type KnownCall } from './context.ts'
import { createEngagement } from './engagement.ts'

export async function onIncoming(ctx: ControllerContext, data: Payload<'INCOMING_CALL'>, message: MessageOf<'INCOMING_CALL'>): Promise<void> {
  const store = () => ctx.store.getState()
  const call: KnownCall = { externalCallId: data.externalCallId, direction: 'inbound', startedAt: ctx.now() }
  ctx.calls.start(call, data.createEngagement === true)
  store().patch({
    incoming: { externalCallId: data.externalCallId, fromNumber: data.fromNumber, status: 'matching' },
    call: { externalCallId: data.externalCallId, direction: 'inbound', number: data.fromNumber, status: 'RINGING' },
  })
  ctx.show()
  let matches: PhoneMatch[] = []
  let failure: string | null = null
  try {
    matches = await matchCaller(ctx.api, data.fromNumber, ctx.account.portalId)
  } catch (error) {
    failure = errorText(error)
  }
  if (!ctx.alive()) return
  if (matches.length > 0) {
    const reply = ctx.host.callerIdMatchSucceeded({ callerIdMatches: matches.map((m) => m.match) })
    ctx.link(message, reply)
    const record = matches[0]!.record
    call.record = record
    store().patch({ incoming: { externalCallId: data.externalCallId, fromNumber: data.fromNumber, status: 'matched', match: record } })
    store().updateCall(data.externalCallId, { record })
  } else {
    const reply = ctx.host.callerIdMatchFailed(failure ? { error: { message: failure } } : undefined)
    ctx.link(message, reply)
    store().patch({ incoming: { externalCallId: data.externalCallId, fromNumber: data.fromNumber, status: 'unmatched' } })
  }
  if (data.createEngagement === true) {
    await createEngagement(ctx, message, call, {
      hs_call_direction: 'INBOUND',
      hs_call_status: 'RINGING',
      hs_call_from_number: data.fromNumber,
      hs_call_to_number: data.toNumber,
      hs_call_title: `Call from ${call.record?.label ?? data.fromNumber}`,
      hs_timestamp: new Date(data.callStartTime ?? ctx.now()).toISOString(),
    })
  }
}
