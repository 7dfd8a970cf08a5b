/**
 * Driver for the conformance fixture widget built on the npm package
 * @hubspot/calling-extensions-sdk 0.9.7 (e2e/fixtures/conformance-npm-widget),
 * through the window functions it exposes around its SDK instance. The
 * fixture places the call itself when DIAL_NUMBER arrives and its line
 * answers after `?answerAfterMs=`.
 */
import type { Frame } from '@playwright/test'
import type { ConformanceNpmWidgetWindow } from '../../e2e/fixtures/conformance-npm-widget/globals.ts'
import { defineDriver } from './types.ts'

async function phase(frame: Frame): Promise<string> {
  return frame.evaluate(() => (window as unknown as ConformanceNpmWidgetWindow).__widget.state().phase)
}

async function waitForPhase(frame: Frame, wanted: readonly string[]): Promise<void> {
  await frame.waitForFunction(
    (phases) => phases.includes((window as unknown as ConformanceNpmWidgetWindow).__widget.state().phase),
    wanted,
    { timeout: 10_000 },
  )
}

export default defineDriver({
  name: 'npm-fixture (npm SDK 0.9.7 widget, via its SDK)',

  async logIn({ frame }) {
    await frame.evaluate(() => (window as unknown as ConformanceNpmWidgetWindow).__widget.logIn())
  },

  async placeCall({ frame }) {
    // It dials by itself on DIAL_NUMBER; only call if it has not yet.
    if ((await phase(frame)) === 'idle') await frame.evaluate(() => (window as unknown as ConformanceNpmWidgetWindow).__widget.call())
    await waitForPhase(frame, ['ringing', 'answered'])
  },

  async answer({ frame }) {
    await waitForPhase(frame, ['answered'])
  },

  async hangUp({ frame }) {
    await frame.evaluate(() => (window as unknown as ConformanceNpmWidgetWindow).__widget.hangUp())
  },

  async completeWrapUp({ frame }, { notes }) {
    await frame.evaluate((text) => (window as unknown as ConformanceNpmWidgetWindow).__widget.complete(text), notes)
  },
})
