/**
 * The placement choice (the SYNC message's iframeLocation), as the dock's
 * Setup and the calling window's card offer it.
 */
import { useId } from 'react'
import { PLACEMENT_CHOICES, type Placement } from './placement.ts'

export function PlacementSelect({ value, onChange }: { value: Placement; onChange(placement: Placement): void }) {
  const id = useId()
  return (
    <>
      <label htmlFor={id}>Placement (iframeLocation)</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as Placement)}>
        {PLACEMENT_CHOICES.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </select>
    </>
  )
}
