/**
 * The "Developer" area: panels over the emulated API, one per sub-route.
 */
import { DEVELOPER_PANELS, hrefs, type DeveloperPanelId } from '../lib/hash-routes.ts'
import { AccountCard } from './account-card.tsx'
import { AppPanel } from './app-panel.tsx'
import { CallingSettingsPanel } from './calling-settings-panel.tsx'
import { DatabasePanel } from './database-panel.tsx'
import { OAuthPanel } from './oauth-panel.tsx'
import { TemplatesPanel } from './templates-panel.tsx'
import { TicketsPanel } from './tickets-panel.tsx'
import './developer-area.css'

function Panel({ panel }: { panel: DeveloperPanelId }) {
  switch (panel) {
    case 'account':
      return <AccountCard />
    case 'app':
      return <AppPanel />
    case 'calling-settings':
      return <CallingSettingsPanel />
    case 'templates':
      return <TemplatesPanel />
    case 'oauth':
      return <OAuthPanel />
    case 'tickets':
      return <TicketsPanel />
    case 'database':
      return <DatabasePanel />
  }
}

export function DeveloperArea({ panel }: { panel: DeveloperPanelId }) {
  return (
    <div className="developer-area">
      <nav className="sub-nav" aria-label="Developer panels">
        <ul>
          {DEVELOPER_PANELS.map((p) => (
            <li key={p.id}>
              <a href={hrefs.developer(p.id)} aria-current={p.id === panel ? 'page' : undefined}>
                {p.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="developer-panel">
        <Panel panel={panel} />
      </div>
    </div>
  )
}
