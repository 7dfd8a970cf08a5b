/**
 * The developer app as the CRM shows it: its name (from the emulator, read
 * only) and its icon (uploaded here; the emulated API has no app-settings
 * endpoint, so the icon is kept in the harness store, persisted to
 * localStorage). The icon shows beside the app's timeline events.
 */
import { CALLING_APP_ID } from '../../shared/crm/account.ts'
import { useId, useState, type ChangeEvent } from 'react'
import { checkIconFile, ICON_ASPECT_RANGE, ICON_MIN_SIDE } from '../lib/security/icon-validation.ts'
import { useHarnessStore } from '../lib/harness-store.ts'
import { AppBadge } from '../lib/app-badge.tsx'

export function AppPanel({ measure }: { measure?: (blob: Blob) => Promise<{ width: number; height: number }> }) {
  const appName = useHarnessStore((s) => s.appName)
  const icon = useHarnessStore((s) => s.appIcon)
  const setIcon = useHarnessStore((s) => s.setAppIcon)
  const [problem, setProblem] = useState('')
  const [checking, setChecking] = useState(false)
  const inputId = useId()

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    setChecking(true)
    setProblem('')
    try {
      const result = await checkIconFile(file, measure)
      if (result.ok) setIcon(result.icon)
      else setProblem(result.reason)
    } finally {
      setChecking(false)
    }
  }

  return (
    <section className="panel" aria-labelledby="app-heading">
      <h1 id="app-heading">App</h1>
      <section className="card" aria-labelledby="app-name-heading">
        <h2 id="app-name-heading">Name</h2>
        <p>
          <strong>{appName}</strong> <span className="muted">(appId {CALLING_APP_ID}; set by the emulator)</span>
        </p>
      </section>
      <section className="card" aria-labelledby="app-icon-heading">
        <h2 id="app-icon-heading">Icon</h2>
        <p className="muted">
          PNG or JPEG, at most 5 MB, roughly square (aspect ratio {ICON_ASPECT_RANGE.min}–{ICON_ASPECT_RANGE.max}), at least {ICON_MIN_SIDE} ×{' '}
          {ICON_MIN_SIDE} pixels. SVG is not accepted. Stored in this browser (localStorage): the API has no app-settings endpoint.
        </p>
        {icon ? (
          <p className="icon-current">
            {/* eslint-disable-next-line ringside/url-sink -- a PNG/JPEG data: URL the harness made from an upload, re-checked on load (harness-store.ts appIcon schema); an <img> runs no script */}
            <img src={icon.dataUrl} alt="Current app icon" width={64} height={64} />
            <span className="muted">
              {icon.fileName}, {icon.width} × {icon.height}, {Math.ceil(icon.bytes / 1024)} KB
            </span>
          </p>
        ) : (
          <p className="muted">No icon set.</p>
        )}
        <label htmlFor={inputId}>Upload an icon</label>{' '}
        <input id={inputId} type="file" accept="image/png,image/jpeg" onChange={(e) => void onFile(e)} disabled={checking} />
        {icon && (
          <button type="button" onClick={() => setIcon(null)}>
            Remove the icon
          </button>
        )}
        {problem && (
          <p role="alert" className="error-text">
            {problem}
          </p>
        )}
      </section>
      <section className="card" aria-labelledby="app-preview-heading">
        <h2 id="app-preview-heading">On the timeline</h2>
        <AppBadge appId={CALLING_APP_ID} />
      </section>
    </section>
  )
}
