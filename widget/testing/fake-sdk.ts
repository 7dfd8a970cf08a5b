import type { ConnectSdk, WidgetHandlers } from '../sdk-bridge.ts'
import type { SdkCommand, SdkPort } from '../sdk-port.ts'

/**
 * A stand-in for the SDK: records every method call as an {@link SdkCommand}
 * (in order) and exposes the event handlers the widget registered, so a
 * test can play the host by calling them with wire payloads.
 */
export function fakeSdk() {
  const calls: SdkCommand[] = []
  let handlers: WidgetHandlers | null = null
  const port: SdkPort = {
    initialized: (data) => calls.push({ type: 'initialized', data }),
    userLoggedIn: () => calls.push({ type: 'userLoggedIn' }),
    userLoggedOut: () => calls.push({ type: 'userLoggedOut' }),
    userAvailable: () => calls.push({ type: 'userAvailable' }),
    userUnavailable: () => calls.push({ type: 'userUnavailable' }),
    outgoingCall: (data) => calls.push({ type: 'outgoingCall', data }),
    incomingCall: (data) => calls.push({ type: 'incomingCall', data }),
    callAnswered: (data) => calls.push({ type: 'callAnswered', data }),
    callEnded: (data) => calls.push({ type: 'callEnded', data }),
    callCompleted: (data) => calls.push({ type: 'callCompleted', data }),
    callTransferred: (data) => calls.push({ type: 'callTransferred', data }),
    sendError: (data) => calls.push({ type: 'sendError', data }),
    resizeWidget: (data) => calls.push({ type: 'resizeWidget', data }),
  }
  const connect: ConnectSdk = (registered) => {
    handlers = registered
    return { port }
  }
  return {
    calls,
    connect,
    /** The widget's handlers; throws if the widget never connected. */
    host(): WidgetHandlers {
      if (!handlers) throw new Error('the widget has not connected to the SDK')
      return handlers
    },
  }
}
