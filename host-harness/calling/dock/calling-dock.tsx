/**
 * The docked calling widget: header (name, URL, the widget's state), the
 * widget setup (URL override, placement), the incoming-call banner, the
 * iframe container (CallingHost mounts the iframe into it) and the alerts
 * raised by the widget (ERROR / sendError) or by the host.
 *
 * Placement follows iframeLocation: docked bottom-right (widget), a panel
 * under the nav bar (remote) or a call window at the right, under the top bar
 * (window). The page keeps room for each (dockReserve), so none covers it.
 */
import { recordHref } from '../../lib/hash-routes.ts'
import { useCallback, useId, useState, type FormEvent } from 'react'
import { CallLogLine } from '../core/call-log.tsx'
import { useCalling, type CallingState } from '../core/calling-store.ts'
import type { EffectiveSettings } from '../core/settings.ts'
import { callingRuntime } from '../core/runtime.ts'
import { PlacementSelect } from '../core/placement-select.tsx'
import { frameOf } from '../core/placement.ts'
import { useWidgetState } from './status-badge.tsx'
import { describeWidget } from '../core/widget-state.ts'
import { lateHandshakeText } from '../core/late-handshake.ts'
import { PendingWidgetNotice } from './pending-widget.tsx'
import { widgetName } from '../../../shared/url/widget-name.ts'
import '../core/panel-controls.css'
import './dock.css'

const SOURCE_LABEL = { api: 'calling settings (API)', override: 'localStorage override', query: '?widget= in the address', default: 'default' }

/**
 * The dock's title: the registered app's name, unless another widget is loaded
 * (a URL override or ?widget= naming another URL than the registered one): then that
 * widget's own name (the override's `name`),
 * else its address, since a cross-origin widget's page title cannot be read.
 */
export function dockTitle(effective: EffectiveSettings | null, currentSrc: string | null): { title: string; note?: string } {
  if (!effective) return { title: 'Calling widget' }
  const shown = currentSrc ?? effective.url
  // An override naming the registered widget's own URL loads that same app.
  const replaced = (effective.sources.url === 'override' || effective.sources.url === 'query') && shown !== effective.registeredUrl
  if (!replaced && (shown === effective.url || shown === effective.registeredUrl)) return { title: effective.name }
  if (effective.sources.name === 'override') return { title: effective.name }
  return { title: widgetName(shown, null), note: `instead of the registered app "${effective.name}"` }
}

/** Space the record page leaves on the right for the dock, in every placement (0: hidden, nothing to make room for). */
export function dockReserve(s: Pick<CallingState, 'iframeLocation' | 'visibility' | 'size' | 'mounted'>): number {
  if (s.visibility.isHidden) return 0
  return s.size.width + 2 + 16 + 16
}

