import { useId, useState } from 'react'
import { CallActor } from '../call-context.ts'
import { isDialable } from '../call-record.ts'
import type { LineOutcome, LineSettings } from '../phone-line.ts'

const OUTCOME_LABELS: Record<LineOutcome, string> = {
  answer: 'Answer',
  busy: 'Busy',
  noAnswer: 'No answer',
  fail: 'Line failure',
}

export interface SimulatorDefaults {
  settings: LineSettings
  incomingFrom: string
  /** URL parameters that were ignored, shown so a typo is not silent. */
  problems: string[]
}

function MsField({ label, value, onChange }: { label: string; value: number | null; onChange: (ms: number | null) => void }) {
  const id = useId()
  return (
    <div className="sim-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={0}
        max={600000}
        step={100}
        value={value ?? ''}
        onChange={(e) => {
          const n = e.target.valueAsNumber
          onChange(Number.isFinite(n) && n >= 0 ? Math.round(n) : null)
        }}
      />
    </div>
  )
}

/**
 * A developer tool, not part of a real softphone: decides what the simulated
 * line does with the next call, and places incoming calls.
 */
export function LineSimulatorPanel({ defaults }: { defaults: SimulatorDefaults }) {
  const { send } = CallActor.useActorRef()
  const answered = CallActor.useSelector((s) => s.matches({ signedIn: 'answered' }))
  const [settings, setSettings] = useState(defaults.settings)
  const [from, setFrom] = useState(defaults.incomingFrom)
  const outcomeId = useId()
  const fromId = useId()

  const configure = (change: Partial<LineSettings>) => {
    setSettings((s) => ({ ...s, ...change }))
    send({ type: 'sim.configure', settings: change })
  }
  const fromValid = isDialable(from)

  return (
    <details className="sim">
      <summary>Line simulator (developer tool)</summary>
      <p className="meta">Simulates the phone network: no audio, no real calls.</p>
      {defaults.problems.length > 0 && (
        <ul className="meta error" aria-label="Ignored URL parameters">
          {defaults.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <div className="sim-field">
        <label htmlFor={outcomeId}>Outgoing outcome</label>
        <select id={outcomeId} value={settings.outcome} onChange={(e) => configure({ outcome: e.target.value as LineOutcome })}>
          {(Object.keys(OUTCOME_LABELS) as LineOutcome[]).map((o) => (
            <option key={o} value={o}>
              {OUTCOME_LABELS[o]}
            </option>
          ))}
        </select>
      </div>
      <MsField label="Answer after (ms)" value={settings.answerAfterMs} onChange={(ms) => configure({ answerAfterMs: ms ?? 0 })} />
      <MsField label="No answer after (ms)" value={settings.noAnswerAfterMs} onChange={(ms) => configure({ noAnswerAfterMs: ms ?? 0 })} />
      <MsField
        label="Remote hangs up after (ms, empty: never)"
        value={settings.remoteHangUpAfterMs}
        onChange={(ms) => configure({ remoteHangUpAfterMs: ms })}
      />
      <div className="sim-field">
        <label htmlFor={fromId}>Incoming call from</label>
        <input id={fromId} type="tel" value={from} onChange={(e) => setFrom(e.target.value)} />
      </div>
      <div className="actions">
        <button type="button" disabled={!fromValid} onClick={() => send({ type: 'sim.incoming', from })}>
          Simulate incoming call
        </button>
        <button type="button" disabled={!answered} onClick={() => send({ type: 'sim.remoteHangUp' })}>
          Remote party hangs up
        </button>
      </div>
    </details>
  )
}
