import { SETTING_TAKES_EFFECT } from '../../../../shared/settings'

/** The tag beside a setting saying when a change takes effect (docs/ui.md#the-workspace-ui settings; shared/settings.ts). */
export function Applies({ setting }: { setting: keyof typeof SETTING_TAKES_EFFECT }) {
  const now = SETTING_TAKES_EFFECT[setting] === 'now'
  return (
    <span
      className={`applies ${now ? 'applies-now' : 'applies-later'}`}
      title={
        now
          ? 'Takes effect as soon as it is saved'
          : 'Saved now; used from the next start of Swarmdesk (or swarmdesk serve)'
      }
    >
      {now ? 'applies now' : 'next start'}
    </span>
  )
}
