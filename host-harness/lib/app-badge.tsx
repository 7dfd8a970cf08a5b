/**
 * The developer app's icon and name, shown beside its timeline events (as in
 * the real CRM, events show the application name, and an icon set in the
 * application settings is shown beside them; see
 * https://developers.hubspot.com/docs/api/crm/timeline). The icon is a
 * PNG/JPEG data URL validated on upload and re-validated when read from
 * storage.
 */
import { useHarnessStore } from './harness-store.ts'
import './app-badge.css'

export function AppBadge({ appId, appName: nameFromEvent }: { appId?: number; appName?: string }) {
  const storedName = useHarnessStore((s) => s.appName)
  const appName = nameFromEvent ?? storedName
  const icon = useHarnessStore((s) => s.appIcon)
  return (
    <span className="app-badge">
      {/* eslint-disable-next-line ringside/url-sink -- a PNG/JPEG data: URL the harness made from an upload, re-checked on load (harness-store.ts appIcon schema); an <img> runs no script */}
      {icon ? <img className="app-icon" src={icon.dataUrl} alt="" width={20} height={20} /> : <span className="app-icon app-icon-placeholder" aria-hidden="true" />}
      <span className="app-name">{appName}</span>
      {appId !== undefined && <span className="visually-hidden"> (app {appId})</span>}
    </span>
  )
}
