/**
 * The event composer: send any host → widget message with an editable JSON
 * body. The message is validated (as the widget would) before sending; an
 * invalid one can still be sent on purpose and is marked in the inspector.
 */
import { useId, useMemo, useState } from 'react'
import { validateMessage } from '../../../shared/protocol/index.ts'
import { useCalling } from '../core/calling-store.ts'
import { HARNESS_ACCOUNT } from '../core/controller/controller.ts'
import { safeJson } from '../../../shared/traffic/safe-json.ts'
import { hostSendableTypes, presetsFor, UNKNOWN_TYPE_PRESETS, type Preset } from './presets.ts'
import { callingRuntime } from '../core/runtime.ts'
import '../core/panel-controls.css'
import './faults.css'

const UNKNOWN = '(unknown types)'

type Check =
  | { kind: 'json-error'; text: string }
  | { kind: 'valid'; text: string; message: Record<string, unknown> }
  | { kind: 'invalid'; text: string; message: Record<string, unknown> }

/** Parses and validates the composer text as the widget would receive it. */
export function checkComposed(text: string): Check {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { kind: 'json-error', text: `Not JSON: ${error instanceof Error ? error.message : String(error)}` }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { kind: 'json-error', text: 'The message must be a JSON object with a string "type".' }
  }
  const message = parsed as Record<string, unknown>
  if (typeof message.type !== 'string' || message.type === '') {
    return { kind: 'json-error', text: 'The message must be a JSON object with a string "type".' }
  }
  const result = validateMessage({ messageId: 'composer-preview', ...message }, 'from-host')
  if (result.ok) {
    return { kind: 'valid', text: result.deprecation ? `Valid (deprecated: ${result.deprecation})` : 'Valid', message }
  }
  return { kind: 'invalid', text: `Invalid: ${result.reason}`, message }
}

export function ComposerPanel() {
  const call = useCalling((s) => s.call)
  const status = useCalling((s) => s.status)
  const types = useMemo(() => hostSendableTypes(), [])
  const [type, setType] = useState('DIAL_NUMBER')
  const presets = useMemo<Preset[]>(
    () =>
      type === UNKNOWN
        ? [...UNKNOWN_TYPE_PRESETS]
        : presetsFor(type, {
            portalId: HARNESS_ACCOUNT.portalId,
            ownerId: HARNESS_ACCOUNT.ownerId,
            now: Date.now(),
            ...(call?.engagementId !== undefined ? { engagementId: call.engagementId } : {}),
            ...(call ? { externalCallId: call.externalCallId } : {}),
          }),
    [type, call],
  )
  const [presetIndex, setPresetIndex] = useState(0)
  const [text, setText] = useState(() => safeJson(presetsFor('DIAL_NUMBER', { portalId: HARNESS_ACCOUNT.portalId, ownerId: HARNESS_ACCOUNT.ownerId, now: Date.now() })[0]!.message))
  const [result, setResult] = useState<string | null>(null)
  const typeId = useId()
  const presetId = useId()
  const textId = useId()
  const checkId = useId()
  const check = checkComposed(text)

  const loadPreset = (list: Preset[], index: number) => {
    const preset = list[index] ?? list[0]
    if (preset) setText(safeJson(preset.message))
    setPresetIndex(index)
    setResult(null)
  }

  const send = () => {
    if (check.kind === 'json-error') return
    const outcome = callingRuntime.sendComposed(check.message, check.kind === 'valid')
    setResult(
      outcome.ok
        ? `Sent ${String(check.message.type)} (${outcome.messageId})${status === 'ready' ? '' : ', queued until the handshake completes'}.`
        : `Not sent: ${outcome.reason}`,
    )
  }

  return (
    <section className="composer" aria-label="Event composer">
      <div className="composer__row">
        <label htmlFor={typeId}>Message type</label>
        <select
          id={typeId}
          value={type}
          onChange={(e) => {
            const next = e.target.value
            setType(next)
            const list =
              next === UNKNOWN ? [...UNKNOWN_TYPE_PRESETS] : presetsFor(next, { portalId: HARNESS_ACCOUNT.portalId, ownerId: HARNESS_ACCOUNT.ownerId, now: Date.now() })
            loadPreset(list, 0)
          }}
        >
          {types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
          <option value={UNKNOWN}>{UNKNOWN}</option>
        </select>
        <label htmlFor={presetId}>Preset</label>
        <select id={presetId} value={presetIndex} onChange={(e) => loadPreset(presets, Number(e.target.value))}>
          {presets.map((p, i) => (
            <option key={p.label} value={i}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <label htmlFor={textId}>Message (JSON; the messageId is added when sent)</label>
      <textarea
        id={textId}
        className="composer__text"
        rows={10}
        spellCheck={false}
        value={text}
        aria-describedby={checkId}
        aria-invalid={check.kind !== 'valid'}
        onChange={(e) => {
          setText(e.target.value)
          setResult(null)
        }}
      />
      <p id={checkId} className={`composer__check composer__check--${check.kind}`} role="status" aria-label="Validation">
        {check.text}
      </p>
      <div className="composer__row">
        <button type="button" onClick={send} disabled={check.kind === 'json-error'}>
          {check.kind === 'invalid' ? 'Send invalid message anyway' : 'Send to widget'}
        </button>
        {result ? <span role="status">{result}</span> : null}
      </div>
    </section>
  )
}
