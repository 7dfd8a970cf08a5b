/**
 * The top bar's "Full page loads" switch: record navigation reloads the whole
 * page, as parts of the real CRM do (full-navigation.ts). `?navigation=` in
 * the address wins over it.
 */
import { useState } from 'react'
import { currentNavigationMode, storeNavigationMode } from './full-navigation.ts'

export function NavigationSwitch() {
  const [full, setFull] = useState(() => currentNavigationMode() === 'full')
  const fromQuery = new URLSearchParams(window.location.search).has('navigation')
  return (
    <label className="navigation-switch" title={fromQuery ? 'Set by ?navigation= in the address' : 'Record navigation reloads the page, as parts of the real CRM do'}>
      <input
        type="checkbox"
        checked={full}
        disabled={fromQuery}
        onChange={(event) => {
          storeNavigationMode(event.target.checked ? 'full' : 'in-page')
          setFull(currentNavigationMode() === 'full')
        }}
      />
      Full page loads
    </label>
  )
}
