import { useAppStore } from '../../store/store'

/**
 * A banner across the top of the page while the link to the workspace is down (the host was
 * restarted, stopped, or the network dropped), so a person notices before typing into a page
 * that cannot deliver. The client keeps reconnecting on its own (api/wsClient.ts); once it is
 * open again the banner goes and the page re-fetches what it missed. Nothing while the first
 * connection is still being made: the loading screen says that.
 */
export function ConnectionBanner() {
  const status = useAppStore((s) => s.connection.status)
  if (status !== 'reconnecting' && status !== 'closed') return null
  return (
    <div className="connection-banner" role="alert">
      <b>Connection to the workspace lost.</b>{' '}
      {status === 'reconnecting' ? (
        <>
          Reconnecting… If the host was stopped, start <code>swarmdesk serve</code> again in the same folder: this tab
          picks it up by itself.
        </>
      ) : (
        'This page is no longer connected; reload it.'
      )}
    </div>
  )
}
