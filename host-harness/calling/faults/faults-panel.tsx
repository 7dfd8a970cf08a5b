/**
 * Fault injection. Engagement faults are applied by the controller (it
 * replies *_FAILED without calling the API); wire faults (delay, drop,
 * duplicate, withhold SYNC) by FaultInjector (core/fault-outbox.ts), wrapped around CallingHost's outbox.
 */
import { useId, useMemo, useState, type FormEvent } from 'react'
import { useCalling } from '../core/calling-store.ts'
import type { FaultMode } from '../core/calling-types.ts'
import { hostSendableTypes } from './presets.ts'
import { callingRuntime } from '../core/runtime.ts'
import { SYNC_TIMEOUT_BOUNDS } from '../core/widget-host.ts'
import '../core/panel-controls.css'
import './faults.css'

const MODES: ReadonlyArray<{ value: FaultMode; label: string }> = [
  { value: 'off', label: 'Off' },
  { value: 'next', label: 'Fail the next one' },
  { value: 'always', label: 'Fail every one' },
]

function EngagementFault({ kind, legend }: { kind: 'create' | 'update'; legend: string }) {
  const mode = useCalling((s) => s.engagementFaults[kind])
  const name = useId()
  return (
    <fieldset className="faults__group">
      <legend>{legend}</legend>
      {MODES.map((m) => (
        <label key={m.value} className="faults__choice">
          <input type="radio" name={name} value={m.value} checked={mode === m.value} onChange={() => callingRuntime.setEngagementFault(kind, m.value)} />
          {m.label}
        </label>
      ))}
    </fieldset>
  )
}

function TypeList({ kind, legend }: { kind: 'drop' | 'duplicate'; legend: string }) {
  const active = useCalling((s) => s.hostFaults[kind]) ?? []
  const types = useMemo(() => hostSendableTypes(), [])
  const [choice, setChoice] = useState(kind === 'duplicate' ? 'DIAL_NUMBER' : 'CREATE_ENGAGEMENT_SUCCEEDED')
  const selectId = useId()
  const add = (event: FormEvent) => {
    event.preventDefault()
    if (!active.includes(choice)) callingRuntime.setHostFaults({ [kind]: [...active, choice] })
  }
  return (
    <fieldset className="faults__group">
      <legend>{legend}</legend>
      <form onSubmit={add} className="faults__row">
        <label htmlFor={selectId}>Message type</label>
        <select id={selectId} value={choice} onChange={(e) => setChoice(e.target.value)}>
          {types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <button type="submit">{kind === 'drop' ? 'Drop this type' : 'Duplicate this type'}</button>
      </form>
      {active.length > 0 ? (
        <ul className="faults__active" aria-label={kind === 'drop' ? 'Dropped types' : 'Duplicated types'}>
          {active.map((t) => (
            <li key={t}>
              {t}{' '}
              <button type="button" aria-label={`Stop ${kind === 'drop' ? 'dropping' : 'duplicating'} ${t}`} onClick={() => callingRuntime.setHostFaults({ [kind]: active.filter((x) => x !== t) })}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="faults__none">None.</p>
      )}
    </fieldset>
  )
}

export function FaultsPanel() {
  const faults = useCalling((s) => s.hostFaults)
  const syncTimeoutMs = useCalling((s) => s.syncTimeoutMs)
  const status = useCalling((s) => s.status)
  const [delay, setDelay] = useState(String(faults.delayMs ?? 0))
  const [delayError, setDelayError] = useState<string | null>(null)
  const [timeout, setTimeoutText] = useState(String(syncTimeoutMs))
  const delayId = useId()
  const timeoutId = useId()

  const applyDelay = (event: FormEvent) => {
    event.preventDefault()
    const n = Number(delay)
    if (!Number.isFinite(n) || n < 0 || n > 60_000) {
      setDelayError('Enter a delay between 0 and 60000 ms.')
      return
    }
    setDelayError(null)
    callingRuntime.setHostFaults({ delayMs: Math.round(n) })
  }

  const applyTimeout = (event: FormEvent) => {
    event.preventDefault()
    const n = Number(timeout)
    if (!Number.isFinite(n)) return
    callingRuntime.setSyncTimeout(n)
    setTimeoutText(String(callingRuntime.store.getState().syncTimeoutMs))
  }

  return (
    <section className="faults" aria-label="Faults">
      <p className="faults__note">
        Engagement faults make the host reply CREATE_/UPDATE_ENGAGEMENT_FAILED without calling the API (nothing is written to the CRM).
      </p>
      <EngagementFault kind="create" legend="Engagement creation" />
      <EngagementFault kind="update" legend="Engagement update (CALL_COMPLETED)" />

      <form onSubmit={applyDelay} className="faults__row" noValidate>
        <label htmlFor={delayId}>Delay host messages (ms)</label>
        <input
          id={delayId}
          type="number"
          min={0}
          max={60000}
          step={50}
          value={delay}
          onChange={(e) => setDelay(e.target.value)}
          aria-invalid={delayError !== null}
          aria-describedby={delayError ? `${delayId}-error` : undefined}
        />
        <button type="submit">Apply delay</button>
        <span className="faults__current">Current: {faults.delayMs ?? 0} ms</span>
        {delayError ? (
          <span id={`${delayId}-error`} className="faults__error">
            {delayError}
          </span>
        ) : null}
      </form>

      <TypeList kind="drop" legend="Drop host messages" />
      <TypeList kind="duplicate" legend="Duplicate host messages" />

      <fieldset className="faults__group">
        <legend>Handshake</legend>
        <label className="faults__choice">
          <input type="checkbox" checked={faults.withholdSync === true} onChange={(e) => callingRuntime.setHostFaults({ withholdSync: e.target.checked })} />
          Withhold SYNC (the widget never becomes ready; applies from the next widget load)
        </label>
        <form onSubmit={applyTimeout} className="faults__row" noValidate>
          <label htmlFor={timeoutId}>Sync timeout (ms)</label>
          <input
            id={timeoutId}
            type="number"
            min={SYNC_TIMEOUT_BOUNDS.min}
            max={SYNC_TIMEOUT_BOUNDS.max}
            step={100}
            value={timeout}
            onChange={(e) => setTimeoutText(e.target.value)}
          />
          <button type="submit">Apply and reload widget</button>
        </form>
      </fieldset>

      <div className="faults__row">
        <button type="button" onClick={() => callingRuntime.reloadWidget()} disabled={status === 'idle' && !callingRuntime.store.getState().mounted}>
          Reload widget now (mid-call)
        </button>
      </div>
    </section>
  )
}
