/**
 * The widget's UI state as the host keeps it: INITIALIZED (login, availability,
 * size), RESIZE_WIDGET, the widget's ERROR toasts, and the dock's visibility
 * (shown, hidden, minimized), which the widget hears about once it is ready.
 */
import { getEntry, type AcceptedPayload as Payload } from '../../../../shared/protocol/index.ts'
import { isRecord } from '../../../../shared/crm/guards.ts'
import type { CallingStore } from '../calling-store.ts'
import type { Visibility } from '../calling-types.ts'
import { clampSize } from '../settings.ts'
import type { ControllerContext } from './context.ts'

type UiContext = Pick<ControllerContext, 'host' | 'store'>

export function onInitialized(ctx: UiContext, data: Payload<'INITIALIZED'>): void {
  const patch: Parameters<ReturnType<CallingStore['getState']>['patch']>[0] = {
    initialized: true,
    loggedIn: data?.isLoggedIn === true,
  }
  if (typeof data?.isAvailable === 'boolean') patch.available = data.isAvailable
  ctx.store.getState().patch(patch)
  if (data?.sizeInfo) resize(ctx, data.sizeInfo.width, data.sizeInfo.height)
}

/** RESIZE_WIDGET (and INITIALIZED's sizeInfo): the frame's size, clamped. */
export function resize(ctx: UiContext, width: number, height: number): void {
  const size = clampSize(width, height)
  ctx.host.resize(size.width, size.height)
  ctx.store.getState().patch({ size })
}

/**
 * ERROR: a toast with the widget's message (never window.alert). An UNKNOWN_MESSAGE_TYPE answer to
 * a message the CRM sends gets none: every SDK release answers so to the host messages it predates
 * (0.1.x has no handler for CREATE_ENGAGEMENT_SUCCEEDED, 0.0.6 none for ENGAGEMENT_CREATED), the real
 * CRM sends them all the same, and a widget cannot route a type its SDK lacks. The answer stays in
 * the inspector's traffic.
 */
export function onWidgetError(ctx: UiContext, data: Payload<'ERROR'>): void {
  if ('message' in data && typeof data.message === 'string') {
    ctx.store.getState().alert(data.message, 'widget')
  } else if ('type' in data && data.type === 'UNKNOWN_MESSAGE_TYPE') {
    const original = data.data.originalMessage
    const type = isRecord(original) && typeof original.type === 'string' ? original.type : undefined
    if (type !== undefined && getEntry(type)?.direction === 'host-to-widget') return
    ctx.store.getState().alert(`The widget did not understand ${type ?? 'a message'} (UNKNOWN_MESSAGE_TYPE).`, 'widget')
  }
}

/** Shows, hides or minimizes the widget; a ready widget is told (VISIBILITY_CHANGED). */
export function setVisibility(ctx: UiContext, next: Visibility): void {
  const current = ctx.store.getState().visibility
  if (current.isHidden === next.isHidden && current.isMinimized === next.isMinimized) return
  ctx.store.getState().patch({ visibility: next })
  if (ctx.store.getState().status === 'ready') ctx.host.visibilityChanged(next)
}
