/**
 * Start-up of the harness page (loaded by main.tsx once zod is configured).
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './harness.css'
import { App } from './app.tsx'
import { configureCalling, defaultWidgetUrl } from './layout/calling-seam.tsx'
import { navigateToRecord } from './lib/hash-routes.ts'
import { StartupError, StartupScreen } from './layout/startup-screens.tsx'
import { connectCrm } from '../emulator/browser/connect.ts'
import { followCrmConnection } from './lib/api-client.ts'

/**
 * Start-up order matters: the page must know where its CRM API is before
 * anything renders, because the first render already fetches. In server mode
 * that is the server behind this origin; in browser-only mode the emulated
 * CRM (MSW, with its service worker) must be running first.
 */
export async function start(): Promise<void> {
  const container = document.getElementById('root')
  if (!container) throw new Error('index.html has no #root element')
  const root = createRoot(container)
  root.render(<StartupScreen />)
  try {
    const connection = await connectCrm({
      seedOptions: { widgetUrl: defaultWidgetUrl(window.location) },
      onWait: (sentence) => root.render(<StartupScreen waiting={sentence} />),
    })
    followCrmConnection(connection)
  } catch (error) {
    root.render(<StartupError error={error} />)
    return
  }
  configureCalling({ navigate: navigateToRecord })
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
}

