/**
 * A timestamp comparable across the frames of one page: every frame has its
 * own `performance.timeOrigin`, so `timeOrigin + now()` puts the host and the
 * widget on one clock (milliseconds since the epoch, sub-millisecond precise
 * when the page is cross-origin isolated).
 */
export function sharedClock(): number {
  return performance.timeOrigin + performance.now()
}
