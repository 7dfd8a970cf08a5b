import type { EndStatus, SdkCommand, SizeInfo } from '../sdk-port.ts'

/**
 * The host's view of what a well-behaved widget may send, as a checker.
 * Feed it every SDK call in order; it lists each call that a host could not
 * make sense of (a call event for an unknown call, callCompleted before
 * callEnded, a second call while one is open, …).
 */

interface OpenCall {
  externalCallId: string
  direction: 'OUTBOUND' | 'INBOUND'
  answered: boolean
  ended: boolean
}

const AFTER_ANSWER: readonly EndStatus[] = ['COMPLETED', 'FAILED']
const UNANSWERED_OUT: readonly EndStatus[] = ['CANCELED', 'BUSY', 'NO_ANSWER', 'FAILED']
const UNANSWERED_IN: readonly EndStatus[] = ['REJECTED', 'MISSED', 'FAILED']

export class ProtocolMonitor {
  readonly violations: string[] = []
  initialized = false
  loggedIn = false
  available = false
  open: OpenCall | null = null
  private readonly seenIds = new Set<string>()
  private lastSize: SizeInfo | null = null
  private index = 0

  /** An independent copy, to check several continuations of one history. */
  clone(): ProtocolMonitor {
    const copy = new ProtocolMonitor()
    copy.violations.push(...this.violations)
    copy.initialized = this.initialized
    copy.loggedIn = this.loggedIn
    copy.available = this.available
    copy.open = this.open && { ...this.open }
    for (const id of this.seenIds) copy.seenIds.add(id)
    copy.lastSize = this.lastSize
    copy.index = this.index
    return copy
  }

  private fail(command: SdkCommand, why: string): void {
    this.violations.push(`#${this.index} ${command.type}: ${why}`)
  }

  private sameCall(command: SdkCommand, id: string): OpenCall | null {
    if (!this.open) {
      this.fail(command, 'no call is open')
      return null
    }
    if (this.open.externalCallId !== id) {
      this.fail(command, `externalCallId ${id} is not the open call ${this.open.externalCallId}`)
      return null
    }
    return this.open
  }

  record(command: SdkCommand): void {
    this.index += 1
    if (command.type !== 'initialized' && !this.initialized) this.fail(command, 'sent before initialized')
    switch (command.type) {
      case 'initialized':
        if (this.initialized) this.fail(command, 'sent twice')
        this.initialized = true
        this.loggedIn = command.data.isLoggedIn
        this.available = command.data.isAvailable
        this.lastSize = command.data.sizeInfo
        return
      case 'userLoggedIn':
        if (this.loggedIn) this.fail(command, 'already logged in')
        this.loggedIn = true
        return
      case 'userLoggedOut':
        if (!this.loggedIn) this.fail(command, 'already logged out')
        if (this.open) this.fail(command, 'logged out with a call open')
        this.loggedIn = false
        return
      case 'userAvailable':
        if (this.available) this.fail(command, 'already available')
        this.available = true
        return
      case 'userUnavailable':
        if (!this.available) this.fail(command, 'already unavailable')
        this.available = false
        return
      case 'outgoingCall':
      case 'incomingCall': {
        const { externalCallId, createEngagement, fromNumber, toNumber } = command.data
        if (!this.loggedIn) this.fail(command, 'call started while logged out')
        if (this.open) this.fail(command, `call started while ${this.open.externalCallId} is open`)
        if (!externalCallId) this.fail(command, 'empty externalCallId')
        if (this.seenIds.has(externalCallId)) this.fail(command, `externalCallId ${externalCallId} reused`)
        if (createEngagement !== true) this.fail(command, 'createEngagement is not true')
        if (!fromNumber || !toNumber) this.fail(command, 'missing fromNumber/toNumber')
        if ('phoneNumber' in command.data) this.fail(command, 'uses the deprecated phoneNumber')
        this.seenIds.add(externalCallId)
        this.open = { externalCallId, direction: command.type === 'outgoingCall' ? 'OUTBOUND' : 'INBOUND', answered: false, ended: false }
        return
      }
      case 'callAnswered': {
        const call = this.sameCall(command, command.data.externalCallId)
        if (!call) return
        if (call.answered) this.fail(command, 'answered twice')
        if (call.ended) this.fail(command, 'answered after it ended')
        call.answered = true
        return
      }
      case 'callTransferred': {
        const call = this.sameCall(command, command.data.externalCallId)
        if (call && (!call.answered || call.ended)) this.fail(command, 'transferred a call that is not in progress')
        return
      }
      case 'callEnded': {
        const call = this.sameCall(command, command.data.externalCallId)
        if (!call) return
        if (call.ended) this.fail(command, 'ended twice')
        const status = command.data.callEndStatus
        const allowed = call.answered ? AFTER_ANSWER : call.direction === 'OUTBOUND' ? UNANSWERED_OUT : UNANSWERED_IN
        if (!allowed.includes(status)) this.fail(command, `status ${status} impossible for this call`)
        if (!Number.isInteger(command.data.engagementId)) this.fail(command, 'engagementId is not an integer')
        call.ended = true
        return
      }
      case 'callCompleted': {
        const call = this.sameCall(command, command.data.externalCallId)
        if (!call) return
        if (!call.ended) this.fail(command, 'completed before callEnded')
        this.open = null
        return
      }
      case 'resizeWidget': {
        const { width, height } = command.data
        if (this.lastSize && this.lastSize.width === width && this.lastSize.height === height) this.fail(command, 'size did not change')
        this.lastSize = command.data
        return
      }
      case 'sendError':
        if (!command.data.message.trim()) this.fail(command, 'empty message')
        return
    }
  }
}

/** Checks a whole sequence; returns the violations (empty when legal). */
export function checkSequence(commands: readonly SdkCommand[]): string[] {
  const monitor = new ProtocolMonitor()
  for (const command of commands) monitor.record(command)
  return monitor.violations
}
