import { useCallback, useRef, type ReactNode } from 'react'
import { CallActor } from './call-context.ts'
import { CompletedScreen } from './components/completed-screen.tsx'
import { DialPadScreen } from './components/dial-pad-screen.tsx'
import { HeaderBar } from './components/header-bar.tsx'
import { InCallScreen } from './components/in-call-screen.tsx'
import { IncomingScreen } from './components/incoming-screen.tsx'
import { LineSimulatorPanel, type SimulatorDefaults } from './components/line-simulator-panel.tsx'
import { NoticeBar } from './components/notice-bar.tsx'
import { OutgoingScreen } from './components/outgoing-screen.tsx'
import { SignedOutScreen } from './components/signed-out-screen.tsx'
import { WrapUpScreen } from './components/wrap-up-screen.tsx'
import { useResizeReport } from './use-resize-report.ts'

const CALL_SCREENS = ['idle', 'outgoing', 'incoming', 'answered', 'ended', 'completed'] as const
type Screen = 'signedOut' | (typeof CALL_SCREENS)[number]

function useScreen(): Screen {
  return CallActor.useSelector((s) => CALL_SCREENS.find((name) => s.matches({ signedIn: name })) ?? 'signedOut')
}

const SCREENS: Record<Screen, () => ReactNode> = {
  signedOut: SignedOutScreen,
  idle: DialPadScreen,
  outgoing: OutgoingScreen,
  incoming: IncomingScreen,
  answered: InCallScreen,
  ended: WrapUpScreen,
  completed: CompletedScreen,
}

/** The whole widget: header, message, current screen, line simulator. */
export function WidgetApp({ simulator, notice = null }: { simulator: SimulatorDefaults; notice?: string | null }) {
  const { send } = CallActor.useActorRef()
  const root = useRef<HTMLDivElement>(null)
  const report = useCallback((size: { width: number; height: number }) => send({ type: 'ui.resized', ...size }), [send])
  useResizeReport(root, report)
  const Screen = SCREENS[useScreen()]
  return (
    <div className="widget" ref={root}>
      <HeaderBar />
      <NoticeBar />
      {notice && (
        <p className="meta error" role="note" aria-label="Ignored URL parameters">
          {notice}
        </p>
      )}
      <main className="main">
        <Screen />
      </main>
      <LineSimulatorPanel defaults={simulator} />
    </div>
  )
}
