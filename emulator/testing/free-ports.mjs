// The one home for picking free ports in tests, benchmarks and scripts. A Ringside server takes two consecutive
// ports (the harness and, on the next one, the widget origin), so a port is only useful with its neighbour free too.
//
// Ports are picked below Linux's ephemeral range (32768–60999 by default, /proc/sys/net/ipv4/ip_local_port_range):
// a port the OS hands out for `listen(0)` is one it may also give to any outgoing connection on the machine in the
// moment between the check and the server's own bind, which made servers find their widget port taken. Below the
// range, only another program that asks for that port by number can take it.
import { portFree } from '../node/free-port.mjs'

export { portFree }

/** The block picked from: [FIRST_PORT, LAST_PORT), below the ephemeral range and above the common fixed ports. */
export const FIRST_PORT = 20_000
export const LAST_PORT = 32_000

/**
 * A block of `count` consecutive free ports, returned as its first port: `freePortBlock(2)` is a harness port whose
 * widget origin (port + 1) is free too. Random within [FIRST_PORT, LAST_PORT), so parallel test workers rarely
 * meet; 50 tries at most, then an error that says so.
 */
export async function freePortBlock(count = 2, host = '127.0.0.1') {
  if (!Number.isInteger(count) || count < 1 || count > 100) throw new Error(`freePortBlock: count must be 1 to 100, got ${count}`)
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = FIRST_PORT + Math.floor(Math.random() * (LAST_PORT - FIRST_PORT - count))
    let free = true
    for (let port = first; free && port < first + count; port++) free = await portFree(port, host)
    if (free) return first
  }
  throw new Error(`no ${count} consecutive free ports on ${host} between ${FIRST_PORT} and ${LAST_PORT} after 50 tries`)
}

/** A port p such that p and p + 1 (the widget origin) are both free right now. */
export function freePortPair(host = '127.0.0.1') {
  return freePortBlock(2, host)
}
