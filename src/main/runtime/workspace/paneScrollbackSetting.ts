import { DEFAULT_PANE_SCROLLBACK_LINES, MAX_PANE_SCROLLBACK_LINES, MIN_PANE_SCROLLBACK_LINES } from '../../../shared/paneScrollback'
import type { LoadedSettings } from '../permissions/settings'

/**
 * The `paneScrollbackLines` setting: lines of scrollback each pane's terminal keeps in the page
 * (src/shared/paneScrollback.ts). The highest source that sets it wins (SPEC §4: user < project <
 * local < session); absent, or a value outside 100–100,000 whole lines (which a settings file
 * cannot load with), it is {@link DEFAULT_PANE_SCROLLBACK_LINES}. Main's own copy of each pane
 * (panes.ts) keeps its own length whatever this says.
 */
export function paneScrollbackLinesOf(settings: Pick<LoadedSettings, 'sources'>): number {
  let lines: unknown
  for (const source of settings.sources) {
    const value = (source.data as Record<string, unknown>).paneScrollbackLines
    if (value !== undefined) lines = value
  }
  return typeof lines === 'number' && Number.isInteger(lines) && lines >= MIN_PANE_SCROLLBACK_LINES && lines <= MAX_PANE_SCROLLBACK_LINES ? lines : DEFAULT_PANE_SCROLLBACK_LINES
}
