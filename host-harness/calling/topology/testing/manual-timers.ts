/** Test support: timers the test fires by hand, by their delay, in the order they were set. */
export function manualTimers() {
  let next = 0
  const pending = new Map<number, { fn: () => void; ms: number }>()
  return {
    setTimer: (fn: () => void, ms: number): unknown => (pending.set((next += 1), { fn, ms }), next),
    clearTimer: (handle: unknown): void => void pending.delete(handle as number),
    /** Fires the timers of that delay pending now (not those they set); how many fired. */
    fire(ms: number): number {
      const due = [...pending].filter(([, timer]) => timer.ms === ms)
      for (const [id, timer] of due) {
        pending.delete(id)
        timer.fn()
      }
      return due.length
    },
    pendingDelays: (): number[] => [...pending.values()].map((timer) => timer.ms),
  }
}
