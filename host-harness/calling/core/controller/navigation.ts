/**
 * Where the widget sends the user or itself: NAVIGATE_TO_RECORD (the record
 * must exist; NEW_TAB opens a tab) and SET_WIDGET_URL (http(s) only; a new src
 * means a new handshake).
 */
import type { AcceptedMessageOf as MessageOf, AcceptedPayload as Payload } from '../../../../shared/protocol/index.ts'
import { ApiRequestError } from '../../../lib/api-client.ts'
import { recordTypeOf } from '../../../lib/crm-types.ts'
import { positiveId } from '../ports.ts'
import { httpUrl } from '../settings.ts'
import { errorText, type ControllerContext } from './context.ts'

export function onSetWidgetUrl(ctx: ControllerContext, data: Payload<'SET_WIDGET_URL'>, message: MessageOf<'SET_WIDGET_URL'>): void {
  const requested = typeof message.iFrameUrl === 'string' ? message.iFrameUrl : data?.iFrameUrl
  const url = httpUrl(requested)
  if (url === null) {
    const reply = ctx.host.setWidgetUrlFailed({ error: { message: `iFrameUrl must be an absolute http(s) URL, got ${JSON.stringify(requested)}` } })
    ctx.link(message, reply)
    return
  }
  ctx.store.getState().patch({ currentSrc: url })
  ctx.host.setSrc(url)
}

export async function onNavigate(ctx: ControllerContext, data: Payload<'NAVIGATE_TO_RECORD'>, message: MessageOf<'NAVIGATE_TO_RECORD'>): Promise<void> {
  const coordinates = data.objectCoordinates
  const type = recordTypeOf(coordinates.objectTypeId)
  const id = positiveId(coordinates.objectId)
  const fail = (why: string) => {
    const reply = ctx.host.navigateToRecordFailed({
      ...(data.engagementId !== undefined ? { engagementId: data.engagementId } : {}),
      objectCoordinates: coordinates,
    })
    ctx.link(message, reply)
    ctx.store.getState().alert(`NAVIGATE_TO_RECORD failed: ${why}`, 'harness')
  }
  if (!type || id === undefined) return fail(`unknown object ${coordinates.objectTypeId}/${String(coordinates.objectId)}.`)
  try {
    await ctx.api.get(`/crm/v3/objects/${type}/${id}`)
  } catch (error) {
    if (!ctx.alive()) return
    return fail(error instanceof ApiRequestError && error.status === 404 ? `no ${type} record ${id}.` : errorText(error))
  }
  if (!ctx.alive()) return
  const open = data.openIn === 'NEW_TAB' ? ctx.openInNewTab : ctx.navigate
  if (!open(type, String(id))) fail(`the harness could not open ${type}/${id}.`)
}
