/**
 * The emulated CRM's frame: top bar (with the calling status), left
 * navigation, the page, the docked calling widget (bottom right, like a
 * softphone) and a bottom drawer with the developer tools of the calling
 * integration (message inspector, faults, composer).
 */
import { ACCOUNT } from '../../shared/crm/account.ts'
import { useState, type ReactNode } from 'react'
// The shell's styles before the calling integration's (the seam's), the order they always had.
import './shell.css'
import { CallingDock, CallingStatusBadge, ComposerPanel, FaultsPanel, InspectorPanel, NavigationSwitch, TaskQueueBar, useDockReserve } from './calling-seam.tsx'
import { RateLimitsSwitch } from './rate-limits-switch.tsx'
import { hrefs, type Route } from '../lib/hash-routes.ts'
import { OBJECT_TYPES } from '../lib/crm-types.ts'
import { objectTypeInfo } from '../lib/crm-types.ts'
import { CrmModeBadge, LiveUpdatesWarning } from '../lib/crm-mode.tsx'

const DRAWER_TABS = [
  { id: 'inspector', label: 'Message inspector' },
  { id: 'faults', label: 'Faults' },
  { id: 'composer', label: 'Composer' },
] as const
type DrawerTab = (typeof DRAWER_TABS)[number]['id']

function isCurrentSection(route: Route, section: string): boolean {
  if (route.page === 'list' || route.page === 'record') return route.objectType === section
  if (route.page === 'developer' || route.page === 'oauth-callback') return section === 'developer'
  if (route.page === 'tasks') return section === 'tasks'
  return false
}

export function AppShell({ route, children }: { route: Route; children: ReactNode }) {
  const [drawerOpen, setDrawerOpen] = useState(false)
  const [tab, setTab] = useState<DrawerTab>('inspector')
  // The tabs shown at least once. A tab is drawn the first time it is shown and then kept mounted
  // while hidden (so the inspector keeps its filters); a page whose tools are never opened pays
  // nothing for them (the faults tab's rate-limit switch would fetch its settings at load).
  const [opened, setOpened] = useState<ReadonlySet<DrawerTab>>(() => new Set())
  const showTab = (next: DrawerTab) => setOpened((seen) => (seen.has(next) ? seen : new Set(seen).add(next)))
  const mounted = (id: DrawerTab) => opened.has(id) || (drawerOpen && tab === id)
  // The page reflows beside the docked widget instead of sliding under it.
  const reserve = useDockReserve()

  return (
    <div
      className={`app-shell${drawerOpen ? ' drawer-open' : ''}${reserve > 0 ? ' dock-reserved' : ''}`}
      style={reserve > 0 ? { ['--dock-reserve' as string]: `${reserve}px` } : undefined}
    >
      <header className="top-bar">
        <a className="brand" href={hrefs.list('contacts')}>
          <span className="brand-mark" aria-hidden="true">
            ◉
          </span>
          Ringside
        </a>
        <span className="top-bar-subtitle">emulated CRM · portal {ACCOUNT.hubId}</span>
        <div className="top-bar-status">
          <CrmModeBadge />
          <LiveUpdatesWarning />
          <NavigationSwitch />
          <CallingStatusBadge />
        </div>
      </header>
      <nav className="side-nav" aria-label="Main">
        <ul>
          {OBJECT_TYPES.map((type) => (
            <li key={type}>
              <a href={hrefs.list(type)} aria-current={isCurrentSection(route, type) ? 'page' : undefined}>
                {objectTypeInfo(type).pluralLabel}
              </a>
            </li>
          ))}
          <li>
            <a href={hrefs.tasks()} aria-current={isCurrentSection(route, 'tasks') ? 'page' : undefined}>
              Task queue
            </a>
          </li>
          <li className="side-nav-separator" aria-hidden="true" />
          <li>
            <a href={hrefs.developer('account')} aria-current={isCurrentSection(route, 'developer') ? 'page' : undefined}>
              Developer
            </a>
          </li>
        </ul>
      </nav>
      <main className="main-content">
        <TaskQueueBar />
        {children}
      </main>
      <aside className="calling-dock-slot" aria-label="Calling widget">
        <CallingDock />
      </aside>
      <section className="tools-drawer" aria-label="Integration tools">
        <div className="tools-drawer-bar">
          <button
            type="button"
            aria-expanded={drawerOpen}
            aria-controls="tools-drawer-body"
            onClick={() => {
              if (!drawerOpen) showTab(tab)
              setDrawerOpen((open) => !open)
            }}
          >
            {drawerOpen ? 'Hide integration tools' : 'Show integration tools'}
          </button>
          {drawerOpen && (
            <div role="tablist" aria-label="Integration tools">
              {DRAWER_TABS.map((t) => (
                <button
                  key={t.id}
                  type="button"
                  role="tab"
                  id={`tools-tab-${t.id}`}
                  aria-selected={tab === t.id}
                  aria-controls="tools-drawer-body"
                  onClick={() => {
                    showTab(t.id)
                    setTab(t.id)
                  }}
                >
                  {t.label}
                </button>
              ))}
            </div>
          )}
        </div>
        <div id="tools-drawer-body" className="tools-drawer-body" role="tabpanel" aria-labelledby={`tools-tab-${tab}`} hidden={!drawerOpen}>
          {/* Mounted once shown, then kept mounted while hidden; the inspector draws only while shown (the store records the traffic). */}
          <div hidden={tab !== 'inspector'}>{mounted('inspector') && <InspectorPanel visible={drawerOpen && tab === 'inspector'} />}</div>
          <div hidden={tab !== 'faults'}>
            {mounted('faults') && (
              <>
                <FaultsPanel />
                <RateLimitsSwitch />
              </>
            )}
          </div>
          <div hidden={tab !== 'composer'}>{mounted('composer') && <ComposerPanel />}</div>
        </div>
      </section>
    </div>
  )
}
