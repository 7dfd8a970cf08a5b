import { existsSync } from 'node:fs'

/** Ports used by scripts/serve-dist.mjs; keep the two in sync. */
export const PORTS = { harness: 4173, widget: 4174, hostile: 4175 } as const

/** Three origins of one site: same host, different ports. */
export const ORIGINS = {
  harness: `http://127.0.0.1:${PORTS.harness}`,
  widget: `http://127.0.0.1:${PORTS.widget}`,
  hostile: `http://127.0.0.1:${PORTS.hostile}`,
} as const

/** $CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv && existsSync(fromEnv)) return fromEnv
  return '/usr/bin/chromium'
}
