/**
 * The emulated database: reset to the seed, export a snapshot (JSON
 * download), import a snapshot (file picker): an export, or a server data
 * folder's `snapshot.ndjson`. The file is sent to the API as it is, which
 * reads it as it streams within the import's budget; a file that is
 * neither, damaged or over the budget is refused by the API, whose error
 * (with the line of a damaged snapshot) is shown as is. Nothing changes
 * when an import fails.
 */
import { useId, useState, type ChangeEvent } from 'react'
import { api } from '../lib/api-client.ts'
import { useHarnessStore } from '../lib/harness-store.ts'
import { ApiErrorView } from '../lib/api-error-view.tsx'
import { useAction } from '../lib/use-action.ts'
import { crmModeDescription } from '../lib/crm-mode.tsx'
import { importContentType } from '../../emulator/core/data/import-stream.ts'

export const DATABASE_PATHS = {
  reset: '/_ringside/v1/reset',
  export: '/_ringside/v1/export',
  import: '/_ringside/v1/import',
} as const

function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

export function snapshotFileName(now: Date = new Date()): string {
  return `ringside-snapshot-${now.toISOString().replace(/[:.]/g, '-')}.json`
}

/** A size for people: 14.2 MB. */
function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`
}

export function DatabasePanel({ save = download }: { save?: (fileName: string, text: string) => void }) {
  const { error, message, busy, run } = useAction()
  const [importing, setImporting] = useState<string | null>(null)
  const [confirmReset, setConfirmReset] = useState(false)
  const clearOAuth = useHarnessStore((s) => s.clearOAuthConnection)
  const fileId = useId()

  const onReset = () =>
    run(async () => {
      setConfirmReset(false)
      await api.post(DATABASE_PATHS.reset)
      clearOAuth()
      return 'The database was reset to the seed data. OAuth tokens held by the harness were forgotten (the reset revoked them).'
    })

  const onExport = () =>
    run(async () => {
      const snapshot = await api.get<unknown>(DATABASE_PATHS.export)
      const text = JSON.stringify(snapshot, null, 2)
      const name = snapshotFileName()
      save(name, text)
      return `Exported the database as ${name} (${Math.ceil(text.length / 1024)} KB).`
    })

  const onImport = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    void run(async () => {
      // The file goes to the API as it is: the server reads and checks it as it streams in, so the page holds none of it.
      setImporting(`Importing ${file.name} (${size(file.size)}): the server reads and checks every row…`)
      try {
        await api.post(DATABASE_PATHS.import, undefined, { file: { blob: file, type: importContentType(file.name) } })
      } finally {
        setImporting(null)
      }
      return `Imported ${file.name} (${size(file.size)}).`
    })
  }

  return (
    <section className="panel" aria-labelledby="database-heading">
      <h1 id="database-heading">Database</h1>
      <p className="muted" data-testid="crm-mode">
        {crmModeDescription()} Snapshots are JSON files; a server's data folder's <code>snapshot.ndjson</code> imports too.
      </p>
      <section className="card" aria-labelledby="db-reset-heading">
        <h2 id="db-reset-heading">Reset</h2>
        <p>Replace all data with the seed: the demo contacts, companies, deals and tickets, and the default calling settings.</p>
        {confirmReset ? (
          <div className="button-row">
            <button type="button" className="danger" disabled={busy} onClick={() => void onReset()}>
              Yes, reset the database
            </button>
            <button type="button" onClick={() => setConfirmReset(false)}>
              Cancel
            </button>
          </div>
        ) : (
          <button type="button" disabled={busy} onClick={() => setConfirmReset(true)}>
            Reset the database…
          </button>
        )}
      </section>
      <section className="card" aria-labelledby="db-export-heading">
        <h2 id="db-export-heading">Export</h2>
        <button type="button" disabled={busy} onClick={() => void onExport()}>
          Export a snapshot
        </button>
      </section>
      <section className="card" aria-labelledby="db-import-heading">
        <h2 id="db-import-heading">Import</h2>
        <p>Replaces all data with the snapshot. A snapshot that is corrupt or from another tool is refused and nothing changes.</p>
        <label htmlFor={fileId}>Import a snapshot file</label>{' '}
        <input id={fileId} type="file" accept="application/json,.json,.ndjson" disabled={busy} onChange={onImport} />
      </section>
      {importing && (
        <p role="status" aria-busy="true" data-testid="import-progress">
          {importing}
        </p>
      )}
      {message && (
        <p role="status" className="success">
          {message}
        </p>
      )}
      <ApiErrorView error={error} title="The operation failed" />
    </section>
  )
}
