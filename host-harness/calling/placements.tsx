/**
 * Composition by placement, like index.ts (which re-exports these): a record
 * page shows the widget's dock, or, when the widget runs in the calling
 * window, the calling window's card and badge; the calling window's own page
 * is the dock and the message inspector of its traffic.
 */
import { useEffect, useState } from 'react'
import { useCalling } from './core/calling-store.ts'
import { CallingDock } from './dock/calling-dock.tsx'
import { CallingStatusBadge, StatusBadgeView } from './dock/status-badge.tsx'
import { widgetState } from './core/widget-state.ts'
import { InspectorPanel } from './inspector/inspector-panel.tsx'
import { topology } from './topology/topology.ts'
import { usePageLink, WindowCallCard } from './topology/window-call-card.tsx'

/** The widget runs in the calling window, not in this page. */
export function useWidgetElsewhere(): boolean {
  return useCalling((s) => s.iframeLocation === 'window') && !topology.inCallingWindow
}

/**
 * A record page in the window placement shows the calling window's card and loads the widget in the remote
 * beside it (`iframeLocation: 'remote'`, `usesCallingWindow: true`), as the real CRM does.
 */
export function PlacedDock() {
  return useWidgetElsewhere() ? (
    <>
      <WindowCallCard />
      <CallingDock />
    </>
  ) : (
    <CallingDock />
  )
}

function WindowStatusBadge() {
  const { window: win, opening } = usePageLink()
  if (!win) {
    return (
      <span className="calling-badge" role="group" aria-label="Calling status">
        <span className="calling-badge__item calling-badge__item--wait">
          <span className="calling-badge__dot" aria-hidden="true" />
          {opening ? 'Calling window opening' : 'Calling window not open'}
        </span>
      </span>
    )
  }
  const state = widgetState({ status: win.handshake, loggedIn: win.loggedIn, available: win.available })
  return <StatusBadgeView state={state} isReady={win.isReady} where=" in the calling window" />
}

export function PlacedStatusBadge() {
  return useWidgetElsewhere() ? <WindowStatusBadge /> : <CallingStatusBadge />
}

/**
 * The detached calling window (#/calling-integration-popup-ui/<portalId>): the widget, with
 * `iframeLocation: 'window'`, and the message inspector of its traffic. It is
 * a page of the harness's own origin, as the real CRM's calling window is of
 * the CRM's (/calling-integration-popup-ui/<portalId>).
 */
export function CallingWindowPage() {
  const [tools, setTools] = useState(false)
  useEffect(() => {
    document.title = 'Calling window — Ringside'
  }, [])
  return (
    <div className="calling-window-page">
      <CallingDock />
      <div className="calling-window-page__tools">
        <button type="button" aria-expanded={tools} onClick={() => setTools((open) => !open)}>
          {tools ? 'Hide message inspector' : 'Show message inspector'}
        </button>
        {/* Kept mounted while hidden, so the inspector keeps its filters; it draws only while shown (the store records the traffic). */}
        <div hidden={!tools}>
          <InspectorPanel visible={tools} />
        </div>
      </div>
    </div>
  )
}
