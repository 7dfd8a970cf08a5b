import { DTMF_KEYS } from '../call-record.ts'

const LETTERS: Record<string, string> = {
  '2': 'ABC',
  '3': 'DEF',
  '4': 'GHI',
  '5': 'JKL',
  '6': 'MNO',
  '7': 'PQRS',
  '8': 'TUV',
  '9': 'WXYZ',
  '0': '+',
}

/** The 12-key pad; each button's accessible name is its digit. */
export function Keypad({ label, onPress, disabled = false }: { label: string; onPress: (key: string) => void; disabled?: boolean }) {
  return (
    <div className="keypad" role="group" aria-label={label}>
      {DTMF_KEYS.map((key) => (
        <button key={key} type="button" className="key" aria-label={key} disabled={disabled} onClick={() => onPress(key)}>
          <span className="key-digit" aria-hidden="true">
            {key}
          </span>
          <span className="key-letters" aria-hidden="true">
            {LETTERS[key] ?? ''}
          </span>
        </button>
      ))}
    </div>
  )
}
