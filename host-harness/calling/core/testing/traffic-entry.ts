import type { TrafficEntry } from '../traffic-recorder.ts'

/** A valid traffic entry as the recorder makes it, its time 1000 + seq (tests only). */
export const trafficEntry = (seq: number, direction: 'in' | 'out', message: Record<string, unknown>): TrafficEntry => ({
  seq,
  time: 1_000 + seq,
  direction,
  type: typeof message.type === 'string' ? message.type : null,
  message,
  valid: true,
})
