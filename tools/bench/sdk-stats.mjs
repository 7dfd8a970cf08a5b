// The statistics of the SDK section (tools/bench/sdk-section.mjs): batch medians that resolve the
// 5 µs clock, quartiles, a distribution-free confidence interval of a median, and the rotation
// that interleaves the variants round by round.
import { percentile } from './table.mjs'

/** Round trips per batch for batchP50Us: the mean of BATCH consecutive round trips steps by 5/BATCH µs, not 5 µs. */
export const BATCH = 20

/**
 * The median of the means of BATCH consecutive round trips (ms). The 5 µs clock makes every
 * p50 a multiple of 5 µs, so a difference of 1 µs can read as 0 or 5; this figure resolves it.
 */
export function batchMedian(samples) {
  const means = []
  for (let i = 0; i + BATCH <= samples.length; i += BATCH) {
    let sum = 0
    for (let j = i; j < i + BATCH; j++) sum += samples[j]
    means.push(sum / BATCH)
  }
  return percentile(means.sort((a, b) => a - b), 50)
}

/** Nearest-rank quartiles of numbers, rounded to `digits`. */
export function quartiles(values, digits) {
  const list = [...values].sort((x, y) => x - y)
  const round = (x) => Math.round(x * 10 ** digits) / 10 ** digits
  return { p25: round(percentile(list, 25)), p50: round(percentile(list, 50)), p75: round(percentile(list, 75)) }
}

/**
 * A distribution-free 95% confidence interval of the median of `values` (at least 6): the order
 * statistics k and n − 1 − k with k = ⌊(n − 1.96 √n) / 2⌋, the sign test's normal approximation.
 */
export function medianCi95(values) {
  const list = [...values].sort((a, b) => a - b)
  const n = list.length
  if (n < 6) return [NaN, NaN]
  const k = Math.max(0, Math.floor((n - 1.96 * Math.sqrt(n)) / 2))
  return [list[k], list[n - 1 - k]]
}

/** `list` turned by `k` places: the order of one interleaved round (each item leads every `list.length` rounds). */
export function rotated(list, k) {
  const n = k % list.length
  return [...list.slice(n), ...list.slice(0, n)]
}
