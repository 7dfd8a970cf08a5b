import { createActor, fromCallback } from 'xstate'
import { callMachine, type CallMachineInput } from '../call.machine.ts'
import type { LineCommand } from '../phone-line.ts'
import type { SdkCommand } from '../sdk-port.ts'
import type { RememberedSession } from '../session.ts'

/**
 * The call machine with recording fakes for its two side-effect actors: the
 * SDK port and the phone line. Tests play the host and the line by sending
 * `host.*` and `line.*` events to the actor directly.
 */
export function fakeMachine() {
  const sdkCalls: SdkCommand[] = []
  const lineCalls: LineCommand[] = []
  /** What the widget asked to keep across reloads, in order. */
  const remembered: Partial<RememberedSession>[] = []
  const machine = callMachine.provide({
    actions: { remember: (_, change) => void remembered.push(change) },
    actors: {
      sdkBridge: fromCallback<SdkCommand>(({ receive }) => {
        receive((command) => sdkCalls.push(command))
      }),
      phoneLine: fromCallback<LineCommand>(({ receive }) => {
        receive((command) => lineCalls.push(command))
      }),
    },
  })
  return { machine, sdkCalls, lineCalls, remembered }
}

/** A started actor over {@link fakeMachine}. */
export function startFakeCall(input: CallMachineInput = {}) {
  const fakes = fakeMachine()
  const actor = createActor(fakes.machine, { input }).start()
  return { ...fakes, actor }
}

/** The SDK method names, in call order. */
export const typesOf = (calls: readonly { type: string }[]) => calls.map((c) => c.type)
