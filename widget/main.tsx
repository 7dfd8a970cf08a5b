import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { CallActor } from './call-context.ts'
import { callMachine } from './call.machine.ts'
import { connectCallingExtensions } from './calling-extensions-port.ts'
import { createSimulatedLine } from './phone-line.ts'
import { createSdkBridge } from './sdk-bridge.ts'
import { readSession, rememberSession, widgetStorage } from './session.ts'
import { WidgetApp } from './widget-app.tsx'
import { parseWidgetParams } from './widget-params.ts'
import './widget.css'

const params = parseWidgetParams(window.location.search, navigator.webdriver === true)
if (params.problems.length > 0) console.warn('[widget] ignored URL parameters:', params.problems)

const storage = widgetStorage()
const session = readSession(storage)

const machine = callMachine.provide({
  actors: {
    sdkBridge: createSdkBridge(connectCallingExtensions({ debugMode: params.debugMode })),
    phoneLine: createSimulatedLine(params.line),
  },
  actions: {
    remember: (_, change) => rememberSession(storage, change),
  },
})

const root = document.getElementById('root')
if (!root) throw new Error('widget/index.html has no #root element')

createRoot(root).render(
  <StrictMode>
    <CallActor.Provider
      logic={machine}
      options={{
        input: {
          loggedIn: params.autoLogin || session.loggedIn,
          available: params.available,
          myNumber: params.myNumber,
          confirmDial: params.confirmDial ?? session.confirmDial,
        },
      }}
    >
      <WidgetApp
        simulator={{
          settings: params.line.settings,
          incomingFrom: params.line.scheduledIncoming?.from ?? '+15551234567',
          problems: params.problems,
        }}
        notice={params.notice}
      />
    </CallActor.Provider>
  </StrictMode>,
)
