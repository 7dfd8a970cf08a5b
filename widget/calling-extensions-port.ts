import { CallingExtensions } from '../shared/protocol/index.ts'
import type {
  EndStatus as SdkEndStatus,
  OnCallAnswered,
  OnCallCompleted,
  OnCallEnded,
  OnCallTransferred,
  OnError,
  OnIncomingCall,
  OnInitialized,
  OnOutgoingCall,
  OnResize,
} from '../shared/protocol/index.ts'
import type { ConnectSdk } from './sdk-bridge.ts'
import type {
  CallCompletedData,
  CallEndedData,
  CallRef,
  EndStatus,
  IncomingCallData,
  InitializedData,
  OutgoingCallData,
  SizeInfo,
} from './sdk-port.ts'

/**
 * Binds the widget's SDK port to the real widget side of the shared SDK
 * (`shared/protocol`). The SDK does the handshake, checks origin and source,
 * validates every envelope, and queues nothing of ours: the call machine only
 * sends once onReady has fired.
 */
export function connectCallingExtensions(options: { debugMode: boolean }): ConnectSdk {
  return (handlers) => {
    const extensions = new CallingExtensions({ debugMode: options.debugMode, eventHandlers: handlers })
    // Method parameters are compared bivariantly; PAYLOADS_FIT_THE_SDK below
    // checks each payload type in the strict direction.
    return {
      port: extensions,
      dispose: () => extensions.destroy(),
    }
  }
}

/** Compile-time proof that each payload the widget builds is one the SDK accepts. */
type Fits<T, U> = [T] extends [U] ? true : never
export const PAYLOADS_FIT_THE_SDK: [
  Fits<InitializedData, OnInitialized>,
  Fits<OutgoingCallData, OnOutgoingCall>,
  Fits<IncomingCallData, OnIncomingCall>,
  Fits<CallRef, OnCallAnswered>,
  Fits<CallRef, OnCallTransferred>,
  Fits<CallEndedData, OnCallEnded>,
  Fits<CallCompletedData, OnCallCompleted>,
  Fits<{ message: string }, OnError>,
  Fits<SizeInfo, OnResize>,
  Fits<EndStatus, SdkEndStatus>,
  Fits<SdkEndStatus, EndStatus>,
] = [true, true, true, true, true, true, true, true, true, true, true]
