import type { FormEvent } from 'react'
import { CallActor } from '../call-context.ts'
import type { DialNumberData } from '../sdk-port.ts'
import { Keypad } from './keypad.tsx'
import { LastCallLine } from './last-call-line.tsx'

function describeContext(d: DialNumberData): string {
  const record = d.objectType ? d.objectType.toLowerCase() : 'record'
  const id = d.objectId !== undefined && d.objectId !== 0 && d.objectId !== '0' ? ` #${d.objectId}` : ''
  return id || d.objectType ? `From the CRM: ${record}${id}` : 'From the CRM (no record attached)'
}

/** Idle: number entry (Enter dials), keypad, Call. */
export function DialPadScreen() {
  const dialInput = CallActor.useSelector((s) => s.context.dialInput)
  const dialingContext = CallActor.useSelector((s) => s.context.dialingContext)
  const confirmDial = CallActor.useSelector((s) => s.context.confirmDial)
  const { send } = CallActor.useActorRef()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    send({ type: 'call.dial' })
  }
  return (
    <section className="screen" aria-label="Dial pad">
      <form className="dial-form" onSubmit={submit}>
        <label htmlFor="dial-number">Phone number</label>
        <div className="dial-row">
          <input
            id="dial-number"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            placeholder="+1 555 010 0000"
            value={dialInput}
            onChange={(e) => send({ type: 'dial.input', value: e.target.value })}
          />
          <button
            type="button"
            className="link"
            aria-label="Delete last digit"
            disabled={dialInput === ''}
            onClick={() => send({ type: 'dial.input', value: dialInput.slice(0, -1) })}
          >
            ⌫
          </button>
        </div>
        {dialingContext && <p className="meta">{describeContext(dialingContext)}</p>}
        <Keypad label="Dial pad keys" onPress={(key) => send({ type: 'dial.input', value: dialInput + key })} />
        <button type="submit" className="primary call" disabled={dialInput.trim() === ''}>
          Call
        </button>
      </form>
      <label className="setting">
        <input type="checkbox" checked={confirmDial} onChange={(e) => send({ type: 'settings.confirmDial', confirmDial: e.target.checked })} />
        Confirm before dialling a number from the CRM
      </label>
      <LastCallLine />
    </section>
  )
}
