#!/usr/bin/env node
// Widget readiness check from a clone of this repository: `npm run check-widget -- <widget-url> [options]`.
//
// It is `ringside check-widget` (kit/check-widget.ts, the one implementation), run from this checkout's
// build: it builds first when the build is missing or older than the sources (tools/build/prepack.mjs decides),
// and keeps its reports under reports/ (or $WIDGET_CHECK_DIR) unless --junit / --html say otherwise:
// widget-check.txt, widget-check.junit.xml, widget-check.html (the self-contained report) and
// playwright-report/. Every option of `ringside check-widget` works here (`npm run check-widget -- --help`).
//
// Exit codes: 0 every check passed or was skipped (with its reason), 1 a check failed, 2 the check could not
// run (bad arguments, widget not reachable, no Chromium, build failed).
//
// CHECK_WIDGET_BUILD=never skips the build check (the e2e tests, which run many checks at once against the
// build `npm test` has just made).
import { spawnSync } from 'node:child_process'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const dir = resolve(process.env.WIDGET_CHECK_DIR ?? join(root, 'reports'))
const given = (option) => args.some((arg) => arg === option || arg.startsWith(`${option}=`))
const defaults = [...(given('--junit') ? [] : ['--junit', join(dir, 'widget-check.junit.xml')]), ...(given('--html') ? [] : ['--html', join(dir, 'widget-check.html')])]

const asksForHelp = args.includes('--help') || args.includes('-h')
if (!asksForHelp && process.env.CHECK_WIDGET_BUILD !== 'never') {
  const build = spawnSync(process.execPath, [join(root, 'tools', 'build', 'prepack.mjs'), 'check-widget'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) {
    process.stderr.write('check-widget: the build failed (npm run build), so there is nothing to check with.\n')
    process.exit(2)
  }
}
const run = spawnSync(process.execPath, [join(root, 'bin', 'ringside.mjs'), 'check-widget', ...args, ...defaults], { cwd: process.cwd(), stdio: 'inherit' })
process.exit(run.status ?? 2)
