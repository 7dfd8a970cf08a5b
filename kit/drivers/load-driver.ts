/**
 * Picks the driver for a widget: a built-in name (`ringside`, `npm-fixture`,
 * `generic`, `none`), a path to the user's own driver module
 * (`WIDGET_DRIVER=./my-driver.ts`, default export or `driver` export, see
 * types.ts), or `auto`: guessed from the widget URL (our widget and our
 * fixture are recognised; any other widget gets `generic`, which works its
 * buttons by their accessible names).
 */
import { isAbsolute, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DRIVER_STEPS, type WidgetDriver } from './types.ts'
import type { KitOrigins } from '../origins.ts'
import generic from './generic.ts'
import none from './none.ts'
import npmFixture from './npm-fixture.ts'
import ringside from './ringside.ts'

export const BUILT_IN_DRIVERS: Readonly<Record<string, WidgetDriver>> = { ringside, 'npm-fixture': npmFixture, generic, none }

/** The kit's origins a built-in driver is guessed from. */
export type DriverOrigins = Pick<KitOrigins, 'widget' | 'testWidgets'>

/** The built-in driver that fits a URL: our widget on the kit's widget origin, the npm fixture on its test origin; else `generic`. */
export function guessDriver(widgetUrl: string, origins: DriverOrigins): WidgetDriver {
  let url: URL
  try {
    url = new URL(widgetUrl)
  } catch {
    return generic
  }
  if (url.origin === origins.widget && url.pathname.startsWith('/widget/')) return ringside
  if (url.origin === origins.testWidgets && url.pathname.startsWith('/e2e/fixtures/conformance-npm-widget/')) return npmFixture
  return generic
}

function assertDriver(candidate: unknown, source: string): WidgetDriver {
  if (typeof candidate !== 'object' || candidate === null) throw new Error(`${source} must export a driver object (export default defineDriver({ name, … }))`)
  const record = candidate as Record<string, unknown>
  if (typeof record.name !== 'string' || record.name === '') throw new Error(`${source}: the driver needs a non-empty "name"`)
  for (const step of DRIVER_STEPS) {
    if (record[step] !== undefined && typeof record[step] !== 'function') throw new Error(`${source}: "${step}" must be a function`)
  }
  const unknown = Object.keys(record).filter((key) => key !== 'name' && !(DRIVER_STEPS as readonly string[]).includes(key))
  if (unknown.length > 0) throw new Error(`${source}: unknown driver keys ${unknown.join(', ')} (steps are ${DRIVER_STEPS.join(', ')})`)
  return candidate as WidgetDriver
}

/** The built-in driver `spec` names (`auto`/undefined: the one guessed from the URL); null when it is the path of a module. */
export function builtInDriver(spec: string | undefined, widgetUrl: string, origins: DriverOrigins): WidgetDriver | null {
  const name = spec?.trim() ?? ''
  if (name === '' || name === 'auto') return guessDriver(widgetUrl, origins)
  return Object.hasOwn(BUILT_IN_DRIVERS, name) ? BUILT_IN_DRIVERS[name]! : null
}

/**
 * Resolves `spec` (a built-in name, `auto`/undefined, or a module path
 * relative to the working directory) to a driver.
 */
export async function loadDriver(spec: string | undefined, widgetUrl: string, origins: DriverOrigins): Promise<WidgetDriver> {
  const builtIn = builtInDriver(spec, widgetUrl, origins)
  if (builtIn) return builtIn
  const name = spec?.trim() ?? ''
  const path = isAbsolute(name) ? name : resolve(process.cwd(), name)
  let module: Record<string, unknown>
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    const hint = /Unexpected token 'export'|Cannot use import statement/.test(reason)
      ? ' (the file was loaded as CommonJS: name it .mts or .mjs, or put it in a package with "type": "module")'
      : ''
    throw new Error(`Could not load the widget driver ${path}: ${reason}${hint}`, { cause: error })
  }
  return assertDriver(module.default ?? module.driver, path)
}
