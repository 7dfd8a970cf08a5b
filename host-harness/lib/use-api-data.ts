/**
 * Load data through the API client and keep it fresh: the loader runs again
 * whenever its dependencies change and after every successful write made
 * anywhere in the harness (`onApiChange`). Out-of-order responses are
 * ignored, so a slow old request never overwrites a newer one.
 */
import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react'
import { onApiChange } from './api-client.ts'

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
    return onApiChange(() => run())
  }, [run, refreshOnChange])

  useEffect(
    () => () => {
      generation.current++
    },
    [],
  )

  return { state, reload: run }
}
