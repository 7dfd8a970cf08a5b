/**
 * The harness UI: the app shell around the page the hash route names.
 */
import { AppShell } from './layout/app-shell.tsx'
import { CallingWindowPage, TaskQueuePage } from './layout/calling-seam.tsx'
import { useHashRoute, hrefs, type Route } from './lib/hash-routes.ts'
import type { ObjectType } from './lib/crm-types.ts'
import { RecordList } from './records/record-list.tsx'
import { RecordPage } from './records/record-page.tsx'
import { RecordActivity } from './timeline/record-activity.tsx'
import { DeveloperArea } from './panels/developer-area.tsx'
import { OAuthCallback } from './panels/oauth-callback.tsx'
import { loadInstallation } from './panels/oauth-flow.ts'
import { useHarnessStore } from './lib/harness-store.ts'
import { useEffect } from 'react'

/** A record page with the timeline feature's activity view (the app composes the features). */
export function RecordRoute({ objectType, id }: { objectType: ObjectType; id: string }) {
  return <RecordPage objectType={objectType} id={id} activity={RecordActivity} />
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'list':
      return <RecordList key={route.objectType} objectType={route.objectType} />
    case 'record':
      return <RecordRoute key={`${route.objectType}/${route.id}`} objectType={route.objectType} id={route.id} />
    case 'tasks':
      return <TaskQueuePage />
    case 'calling-window':
      return null // rendered without the shell (App)
    case 'developer':
      return <DeveloperArea panel={route.panel} />
    case 'oauth-callback':
      return <OAuthCallback params={route.params} />
    case 'not-found':
      return (
        <section className="page">
          <h1>Page not found</h1>
          <p>
            Nothing lives at <code>#{route.path}</code>. <a href={hrefs.list('contacts')}>Go to contacts</a>
          </p>
        </section>
      )
  }
}

/** The app's name as the emulator reports it (shown beside its timeline events). */
function useAppNameFromApi(): void {
  useEffect(() => {
    loadInstallation().then(
      (installation) => installation && useHarnessStore.getState().setAppName(installation.appName),
      () => {
        // Keep the default name; the OAuth panel shows the error if the route fails.
      },
    )
  }, [])
}

export function App() {
  useAppNameFromApi()
  const route = useHashRoute()
  // The detached calling window is a page of its own: the widget, no CRM shell around it.
  if (route.page === 'calling-window') return <CallingWindowPage />
  return (
    <AppShell route={route}>
      <Page route={route} />
    </AppShell>
  )
}
