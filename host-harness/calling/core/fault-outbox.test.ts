/**
 * The harness's wire faults, as a wrapper around a real CallingHost's outbox:
 * what the widget receives and what the host tells its observer for each fault.
 */
import type { CallingHostOptions } from '../../../shared/protocol/index.ts'
import { postedTypes } from '../../../shared/protocol/testing/jsdom-wire.ts'
import { samplePayloads } from '../../../shared/protocol/testing/samples.ts'
import { destroyHostEnvs, load, mountHost, readyHost, syncs, type HostEnv } from '../../../shared/protocol/testing/host-env.ts'
import { FaultInjector } from './fault-outbox.ts'

/** A host (mounted by `mount`) whose outbox goes through a FaultInjector. */
function faultyHost(mount: (options: Partial<CallingHostOptions>) => HostEnv, options: Partial<CallingHostOptions> = {}) {
  const faults = new FaultInjector()
  const env = mount({ ...options, wrapOutbox: faults.wrap })
  return { env, faults }
}

beforeEach(() => {
  vi.spyOn(console, 'debug').mockImplementation(() => {})
})

afterEach(() => {
  destroyHostEnvs()
  vi.useRealTimers()
  document.body.replaceChildren()
})

describe('FaultInjector around CallingHost', () => {
  it('withholdSync sends no SYNC while the timeout still runs', () => {
    vi.useFakeTimers()
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { env, faults } = faultyHost(mountHost, { syncTimeoutMs: 1000 })
    faults.set({ withholdSync: true })
    load(env)
    vi.advanceTimersByTime(999)
    expect(syncs(env)).toHaveLength(0)
    vi.advanceTimersByTime(1)
    expect(env.host.status).toBe('failed')
  })

  it('drop: the type is never posted and traffic shows fault dropped', () => {
    const { env, faults } = faultyHost(readyHost)
    faults.set({ drop: ['DIAL_NUMBER'] })
    env.host.dialNumber(samplePayloads.DIAL_NUMBER)
    env.host.endCall()
    expect(postedTypes(env.posts)).toEqual(['END_CALL'])
    expect(env.traffic[0]).toMatchObject({ type: 'DIAL_NUMBER', fault: 'dropped' })
  })

  it('duplicate: the type is posted twice', () => {
    const { env, faults } = faultyHost(readyHost)
    faults.set({ duplicate: ['DIAL_NUMBER'] })
    env.host.dialNumber(samplePayloads.DIAL_NUMBER)
    expect(postedTypes(env.posts)).toEqual(['DIAL_NUMBER', 'DIAL_NUMBER'])
    expect(env.traffic.map((t) => t.fault)).toEqual([undefined, 'duplicate'])
  })

  it('delayMs: replies go out after the delay, in order', () => {
    vi.useFakeTimers()
    const { env, faults } = faultyHost(readyHost)
    faults.set({ delayMs: 250 })
    env.host.createEngagementSucceeded({ engagementId: 1 })
    env.host.updateEngagementSucceeded({ engagementId: 1 })
    vi.advanceTimersByTime(249)
    expect(env.posts).toHaveLength(0)
    vi.advanceTimersByTime(1)
    expect(postedTypes(env.posts)).toEqual(['CREATE_ENGAGEMENT_SUCCEEDED', 'UPDATE_ENGAGEMENT_SUCCEEDED'])
    expect(() => faults.set({ delayMs: -5 })).toThrow(/delayMs/)
  })
})
