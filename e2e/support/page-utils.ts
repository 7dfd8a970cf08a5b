import { requireSafeUrl } from '../../shared/url/safe-url.ts'

/**
 * Calls `target[method](...args)` by name, for fixtures that let Playwright
 * drive every SDK method through one window function. Trailing `undefined`
 * arguments are left out (a no-arg method gets no argument). Throws a clear
 * error for a name that is not a method, so a typo in a test fails loudly.
 */
export function invokeMethod(target: object, method: string, ...args: unknown[]): unknown {
  const fn: unknown = Reflect.get(target, method)
  if (typeof fn !== 'function') throw new TypeError(`${method} is not a method of ${target.constructor.name}`)
  while (args.length > 0 && args[args.length - 1] === undefined) args.pop()
  return Reflect.apply(fn, target, args)
}

/** The query parameter `name` of this page, or `null`. */
export function queryParam(name: string): string | null {
  return new URL(location.href).searchParams.get(name)
}

/** The widget iframe's size on the fixture host pages (the benchmark compares them like for like). */
export const FIXTURE_FRAME_SIZE = { width: 420, height: 640 } as const

/**
 * Embeds `src` in an iframe the way the CRM does (`allow="microphone;
 * autoplay"`), before any script of the page reacts to it. Returns the frame.
 * `src` must pass shared/url/safe-url.ts (an absolute http(s) URL): a fixture's
 * query parameters come from whoever opened the page, and a `javascript:` src
 * would run on the fixture's origin. Throws otherwise, naming the value.
 */
export function embedFrame(src: string, title: string, parent: HTMLElement = document.body): HTMLIFrameElement {
  const frame = document.createElement('iframe')
  frame.title = title
  frame.allow = 'microphone; autoplay'
  frame.width = String(FIXTURE_FRAME_SIZE.width)
  frame.height = String(FIXTURE_FRAME_SIZE.height)
  frame.src = requireSafeUrl(src, `${title} frame URL`)
  parent.append(frame)
  return frame
}
