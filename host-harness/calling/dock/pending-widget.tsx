/**
 * The notice for a `?widget=` URL that is not on this machine: any web site
 * can open the harness with such an address, and the widget it names would
 * drive the CRM (log calls, read the record shown). Nothing of it is loaded
 * until the person at the harness chooses here; the widget already in place
 * (registered or override) keeps running meanwhile.
 */
import { useId } from 'react'
import { useCalling } from '../core/calling-store.ts'
import { callingRuntime } from '../core/runtime.ts'

export function PendingWidgetNotice() {
  const pending = useCalling((s) => s.pendingWidget)
  const current = useCalling((s) => s.currentSrc)
  const titleId = useId()
  if (!pending) return null
  return (
    <div className="calling-pending" role="alertdialog" aria-labelledby={titleId} aria-describedby={`${titleId}-text`}>
      <strong id={titleId}>Load a widget from {pending.origin}?</strong>
      <p id={`${titleId}-text`}>
        The address of this page asks for the widget <code className="calling-pending__url">{pending.url}</code>, which is not on this machine. A
        link on any web site can do that, and a widget can log calls and read the record shown. Load it only if you opened this
        address yourself. {current ? 'The registered widget keeps running until you choose.' : 'No widget runs until you choose.'}
      </p>
      <div className="calling-pending__actions">
        <button type="button" onClick={() => callingRuntime.loadPendingWidget()}>
          Load this widget
        </button>
        <button type="button" onClick={() => callingRuntime.keepRegisteredWidget()}>
          Keep the registered widget
        </button>
      </div>
    </div>
  )
}
