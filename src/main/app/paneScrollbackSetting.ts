import {
  DEFAULT_PANE_SCROLLBACK_LINES,
  MAX_PANE_SCROLLBACK_LINES,
  MIN_PANE_SCROLLBACK_LINES
} from '../../shared/paneScrollback'
import type { LoadedSettings } from '../runtime/permissions'
import { settingValue } from '../runtime/session'

/**
 * The `paneScrollbackLines` setting: lines of scrollback each pane's terminal keeps in the page
 * (src/shared/paneScrollback.ts). The highest source that sets it wins (docs/permissions.md#permissions: user < project <
 * local < session), counting only whole numbers from 100 to 100,000 (a settings file with another
 * value does not load); absent, it is {@link DEFAULT_PANE_SCROLLBACK_LINES}. Main's own copy of
 * each pane (panes.ts) keeps its own length whatever this says.
 */
export function paneScrollbackLinesOf(settings: Pick<LoadedSettings, 'sources'>): number {
  return settingValue(settings, 'paneScrollbackLines', isScrollbackLines) ?? DEFAULT_PANE_SCROLLBACK_LINES
}

const isScrollbackLines = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= MIN_PANE_SCROLLBACK_LINES && v <= MAX_PANE_SCROLLBACK_LINES
