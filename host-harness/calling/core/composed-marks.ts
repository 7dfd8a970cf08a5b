/**
 * The composer's messages as the runtime sends them: the messageId each goes out with (its own, or a new
 * `composer_…` one), and whether it was sent valid or invalid on purpose, which the inspector's entry shows.
 */
import type { TrafficEntry } from './traffic-recorder.ts'

let composedSeq = 0

export type ComposedMark = 'valid' | 'invalid'

export class ComposedMarks {
  readonly #marks = new Map<string, ComposedMark>()

  /** The messageId to send a composed message with (`given` when it is a non-empty string), noted with its mark. */
  note(given: unknown, valid: boolean): string {
    composedSeq += 1
    const messageId = typeof given === 'string' && given !== '' ? given : `composer_${composedSeq}_${Math.random().toString(36).slice(2, 8)}`
    this.#marks.set(messageId, valid ? 'valid' : 'invalid')
    return messageId
  }

  /** The mark of a host → widget entry the composer sent, else undefined. */
  markOf(entry: TrafficEntry): ComposedMark | undefined {
    const id = typeof entry.message === 'object' && entry.message !== null ? (entry.message as { messageId?: unknown }).messageId : undefined
    return entry.direction === 'out' && typeof id === 'string' ? this.#marks.get(id) : undefined
  }
}
