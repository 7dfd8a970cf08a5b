import { createActorContext } from '@xstate/react'
import { callMachine } from './call.machine.ts'

/**
 * The call actor for the React tree. `CallActor.Provider` takes `logic`
 * (main.tsx passes the machine bound to the real SDK and line; tests pass
 * fakes) and `options.input`.
 */
export const CallActor = createActorContext(callMachine)

export type CallSnapshot = ReturnType<ReturnType<typeof CallActor.useActorRef>['getSnapshot']>
