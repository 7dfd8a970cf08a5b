import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { installWarnings } from './install-log.mjs'

// What npm 11 printed on this project before its allowScripts and engines were set (Node 20).
const NOISY = `npm warn EBADENGINE Unsupported engine {
npm warn EBADENGINE   package: '@hubspot/api-client@14.0.1',
npm warn EBADENGINE   required: { node: '>=22.0.0' },
npm warn EBADENGINE   current: { node: 'v20.20.2', npm: '11.19.1' }
npm warn EBADENGINE }

added 402 packages in 2m
npm warn install-scripts 4 packages have install scripts not yet covered by allowScripts:
npm warn install-scripts   esbuild@0.28.2 (postinstall: node install.js)
npm warn install-scripts
npm warn install-scripts Run \`npm install-scripts ls\` to review, or \`npm install-scripts approve <pkg>\` to allow.
`

test('every warning line of npm (old and new spelling) and of Node is found; a clean log has none', () => {
  expect(installWarnings(NOISY)).toHaveLength(9)
  expect(installWarnings('npm WARN deprecated inflight@1.0.6: leaks memory\nnpm ERR! code E404\nnpm error code EUSAGE\n')).toHaveLength(3)
  expect(installWarnings('(node:4242) [DEP0040] DeprecationWarning: The `punycode` module is deprecated.\n(node:4242) Warning: something\n')).toHaveLength(2)
  expect(installWarnings('\nadded 402 packages in 31s\n')).toEqual([])
  // A package's own output that merely mentions a warning is not npm's warning.
  expect(installWarnings('> msw: no warnings here\nwarn: not npm\n')).toEqual([])
})

describe('the command line writes a one-check report', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ringside-install-log-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
  const script = resolve(import.meta.dirname, 'install-log.mjs')
  const check = (log: string) => {
    const file = join(dir, 'npm-ci.log')
    writeFileSync(file, log)
    const report = join(dir, 'reports', 'npm-ci.json')
    let status = 0
    let output: string
    try {
      output = execFileSync(process.execPath, [script, file, '--report', report], { encoding: 'utf8' })
    } catch (error) {
      status = (error as { status: number }).status
      output = String((error as { stdout: string }).stdout)
    }
    return { status, output, report: JSON.parse(readFileSync(report, 'utf8')) as unknown }
  }

  test('a clean log passes', () => {
    const { status, output, report } = check('\nadded 402 packages in 31s\n')
    expect(status).toBe(0)
    expect(output).toContain('clean')
    expect(report).toEqual({ passed: 1, failed: 0 })
  })

  test('a noisy log fails and prints each warning line', () => {
    const { status, output, report } = check(NOISY)
    expect(status).toBe(1)
    expect(output).toContain('npm warn EBADENGINE Unsupported engine {')
    expect(output).toContain('esbuild@0.28.2 (postinstall: node install.js)')
    expect(report).toEqual({ passed: 0, failed: 1 })
  })

  test('a missing log fails: an install that left no log is not clean', () => {
    const report = join(dir, 'missing.json')
    let status = 0
    try {
      execFileSync(process.execPath, [script, join(dir, 'no-such.log'), '--report', report], { encoding: 'utf8' })
    } catch (error) {
      status = (error as { status: number }).status
    }
    expect(status).toBe(1)
    expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual({ passed: 0, failed: 1 })
  })
})
