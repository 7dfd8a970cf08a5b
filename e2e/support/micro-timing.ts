/**
 * Mean duration of `fn` in microseconds over `calls` calls (benchmark
 * profiling only; runs in the fixture pages).
 */
export function meanMicros(calls: number, fn: () => unknown): number {
  const started = performance.now()
  for (let i = 0; i < calls; i++) fn()
  return ((performance.now() - started) * 1000) / calls
}
