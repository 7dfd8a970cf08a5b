import { useEffect, type RefObject } from 'react'

/**
 * Watches the element's rendered size with a ResizeObserver and reports it,
 * debounced, as whole pixels. The machine decides whether it changed and
 * whether the host may be told.
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