export function CallingDock() {
  const attach = useCallback((element: HTMLDivElement | null) => callingRuntime.attach(element), [])
  // This page's frame: in the window placement a record page holds the remote, beside the calling window.
  const location = useCalling((s) => frameOf(s.iframeLocation, s.inCallingWindow))
  const besideWindow = useCalling((s) => s.iframeLocation === 'window' && !s.inCallingWindow)
  const visibility = useCalling((s) => s.visibility)
  const effective = useCalling((s) => s.effective)
  const settingsLoad = useCalling((s) => s.settingsLoad)
  const state = useWidgetState()
  const widget = describeWidget(state)
  const late = useCalling((s) => s.lateHandshake)
  const lateText = late && (state.phase === 'handshake' || state.phase === 'failed') ? lateHandshakeText(late) : null
  const currentSrc = useCalling((s) => s.currentSrc)
  const size = useCalling((s) => s.size)
  const incoming = useCalling((s) => s.incoming)
  const call = useCalling((s) => s.call)
  const version = useCalling((s) => s.widgetVersion)
  const [setupOpen, setSetupOpen] = useState(false)
  const titleId = useId()
  const { title: name, note: titleNote } = dockTitle(effective, currentSrc)
  const hidden = visibility.isHidden
  const minimized = visibility.isMinimized

  return (
    <>
      <section
        className={`calling-dock calling-dock--${location}${besideWindow ? ' calling-dock--beside-window' : ''}${minimized ? ' calling-dock--minimized' : ''}`}
        aria-labelledby={titleId}
        hidden={hidden}
        style={{ ['--widget-width' as string]: `${size.width}px` }}
        onFocus={() => callingRuntime.recheckOverride()}
        onPointerEnter={() => callingRuntime.recheckOverride()}
      >
        <header className="calling-dock__header">
          <div className="calling-dock__title-row">
            <h2 id={titleId} className="calling-dock__title" title={titleNote}>
              {location === 'window' ? `Call window — ${name}` : besideWindow ? `Remote — ${name}` : name}
            </h2>
            {effective && !effective.isReady ? (
              <span className="calling-pill calling-pill--testing" title="isReady is false: the app is in testing and only visible to developers">
                testing
              </span>
            ) : null}
            <span className={`calling-pill calling-pill--${widget.tone}`} role="status">
              {widget.pill}
            </span>
          </div>
          <div className="calling-dock__meta">
            <span className="calling-dock__url" title={currentSrc ?? ''}>
              {currentSrc ?? (settingsLoad === 'loading' ? 'Loading calling settings…' : 'No widget URL')}
            </span>
            {version ? <span className="calling-dock__ready">SDK {version}</span> : null}
          </div>
          {titleNote ? <p className="calling-dock__note">Loaded {titleNote}.</p> : null}
          <div className="calling-dock__actions">
            <button type="button" aria-label={minimized ? 'Restore widget' : 'Minimize widget'} onClick={() => (minimized ? callingRuntime.show() : callingRuntime.minimize())}>
              {minimized ? 'Restore' : 'Minimize'}
            </button>
            <button type="button" aria-label="Hide widget" onClick={() => callingRuntime.hide()}>
              Hide
            </button>
            <button type="button" aria-label="Reload widget" onClick={() => callingRuntime.reloadWidget()} disabled={!currentSrc}>
              Reload
            </button>
            <button type="button" aria-label="Widget setup" aria-expanded={setupOpen} onClick={() => setSetupOpen((open) => !open)}>
              Setup
            </button>
          </div>
        </header>
        <PendingWidgetNotice />
        {setupOpen || (settingsLoad !== 'loading' && !effective) ? <WidgetSetup /> : null}
        {incoming ? (
          <div className="calling-dock__incoming" role="status">
            <strong>Incoming call</strong> from {incoming.match?.label ?? incoming.fromNumber}
            {incoming.match ? ` (${incoming.fromNumber})` : ''}
            {incoming.status === 'matching' ? ' — matching caller ID…' : null}
            {incoming.status === 'unmatched' ? ' — no matching contact' : null}
            {incoming.match ? (
              <>
                {' '}
                <a href={recordHref(incoming.match.objectType, incoming.match.objectId) ?? undefined}>Open record</a>
              </>
            ) : null}
          </div>
        ) : null}
        {call && !incoming ? (
          <div className="calling-dock__call" aria-label="Current call">
            {call.direction === 'inbound' ? 'Inbound' : 'Outbound'} call {call.record?.label ? `with ${call.record.label}` : call.number}
            {' · widget says '}
            {call.status}
            <CallLogLine call={call} className="calling-dock__call-log" />
            {call.engagementId === undefined && !call.engagement ? (
              <p className="calling-dock__call-log">No call log: the widget did not ask the CRM to create an engagement.</p>
            ) : null}
          </div>
        ) : null}
        {lateText ? (
          <p className="calling-dock__late" role="note" aria-label="Why the widget does not answer">
            {lateText.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}
          </p>
        ) : null}
        <div className="calling-dock__stage" hidden={minimized}>
          {/* CallingHost owns this element's children (the iframe): React renders nothing into it. */}
          <div className="calling-dock__frame" ref={attach} />
          {widget.cover !== null ? (
            <div className="calling-dock__cover">
              <span className="calling-dock__spinner" aria-hidden="true" />
              {widget.cover}
            </div>
          ) : null}
        </div>
      </section>
      {hidden ? (
        <button type="button" className="calling-dock__show" onClick={() => callingRuntime.show()}>
          Show widget
        </button>
      ) : null}
      <CallingAlerts />
    </>
  )
}

