/**
 * The page's calling area, by placement: the widget's dock, or, on a record
 * page whose widget runs in the calling window, the calling window's card.
 */
import { CallingDock } from '../calling/calling-dock.tsx'
import { useCalling } from '../calling/calling-store.ts'
import { topology } from './topology.ts'
import { WindowCallCard } from './window-call-card.tsx'
import './topology.css'

export function PlacedDock() {
  const location = useCalling((s) => s.iframeLocation)
  if (location === 'window' && !topology.inCallingWindow) return <WindowCallCard />
  return <CallingDock />
}
