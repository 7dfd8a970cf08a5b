/**
 * Start-up of the harness page (loaded by main.tsx once zod is configured).
 */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '../harness.css'
import { App } from '../app.tsx'
import { configureCalling } from './calling-seam.tsx'
import { navigateToRecord } from './routes.ts'
import { StartupError, StartupScreen } from './startup-screens.tsx'
import { defaultWidgetUrl } from '../calling/settings.ts'

/**
 * Start-up order matters: the emulated CRM API (MSW, with its service worker)
 * must be running before anything renders, because the first render already
 * fetches, and the widget iframe's requests are only intercepted once the
 * worker controls this page.
 */
export async function start(): Promise<void> {
  const container = document.getElementById('root')
  if (!container) throw new Error('index.html has no #root element')
  const root = createRoot(container)
  root.render(<StartupScreen />)
  try {
    const { createBrowserCrmService } = await import('../../shared/api/browser/msw.ts')
    await createBrowserCrmService({ seedOptions: { widgetUrl: defaultWidgetUrl(window.location) } })
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