function WidgetSetup() {
  const effective = useCalling((s) => s.effective)
  const errors = useCalling((s) => s.settingsErrors)
  const location = useCalling((s) => s.iframeLocation)
  const [url, setUrl] = useState(effective?.url ?? '')
  const [error, setError] = useState<string | null>(null)
  const urlId = useId()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const result = callingRuntime.setOverrideUrl(url)
    setError(result.ok ? null : result.error)
  }

  return (
    <div className="calling-setup">
      {errors.length > 0 ? (
        <ul className="calling-setup__errors" aria-label="Calling settings problems">
          {errors.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      ) : null}
      <form onSubmit={submit} className="calling-setup__row" noValidate>
        <label htmlFor={urlId}>Widget URL</label>
        <input
          id={urlId}
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://your-widget.example/"
          aria-invalid={error !== null}
          aria-describedby={error ? `${urlId}-error` : undefined}
        />
        <button type="submit">Use this URL</button>
        <button
          type="button"
          onClick={() => {
            callingRuntime.setOverrideUrl(null)
            setError(null)
          }}
        >
          Clear override
        </button>
        {error ? (
          <p id={`${urlId}-error`} className="calling-setup__error">
            {error}
          </p>
        ) : null}
      </form>
      <p className="calling-setup__note">
        Applies at once. Set the <code>LocalSettings:Calling:CallingExtensions</code> key by hand instead? Other tabs switch at
        once; this tab switches when it or the dock next gets focus (a <code>storage</code> event reaches other tabs only).
      </p>
      <p className="calling-setup__note">
        <code>?widget=&lt;url&gt;</code> in the address loads a widget for this visit. Any web site can link here with it, so a
        widget that is not on this machine (localhost, *.localhost, 127.x.x.x, [::1]) waits until you press <em>Load this
        widget</em>.
      </p>
      {effective ? (
        <p className="calling-setup__source">
          URL from the {SOURCE_LABEL[effective.sources.url]}; name from the {SOURCE_LABEL[effective.sources.name]}; isReady from the{' '}
          {SOURCE_LABEL[effective.sources.isReady]}.
        </p>
      ) : null}
      <div className="calling-setup__row">
        <PlacementSelect value={location} onChange={(placement) => callingRuntime.setIframeLocation(placement)} />
      </div>
    </div>
  )
}

/** Alerts from the widget's ERROR messages and from the host: accessible toasts, never window.alert. */
export function CallingAlerts() {
  const alerts = useCalling((s) => s.alerts)
  const dropped = useCalling((s) => s.alertsDropped)
  if (alerts.length === 0) return null
  return (
    <div className="calling-alerts">
      {(alerts.length > 1 || dropped > 0) && (
        <div className="calling-alerts__summary">
          {dropped > 0 && <span>{dropped} earlier {dropped === 1 ? 'alert' : 'alerts'} not shown (see the inspector)</span>}
          <button type="button" onClick={() => callingRuntime.store.getState().dismissAllAlerts()}>
            Dismiss all
          </button>
        </div>
      )}
      {alerts.map((alert) => (
        <div key={alert.id} role="alert" className={`calling-alert calling-alert--${alert.source}`}>
          <span className="calling-alert__source">{alert.source === 'widget' ? 'Calling widget' : 'Harness'}:</span>{' '}
          <span className="calling-alert__text">{alert.message}</span>
          <button type="button" aria-label="Dismiss alert" onClick={() => callingRuntime.store.getState().dismissAlert(alert.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
