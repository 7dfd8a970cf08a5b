import { MAX_WIDGET_NAME, widgetName } from './widget-name.ts'

describe('widgetName: the one name of a widget (dock, start --widget, check-widget)', () => {
  it('is the page title when there is one, trimmed and clipped', () => {
    expect(widgetName('http://127.0.0.1:5174/app/', '  Acme Dialer ')).toBe('Acme Dialer')
    expect(widgetName('http://127.0.0.1:5174/', 'x'.repeat(200))).toHaveLength(MAX_WIDGET_NAME)
  })

  it('else the address, the same text whichever way the widget was loaded (no trailing slash, no query)', () => {
    expect(widgetName('http://127.0.0.1:5174/', null)).toBe('Widget at 127.0.0.1:5174')
    expect(widgetName('https://dialer.example:3000/softphone/?x=1#y', null)).toBe('Widget at dialer.example:3000/softphone')
    expect(widgetName('https://dialer.example/app', '   ')).toBe('Widget at dialer.example/app')
    expect(widgetName('not a url', null)).toBe('Widget at not a url')
  })
})
