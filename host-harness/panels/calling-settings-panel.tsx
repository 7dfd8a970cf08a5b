/**
 * Calling settings of app 1001 through the API, with the developer API key:
 * view (GET), create (POST), update (PATCH, only the fields that changed) and
 * delete (DELETE). The API's validation errors are shown verbatim.
 */
import { useEffect, useState, type FormEvent } from 'react'
import { api, ApiRequestError, CALLING_SETTINGS_PATH } from '../lib/api-client.ts'
import { useApiData } from '../lib/use-api-data.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'
import { ACCOUNT } from '../../shared/crm/account.ts'
import { CallingExtensionsCard } from './calling-extensions-card.tsx'


export interface CallingSettings {
  name: string
  url: string
  width: number
  height: number
  isReady: boolean
  supportsCustomObjects: boolean
  usesRemote?: boolean
  usesCallingWindow?: boolean
  supportsInboundCalling?: boolean
  createdAt?: string
  updatedAt?: string
}

interface FormState {
  name: string
  url: string
  width: string
  height: string
  isReady: boolean
  supportsCustomObjects: boolean
}

const EMPTY_FORM: FormState = { name: '', url: '', width: '', height: '', isReady: false, supportsCustomObjects: false }

function toForm(s: CallingSettings): FormState {
  return {
    name: s.name,
    url: s.url,
    width: String(s.width),
    height: String(s.height),
    isReady: s.isReady,
    supportsCustomObjects: s.supportsCustomObjects,
  }
}

/** The request body: numbers where the input is numeric, the text otherwise (so the API judges it). */
function toBody(form: FormState): Record<string, unknown> {
  const num = (value: string) => (value.trim() === '' ? undefined : /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value)
  const body: Record<string, unknown> = {
    name: form.name,
    url: form.url,
    isReady: form.isReady,
    supportsCustomObjects: form.supportsCustomObjects,
  }
  const width = num(form.width)
  const height = num(form.height)
  if (width !== undefined) body.width = width
  if (height !== undefined) body.height = height
  return body
}

async function loadSettings(): Promise<CallingSettings | null> {
  try {
    return await api.get<CallingSettings>(CALLING_SETTINGS_PATH, { developerKey: true })
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return null
    throw error
  }
}

export function CallingSettingsPanel() {
  const { state } = useApiData(loadSettings, [])
  const current = state.data
  const [form, setForm] = useState<FormState>(EMPTY_FORM)
  const [error, setError] = useState<unknown>(undefined)
  const [message, setMessage] = useState('')
  const [busy, setBusy] = useState(false)

  // Load the stored settings into the form when they (first) arrive or change.
  useEffect(() => {
    if (current) setForm(toForm(current))
  }, [current])

  const send = async (label: string, request: () => Promise<unknown>) => {
    setBusy(true)
    setError(undefined)
    setMessage('')
    try {
      await request()
      setMessage(`${label} succeeded.`)
    } catch (e) {
      setError(e)
    } finally {
      setBusy(false)
    }
  }

  const onCreate = (event: FormEvent) => {
    event.preventDefault()
    void send('POST', () => api.post(CALLING_SETTINGS_PATH, toBody(form), { developerKey: true }))
  }

  const onPatch = () => {
    const body = toBody(form)
    const changed: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(body)) {
      if (!current || (current as unknown as Record<string, unknown>)[key] !== value) changed[key] = value
    }
    void send('PATCH', () => api.patch(CALLING_SETTINGS_PATH, changed, { developerKey: true }))
  }

  const onDelete = () => void send('DELETE', () => api.delete(CALLING_SETTINGS_PATH, { developerKey: true }))

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }))

  return (
    <section className="panel" aria-labelledby="calling-settings-heading">
      <h1 id="calling-settings-heading">Calling settings</h1>
      <p className="muted">
        <code>{CALLING_SETTINGS_PATH}</code> with the developer API key. The harness loads its calling widget from these settings.
      </p>
      {state.status === 'error' && <ApiErrorView error={state.error} title="Could not read the settings" />}
      <section className="card" aria-labelledby="stored-settings-heading">
        <h2 id="stored-settings-heading">Stored settings</h2>
        {state.status === 'loading' && current === undefined && <p className="muted">Loading…</p>}
        {current === null && <p>No calling settings are defined for app {ACCOUNT.appId} (GET returns 404).</p>}
        {current && <pre className="json-view" aria-label="Stored settings JSON">{JSON.stringify(current, null, 2)}</pre>}
      </section>
      <form className="card form-grid" onSubmit={onCreate} aria-labelledby="edit-settings-heading">
        <h2 id="edit-settings-heading">Edit</h2>
        <label>
          Name
          <input value={form.name} onChange={(e) => set('name', e.target.value)} />
        </label>
        <label>
          Widget URL
          <input value={form.url} onChange={(e) => set('url', e.target.value)} placeholder="https://…" />
        </label>
        <label>
          Width
          <input inputMode="numeric" value={form.width} onChange={(e) => set('width', e.target.value)} />
        </label>
        <label>
          Height
          <input inputMode="numeric" value={form.height} onChange={(e) => set('height', e.target.value)} />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={form.isReady} onChange={(e) => set('isReady', e.target.checked)} />
          isReady (production)
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={form.supportsCustomObjects} onChange={(e) => set('supportsCustomObjects', e.target.checked)} />
          supportsCustomObjects
        </label>
        <div className="button-row">
          <button type="submit" disabled={busy}>
            Create (POST)
          </button>
          <button type="button" disabled={busy} onClick={onPatch}>
            Update (PATCH)
          </button>
          <button type="button" className="danger" disabled={busy} onClick={onDelete}>
            Delete
          </button>
        </div>
      </form>
      {message && (
        <p role="status" className="success">
          {message}
        </p>
      )}
      <ApiErrorView error={error} />
      <CallingExtensionsCard />
    </section>
  )
}
