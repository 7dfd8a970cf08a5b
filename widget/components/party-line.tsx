import { otherNumber, partyName, type ActiveCall } from '../call-record.ts'

/** The other party: CRM name when known, number always. */
export function PartyLine({ call }: { call: ActiveCall }) {
  const name = partyName(call)
  return (
    <div className="party">
      {name && <p className="party-name">{name}</p>}
      <p className="party-number">{otherNumber(call)}</p>
    </div>
  )
}
