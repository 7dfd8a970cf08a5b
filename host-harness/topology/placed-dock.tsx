/**
 * The page's calling area and header badge, by placement: the widget's own,
 * or, on a record page whose widget runs in the calling window, what the
 * calling window reports.
 */
import { CallingDock } from '../calling/calling-dock.tsx'
import { useCalling } from '../calling/calling-store.ts'
import { CallingStatusBadge, handshakeLabel } from '../calling/status-badge.tsx'
import { topology } from './topology.ts'
import { usePageLink, WindowCallCard } from './window-call-card.tsx'
import './topology.css'

/** Width the record page keeps free for the calling window's card. */
export const WINDOW_CARD_RESERVE = 300 + 2 + 16 + 16

function useWidgetElsewhere(): boolean {
  return useCalling((s) => s.iframeLocation === 'window') && !topology.inCallingWindow
}

export function PlacedDock() {
  return useWidgetElsewhere() ? <WindowCallCard /> : <CallingDock />
}

function WindowStatusBadge() {
  const { window: win } = usePageLink()
  const tone = win?.handshake === 'ready' ? 'ok' : win?.handshake === 'failed' ? 'bad' : 'wait'
  return (
    <span className="calling-badge" role="group" aria-label="Calling status">
      <span className={`calling-badge__item calling-badge__item--${tone}`}>
        <span className="calling-badge__dot" aria-hidden="true" />
        {win ? `Widget ${handshakeLabel(win.handshake, null)} in the calling window` : 'Calling window not open'}
      </span>
    </span>
  )
}

export function PlacedStatusBadge() {
  return useWidgetElsewhere() ? <WindowStatusBadge /> : <CallingStatusBadge />
}
