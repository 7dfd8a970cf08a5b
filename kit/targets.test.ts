import { describe, expect, it } from 'vitest'
import { builtInDriver } from './drivers/load-driver.ts'
import { journeyNotRunnable } from './journey.ts'
import { checkWorkers, conformanceTargets, journeysInRunOrder } from './targets.ts'
import { kitBaseUrl } from './origins.ts'
import { kitOrigins } from './origins.ts'
import { DEFAULT_PORTS } from '../shared/ports.mjs'

const BASE = 'http://127.0.0.1:4300'
const KIT = kitOrigins(BASE)
const widget = (path: string) => ({ WIDGET_URL: `http://127.0.0.1:4301${path}` })

describe('checkWorkers: one worker per journey that opens a browser, at most two', () => {
  it('a driver that cannot ring runs the outbound journey only: one worker per placement', () => {
    expect(checkWorkers(BASE, { ...widget('/e2e/fixtures/driverless-widget/'), WIDGET_DRIVER: 'none' })).toBe(1)
    // auto: a widget Ringside does not know gets the generic driver, which cannot ring.
    expect(checkWorkers(BASE, { WIDGET_URL: 'http://localhost:5174/' })).toBe(1)
    expect(checkWorkers(BASE, { ...widget('/e2e/fixtures/driverless-widget/'), WIDGET_DRIVER: 'generic', WIDGET_PLACEMENT: 'widget,remote' })).toBe(2)
  })

  it('a driver that rings runs both journeys side by side, and so may a driver module', () => {
    expect(checkWorkers(BASE, widget('/widget/'))).toBe(2)
    expect(checkWorkers(BASE, { WIDGET_URL: 'http://localhost:5174/', WIDGET_DRIVER: './my-driver.ts' })).toBe(2)
    // no WIDGET_URL: the built-in targets, both with drivers that ring, in every placement
    expect(checkWorkers(BASE, { WIDGET_PLACEMENT: 'all' })).toBe(2)
  })
})

describe('builtInDriver', () => {
  it('names a built-in driver or guesses one; a module path, or a name Object.prototype has, is no built-in', () => {
    expect(builtInDriver('none', 'http://localhost:5174/', KIT)?.ring).toBeUndefined()
    expect(builtInDriver('auto', 'http://127.0.0.1:4301/widget/', KIT)?.ring).toBeTypeOf('function')
    expect(builtInDriver('./driver.ts', 'http://localhost:5174/', KIT)).toBeNull()
    expect(builtInDriver('toString', 'http://localhost:5174/', KIT)).toBeNull()
  })
})

describe('journeyNotRunnable', () => {
  const options = { widgetUrl: 'http://localhost:5174/', syncTimeoutMs: 1_000 }
  it('skips every stage of the inbound journey, with the reason, for a driver without ring; null for one it can run', () => {
    const none = builtInDriver('none', options.widgetUrl, KIT)!
    const skipped = journeyNotRunnable(none, { ...options, kind: 'inbound' })
    expect(Object.values(skipped!.stages).every((stage) => stage.status === 'skipped' && stage.reason.includes('cannot ring the widget'))).toBe(true)
    expect(journeyNotRunnable(none, { ...options, kind: 'outbound' })).toBeNull()
    expect(journeyNotRunnable(builtInDriver('ringside', options.widgetUrl, KIT)!, { ...options, kind: 'inbound' })).toBeNull()
  })
})

describe('journeysInRunOrder', () => {
  const order = (env: NodeJS.ProcessEnv) => conformanceTargets(env).map((target) => journeysInRunOrder(target, BASE))
  it('declares a journey the driver cannot run first (its skipped checks share the journey\'s worker), else the journeys in order', () => {
    expect(order({ ...widget('/e2e/fixtures/driverless-widget/'), WIDGET_DRIVER: 'none' })).toEqual([['inbound', 'outbound']])
    expect(order({ WIDGET_URL: 'http://localhost:5174/' })).toEqual([['inbound', 'outbound']])
    expect(order(widget('/widget/'))).toEqual([['outbound', 'inbound']])
    expect(order({ WIDGET_URL: 'http://localhost:5174/', WIDGET_DRIVER: './my-driver.ts' })).toEqual([['outbound', 'inbound']])
    // The built-in targets: the reference widget's driver rings, the npm SDK fixture's does not.
    expect(order({})).toEqual([['outbound', 'inbound'], ['inbound', 'outbound']])
  })

  it('finds the harness of a check run on $KIT_PORT', () => {
    expect(kitBaseUrl({ KIT_PORT: '4300' })).toBe(BASE)
    expect(kitBaseUrl({})).toBe(`http://127.0.0.1:${DEFAULT_PORTS.checkWidget}`)
  })
})
