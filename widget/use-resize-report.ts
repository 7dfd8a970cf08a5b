import { useEffect, type RefObject } from 'react'

/**
 * Watches the element's rendered size with a ResizeObserver and reports it,
 * debounced, as whole pixels. The machine decides whether it changed and
 * whether the host may be told.
 *
 * A size with no area is not reported: when the host hides the widget's
 * iframe (`display: none`), the frame's document lays out at 0 × 0, and
 * telling the host that would shrink the widget to the host's minimum when it
 * is shown again. The observer fires again with the real size once shown.
 */
export function useResizeReport(
  ref: RefObject<HTMLElement | null>,
  report: (size: { width: number; height: number }) => void,
  debounceMs = 150,
): void {
  useEffect(() => {
    const element = ref.current
    if (!element || typeof ResizeObserver === 'undefined') return
    let timer: ReturnType<typeof setTimeout> | undefined
    const observer = new ResizeObserver(() => {
      clearTimeout(timer)
      timer = setTimeout(() => {
        const rect = element.getBoundingClientRect()
        if (rect.width < 1 || rect.height < 1) return
        report({ width: Math.ceil(rect.width), height: Math.ceil(rect.height) })
      }, debounceMs)
    })
    observer.observe(element)
    return () => {
      clearTimeout(timer)
      observer.disconnect()
    }
  }, [ref, report, debounceMs])
}
