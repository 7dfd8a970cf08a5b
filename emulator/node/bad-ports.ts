/**
 * The ports Chromium refuses to load a page or a resource from, failing with
 * net::ERR_UNSAFE_PORT whatever answers there: the well-known ports of
 * protocols that an HTTP request could be smuggled into (SMTP, IRC, X11, …).
 * This is the Fetch Standard's "bad port" list
 * (https://fetch.spec.whatwg.org/#port-blocking) as Chromium applies it
 * (`kRestrictedPorts` in Chromium's net/base/port_util.cc); Chromium 150 does
 * not yet block the standard's two latest additions, 4190 and 6679, so they
 * are not here. A harness, widget or emulator on one of these ports never
 * loads in the browser, so the commands refuse them before anything starts.
 */
const CHROMIUM_RESTRICTED_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723,
  2049, 3659, 4045, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6697, 10080,
])

/** True when Chromium refuses `port` (net::ERR_UNSAFE_PORT). */
export const isRestrictedPort = (port: number): boolean => CHROMIUM_RESTRICTED_PORTS.has(port)

/**
 * The first of `ports` that Chromium refuses, or null. For a command that
 * takes a block of consecutive ports (the harness, the widget origin, …).
 */
export function restrictedPortAmong(ports: readonly number[]): number | null {
  return ports.find(isRestrictedPort) ?? null
}

/**
 * The first port from `from` upwards that starts a block of `size`
 * consecutive ports Chromium loads, up to 65535 (there is always one: the
 * list is finite and sparse above 10080).
 */
export function firstAllowedBlock(from: number, size: number): number {
  for (let port = from; port + size - 1 <= 65535; port += 1) {
    if (restrictedPortAmong(Array.from({ length: size }, (_, i) => port + i)) === null) return port
  }
  return 10081
}

/**
 * The sentence for a `--port` whose block of ports (`roles[0]` on `port`, each
 * next role on the next port) holds one that Chromium refuses, naming it and a
 * `--port` that works; null when Chromium loads them all.
 */
export function refusedPortSentence(port: number, roles: readonly string[]): string | null {
  const refused = restrictedPortAmong(roles.map((_, offset) => port + offset))
  if (refused === null) return null
  return `--port ${port} puts ${roles[refused - port]} on port ${refused}, ${REFUSED}; choose another port, e.g. --port ${firstAllowedBlock(port + 1, roles.length)}.`
}

const REFUSED = 'which Chromium refuses to load (net::ERR_UNSAFE_PORT)'

/** The roles of `ringside start`'s block of ports: the harness on --port, the widget origin on the next one. */
export const START_PORT_ROLES = ['the harness', 'the widget origin'] as const

/** The port a URL is on: the one it names, or its scheme's default. */
function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80))
}

/**
 * The sentence for a URL on a port Chromium refuses to load, e.g. `${subject} on port 6667, which Chromium
 * refuses to load (net::ERR_UNSAFE_PORT); ${instead}.`; null for a port it loads.
 */
export function refusedUrlSentence(url: URL, subject: string, instead: (port: number) => string): string | null {
  const port = portOf(url)
  return isRestrictedPort(port) ? `${subject} on port ${port}, ${REFUSED}; ${instead(port)}.` : null
}
