/**
 * Compact calling status for the app header: the widget's state (handshake,
 * login, availability), read from the one widget state (core/widget-state.ts)
 * that the dock's pill and its loading cover read too.
 */
import { useShallow } from 'zustand/react/shallow'
import { useCalling } from '../core/calling-store.ts'
import { describeWidget, widgetState, type WidgetState } from '../core/widget-state.ts'

/** The widget's state in this page (re-renders when it changes). */
export function useWidgetState(): WidgetState {
  return useCalling(useShallow((s) => widgetState(s)))
}

export function CallingStatusBadge() {
  const state = useWidgetState()
  const isReady = useCalling((s) => s.effective?.isReady ?? true)
  return <StatusBadgeView state={state} isReady={isReady} />
}

export interface StatusBadgeProps {
  state: WidgetState
  isReady: boolean
  /** Where the widget runs, when not in this page (" in the calling window"). */
  where?: string
}

/** The badge for a widget's state, wherever it runs. */
export function StatusBadgeView({ state, isReady, where = '' }: StatusBadgeProps) {
  const text = describeWidget(state)
  return (
    <span className="calling-badge" role="group" aria-label="Calling status">
      <span className={`calling-badge__item calling-badge__item--${text.tone}`}>
        <span className="calling-badge__dot" aria-hidden="true" />
        {text.badge}
        {where}
      </span>
      {state.phase === 'ready' ? (
        <>
          <span className={`calling-badge__item calling-badge__item--${state.loggedIn ? 'ok' : 'bad'}`}>{state.loggedIn ? 'Logged in' : 'Logged out'}</span>
          {state.available !== null ? (
            <span className={`calling-badge__item calling-badge__item--${state.available ? 'ok' : 'wait'}`}>{state.available ? 'Available' : 'Unavailable'}</span>
          ) : null}
        </>
      ) : null}
      {!isReady ? <span className="calling-badge__item calling-badge__item--testing">testing</span> : null}
    </span>
  )
}
