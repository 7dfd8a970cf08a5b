/**
 * Load data through the API client and keep it fresh: the loader runs again
 * whenever its dependencies change and after every successful write made
 * anywhere in the harness (`onApiChange`): at once after a write, then at most
 * once per REFETCH_WINDOW_MS while writes keep coming (a widget that makes the
 * host write fifty times in a burst refetches each view twice, not fifty
 * times). Out-of-order responses are ignored, so a slow old request never
 * overwrites a newer one.
 */
import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react'
import { onApiChange } from './api-client.ts'

/** After a refetch caused by a change, further changes within this window are answered by one more refetch at its end. */
export const REFETCH_WINDOW_MS = 50

export type ApiData<T> =
  | { status: 'loading'; data?: T; error?: undefined }
  | { status: 'ok'; data: T; error?: undefined }
  | { status: 'error'; data?: T; error: unknown }

export interface UseApiData<T> {
  state: ApiData<T>
  /** Run the loader again now. */
  reload(): void
}

export function useApiData<T>(load: () => Promise<T>, deps: DependencyList, options: { refreshOnChange?: boolean } = {}): UseApiData<T> {
  const [state, setState] = useState<ApiData<T>>({ status: 'loading' })
  const generation = useRef(0)
  const loadRef = useRef(load)
  loadRef.current = load
  const refreshOnChange = options.refreshOnChange ?? true

  const run = useCallback(() => {
    const mine = ++generation.current
    setState((previous) => ({ status: 'loading', data: previous.data }))
    loadRef.current().then(
      (data) => {
        if (mine === generation.current) setState({ status: 'ok', data })
      },
      (error: unknown) => {
        if (mine === generation.current) setState((previous) => ({ status: 'error', error, data: previous.data }))
      },
    )
  }, [])

  useEffect(() => {
    // A new key: forget the previous key's data so it is never shown under the new one.
    setState({ status: 'loading' })
    run()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps)

  useEffect(() => {
    if (!refreshOnChange) return undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let changedMeanwhile = false
    const settle = () => {
      timer = undefined
      if (!changedMeanwhile) return
      changedMeanwhile = false
      run()
      timer = setTimeout(settle, REFETCH_WINDOW_MS)
    }
    const off = onApiChange(() => {
      if (timer !== undefined) {
        changedMeanwhile = true
        return
      }
      run()
      timer = setTimeout(settle, REFETCH_WINDOW_MS)
    })
    return () => {
      off()
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [run, refreshOnChange])

  useEffect(
    () => () => {
      generation.current++
    },
    [],
  )

  return { state, reload: run }
}
