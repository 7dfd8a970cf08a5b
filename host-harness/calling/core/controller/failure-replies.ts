/**
 * A request the host ignored (the real CRM would) still gets its failure reply,
 * with the reason, so the widget is never left waiting.
 */
import type { IgnoredEvent } from '../../../../shared/protocol/index.ts'
import { FAILURE_REPLY } from '../../../../shared/protocol/index.ts'
import { isRecord } from '../../../../shared/crm/guards.ts'
import type { ControllerContext } from './context.ts'
import { replyFinalize } from './engagement.ts'

export function onIgnored(ctx: Pick<ControllerContext, 'host' | 'link'>, event: IgnoredEvent): void {
  const type = event.type
  if (type === undefined || !(type in FAILURE_REPLY)) return
  const raw = isRecord(event.data) ? event.data : {}
  const data = isRecord(raw.data) ? raw.data : {}
  const messageId = typeof raw.messageId === 'string' || typeof raw.messageId === 'number' ? raw.messageId : ''
  const request = { type, messageId }
  const error = { message: `The host ignored ${type}: ${event.reason}` }
  const h = ctx.host
  switch (type as keyof typeof FAILURE_REPLY) {
    case 'CALL_COMPLETED':
      ctx.link(request, h.updateEngagementFailed({ error }))
      break
    case 'FINALIZE_ENGAGEMENT':
    case 'PUBLISH_TO_CHANNEL':
      replyFinalize(ctx, type as 'FINALIZE_ENGAGEMENT', request, {}, error.message)
      break
    case 'NAVIGATE_TO_RECORD':
      ctx.link(request, h.navigateToRecordFailed())
      break
    case 'SET_WIDGET_URL':
      ctx.link(request, h.setWidgetUrlFailed({ error }))
      break
    case 'OUTGOING_CALL_STARTED':
      if (data.createEngagement === true) ctx.link(request, h.createEngagementFailed({ error }))
      break
    case 'INCOMING_CALL':
      ctx.link(request, h.callerIdMatchFailed({ error }))
      if (data.createEngagement === true) ctx.link(request, h.createEngagementFailed({ error }))
      break
  }
}
