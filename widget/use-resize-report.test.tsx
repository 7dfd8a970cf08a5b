import { act, render } from '@testing-library/react'
import { useRef } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useResizeReport } from './use-resize-report.ts'

/** A ResizeObserver the test triggers by hand; jsdom has none. */
class ManualObserver {
  static last: ManualObserver | undefined
  constructor(readonly callback: () => void) { ManualObserver.last = this }
  observe(): void {}
  disconnect(): void {}
}

function Probe({ report }: { report: (size: { width: number; height: number }) => void }) {
  const ref = useRef<HTMLDivElement>(null)
  useResizeReport(ref, report, 10)
  return <div ref={ref} data-testid="root" />
}

describe('useResizeReport', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.stubGlobal('ResizeObserver', ManualObserver)
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  function sized(el: HTMLElement, width: number, height: number): void {
    el.getBoundingClientRect = () => ({ width, height, x: 0, y: 0, top: 0, left: 0, right: width, bottom: height, toJSON: () => ({}) })
  }

  it('reports the rendered size in whole pixels, debounced', () => {
    const report = vi.fn()
    const { getByTestId } = render(<Probe report={report} />)
    sized(getByTestId('root'), 320.2, 480.7)
    act(() => { ManualObserver.last!.callback(); ManualObserver.last!.callback(); vi.advanceTimersByTime(20) })
    expect(report).toHaveBeenCalledTimes(1)
    expect(report).toHaveBeenCalledWith({ width: 321, height: 481 })
  })

  it('does not report the 0 × 0 of a hidden iframe, so showing the widget again keeps its size', () => {
    const report = vi.fn()
    const { getByTestId } = render(<Probe report={report} />)
    sized(getByTestId('root'), 0, 0)
    act(() => { ManualObserver.last!.callback(); vi.advanceTimersByTime(20) })
    sized(getByTestId('root'), 0, 480)
    act(() => { ManualObserver.last!.callback(); vi.advanceTimersByTime(20) })
    expect(report).not.toHaveBeenCalled()
  })
})
