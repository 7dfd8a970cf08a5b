import { useCallback, useState } from 'react'

/**
 * State for a panel's buttons that call the API: `run(action)` marks the
 * panel busy, clears the last outcome, then shows the action's success
 * message or keeps the error (the API's error body, shown by ApiErrorView).
 */
export function useAction() {
  const [error, setError] = useState<unknown>(undefined)
  const [message, setMessage] = useState('')
  const [busy, setBusy] = useState(false)
  const run = useCallback(async (action: () => Promise<string>) => {
    setBusy(true)
    setError(undefined)
    setMessage('')
    try {
      setMessage(await action())
    } catch (e) {
      setError(e)
    } finally {
      setBusy(false)
    }
  }, [])
  return { error, message, busy, run }
}
