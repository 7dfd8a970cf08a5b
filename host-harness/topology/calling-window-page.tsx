/**
 * The detached calling window (#/calling-window): the widget, with
 * `iframeLocation: 'window'`, and the message inspector of its traffic. It is
 * a page of the harness's own origin, as the real CRM's calling window is of
 * the CRM's (/calling-integration-popup-ui/<portalId>).
 */
import { useState } from 'react'
import { CallingDock } from '../calling/calling-dock.tsx'
import { InspectorPanel } from '../calling/inspector-panel.tsx'
import './topology.css'

export function CallingWindowPage() {
  const [tools, setTools] = useState(false)
  return (
    <div className="calling-window-page">
      <CallingDock />
      <div className="calling-window-page__tools">
        <button type="button" aria-expanded={tools} onClick={() => setTools((open) => !open)}>
          {tools ? 'Hide message inspector' : 'Show message inspector'}
        </button>
        {/* Kept mounted while hidden, so the inspector records traffic even when closed. */}
        <div hidden={!tools}>
          <InspectorPanel />
        </div>
      </div>
    </div>
  )
}
