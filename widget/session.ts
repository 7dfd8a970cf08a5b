/**
 * What the reference widget keeps across reloads, as a real softphone keeps its
 * session: the login (until the user logs out) and the user's settings. It lives
 * in the widget origin's own localStorage, which neither the CRM page nor any
 * other site can read (storage is partitioned by origin, and in a third-party
 * frame also by top-level site).
 */

/**
 * The user's own line when none is given (fromNumber of outgoing calls). A
 * valid E.164 number (ITU-T E.164: + country code, then the national number):
 * the North American 555-0100…0199 range is set aside for fiction, so it rings
 * no one, and area code 617 matches the seed data's contacts.
 */
export const DEFAULT_MY_NUMBER = '+16175550100'

export interface RememberedSession {
  loggedIn: boolean
  /** Ask for a second press before dialling the CRM's DIAL_NUMBER. */
  confirmDial: boolean
}

/** The localStorage keys, one per fact: a key is absent when its fact is at its default. */
export const SESSION_KEYS = { loggedIn: 'ringside-phone:logged-in', confirmDial: 'ringside-phone:confirm-dial' } as const

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/** The widget origin's localStorage, or null where it is refused (storage blocked for third-party frames, a sandbox without allow-same-origin). */
export function widgetStorage(): Store | null {
  try {
    const storage = window.localStorage
    storage.getItem(SESSION_KEYS.loggedIn)
    return storage
  } catch {
    return null
  }
}

/** What the last visit left; nothing remembered (or no storage) reads as logged out with default settings. */
export function readSession(storage: Store | null): RememberedSession {
  const get = (key: string) => {
    try {
      return storage?.getItem(key) ?? null
    } catch {
      return null
    }
  }
  return { loggedIn: get(SESSION_KEYS.loggedIn) === '1', confirmDial: get(SESSION_KEYS.confirmDial) === '1' }
}

/** Keeps what changed; logging out removes the login. A storage that refuses the write leaves the session to this page. */
export function rememberSession(storage: Store | null, change: Partial<RememberedSession>): void {
  if (!storage) return
  try {
    for (const name of ['loggedIn', 'confirmDial'] as const) {
      const value = change[name]
      if (value === undefined) continue
      if (value) storage.setItem(SESSION_KEYS[name], '1')
      else storage.removeItem(SESSION_KEYS[name])
    }
  } catch {
    // Quota or a storage the browser turned off: the session lasts as long as the page.
  }
}
