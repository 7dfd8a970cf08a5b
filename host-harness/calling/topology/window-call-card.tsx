/**
 * A record page's calling area when the widget runs in the calling window:
 * what the window reports (its widget, the call it holds, as the API holds
 * it), and a button that opens or focuses it.
 */
import { useId, useSyncExternalStore } from 'react'
import { topology } from './topology.ts'
import type { PageLinkState } from './page-link.ts'
import { PlacementSelect } from '../core/placement-select.tsx'
import './topology.css'

const NO_LINK: PageLinkState = { window: null, looking: false, opening: false, pending: false, lastResult: null }
const noSubscribe = () => () => {}

/** The record page's view of the calling window (re-renders when it reports). */
export function usePageLink(): PageLinkState {
  const link = topology.pageLink
  return useSyncExternalStore(link ? (l) => link.subscribe(l) : noSubscribe, () => link?.state ?? NO_LINK)
}

/** Width the record page keeps free for the card. */
export const WINDOW_CARD_RESERVE = 300 + 2 + 16 + 16

export function WindowCallCard() {
  const state = usePageLink()
  const titleId = useId()
  const win = state.window
  const call = win?.call ?? null
  return (
    <section className="calling-window-card" aria-labelledby={titleId} role="region">
      <h2 id={titleId} className="calling-window-card__title">
        Calling window
      </h2>
      {win ? (
        <>
          <p className="calling-window-card__line">
            {win.widgetName} · handshake {win.handshake}
            {win.cannotDial ? ` · ${win.cannotDial}` : ''}
          </p>
          {call ? (
            <p className="calling-window-card__line" aria-label="Call in the calling window">
              Call {call.number}: {call.engagementStatus ?? call.status}
              {call.engagementId !== undefined ? ` · engagement ${call.engagementId}` : ''}
              {call.record ? ` · from ${call.record.label ?? `${call.record.objectType} ${call.record.objectId}`}` : ''}
            </p>
          ) : (
            <p className="calling-window-card__line">No call.</p>
          )}
        </>
      ) : state.looking ? (
        <p className="calling-window-card__line">Looking for an open calling window; this page opens one if there is none.</p>
      ) : state.opening ? (
        <p className="calling-window-card__line">Opening the calling window…</p>
      ) : (
        <p className="calling-window-card__line">Not open. A Call button opens it; it holds the call while pages load.</p>
      )}
      {state.pending ? <p className="calling-window-card__line" role="status">Asking the calling window to dial…</p> : null}
      {state.lastResult && !state.lastResult.ok ? <p role="alert">{state.lastResult.reason}</p> : null}
      <div className="calling-window-card__actions">
        <button type="button" onClick={() => topology.pageLink?.open()}>
          {win ? 'Show calling window' : 'Open calling window'}
        </button>
        <div className="calling-window-card__placement">
          <PlacementSelect value="window" onChange={(placement) => topology.setPlacement(placement)} />
        </div>
      </div>
    </section>
  )
}
