/**
 * Helpers for the server's tests: free ports, scratch data folders, and the
 * CLI run as a child process (for kill -9 and startup-error tests).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect } from 'vitest'

export const REPO = resolve(import.meta.dirname, '..', '..', '..')

/** A port p such that p and p + 1 (the widget origin) are both free right now: the one home is emulator/testing/free-ports.mjs. */
export { freePortPair } from '../../testing/free-ports.mjs'

const scratch = new Set<string>()

/** A new empty folder under the system's temp folder (removed by removeScratchDirs). */
export function scratchDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ringside-${name}-`))
  scratch.add(dir)
  return dir
}

export function removeScratchDirs(): void {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true })
  scratch.clear()
}

export interface CliRun {
  child: ChildProcess
  output(): string
  /** Resolves with the exit code. */
  exited: Promise<number | null>
}

const running = new Set<ChildProcess>()

/** Kill every server runCli started that is still running (a failed or timed-out test leaves none behind). */
export function killRunningServers(): void {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
}

/** `npm start -- args` as a child process (node tools/start.mjs). */
export function runCli(args: string[]): CliRun {
  const child = spawn(process.execPath, [join(REPO, 'tools', 'start.mjs'), ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  child.once('exit', () => running.delete(child))
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  return { child, output: () => output, exited }
}

/** Wait until the server at `origin` answers GET /_ringside/v1/server (or the child exits). */
export async function waitForServer(origin: string, run: CliRun, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let exited = false
  void run.exited.then(() => (exited = true))
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the server exited early:\n${run.output()}`)
    try {
      const response = await fetch(`${origin}/_ringside/v1/server`)
      if (response.ok) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`the server did not answer within ${timeoutMs} ms:\n${run.output()}`)
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** Expect the real API's error body: this status and category, a UUID correlationId, a message matching `message`. */
export async function expectErrorBody(response: Response, status: number, category: string, message: RegExp): Promise<void> {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  const body = JSON.parse(text)
  expect(body).toMatchObject({ status: 'error', category })
  expect(body.correlationId).toMatch(UUID)
  expect(body.message).toMatch(message)
}
