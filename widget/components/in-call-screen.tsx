import { useState, type FormEvent } from 'react'
import { CallActor } from '../call-context.ts'
import { EngagementLine } from './engagement-line.tsx'
import { Keypad } from './keypad.tsx'
import { PartyLine } from './party-line.tsx'

/** Answered: mute, hold, keypad (DTMF), transfer, hang up. */
export function InCallScreen() {
  const call = CallActor.useSelector((s) => s.context.call)
  const { send } = CallActor.useActorRef()
  const [panel, setPanel] = useState<'none' | 'keypad' | 'transfer'>('none')
  const [transferTo, setTransferTo] = useState('')
  if (!call) return null
  const toggle = (which: 'keypad' | 'transfer') => setPanel((p) => (p === which ? 'none' : which))
  const transfer = (e: FormEvent) => {
    e.preventDefault()
    send({ type: 'call.transfer', to: transferTo })
  }
  return (
    <section className="screen" aria-label="Call in progress">
      <PartyLine call={call} />
      <EngagementLine call={call} />
      <div className="controls">
        <button type="button" aria-pressed={call.muted} onClick={() => send({ type: 'call.toggleMute' })}>
          Mute
        </button>
        <button type="button" aria-pressed={call.held} onClick={() => send({ type: 'call.toggleHold' })}>
          Hold
        </button>
        <button type="button" aria-expanded={panel === 'keypad'} aria-controls="in-call-keypad" onClick={() => toggle('keypad')}>
          Keypad
        </button>
        <button type="button" aria-expanded={panel === 'transfer'} aria-controls="in-call-transfer" onClick={() => toggle('transfer')}>
          Transfer
        </button>
      </div>
      {panel === 'keypad' && (
        <div id="in-call-keypad">
          <p className="digits" aria-label="Digits sent">
            {call.digits || '\u00a0'}
          </p>
          <Keypad label="Call keypad" onPress={(digit) => send({ type: 'call.dtmf', digit })} />
        </div>
      )}
      {panel === 'transfer' && (
        <form id="in-call-transfer" className="dial-form" onSubmit={transfer}>
          <label htmlFor="transfer-to">Transfer to</label>
          <input id="transfer-to" type="tel" value={transferTo} onChange={(e) => setTransferTo(e.target.value)} />
          <button type="submit" disabled={transferTo.trim() === ''}>
            Transfer call
          </button>
        </form>
      )}
      <button type="button" className="danger" onClick={() => send({ type: 'call.hangUp' })}>
        Hang up
      </button>
    </section>
  )
}
