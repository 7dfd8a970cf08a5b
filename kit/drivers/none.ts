/**
 * The driver for a widget the kit knows nothing about: it does nothing. The
 * journey still loads the widget, dials and watches the wire; whatever needs
 * a user inside the widget is reported as "skipped: needs a driver" unless
 * the widget does it by itself.
 */
import { defineDriver } from './types.ts'

export default defineDriver({ name: 'none (no interaction with the widget)' })
