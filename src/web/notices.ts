/**
 * Every confirmation the admin pages show after a change (the redirect's `?done=<code>`), declared
 * once, keyed by page: the wording of each notice sits beside all the others, so it is reviewed and
 * kept consistent together rather than scattered over the route files. A route says which page's
 * notices it shows (`noticeFrom(request, NOTICES.members)`), and `keyof typeof NOTICES.<page>` types
 * the codes it redirects with, so a code with no text is a type error.
 */

export const NOTICES = {
  account: {
    disconnected: 'Disconnected. The app can no longer use your books; its tokens stopped working at once.',
    joined:
      'You accepted the invitation. Apps you connected for "all my organisations" now cover this organisation too; others ask when you next connect them.',
  },
  accounting: {
    connected: 'Connected. The books are now read from there.',
    disconnected: 'Disconnected. Calls for these books fail until it is connected again.',
  },
  apiClients: { revoked: 'API client revoked. The tokens it held stopped working at once.' },
  apps: {
    registered: 'App registered. Members of this organisation see it as verified when they connect it.',
    removed: 'App removed. Its connections and tokens stopped working at once.',
    verified: 'App verified for this organisation. Its members now see it as verified when they connect it; other organisations decide for themselves.',
    blocked:
      'App blocked for this organisation. Its tokens are refused for this organisation from the next call, and no one can connect it to this ' +
      'organisation; other organisations decide for themselves.',
    unblocked: 'App unblocked for this organisation. Existing connections to this organisation work again.',
  },
  bankAccount: { removed: 'The import was removed: its lines and its statements are gone, and the balances are as they were before it.' },
  billFilters: {
    created: 'Filter saved.',
    changed: 'Filter changed.',
    unchanged: 'Nothing was different, so nothing was changed.',
    deleted: 'Filter deleted. The bills it matched are not touched.',
  },
  connections: {
    revoked: 'Disconnected for this organisation. Its tokens stopped acting for it at once.',
  },
  document: { published: 'Published to the books.' },
  documents: { deleted: 'Document deleted, with its file and its Bills to Pay entry.' },
  members: {
    changed: 'Role changed. It applies from the next call.',
    unchanged: 'That person already had that role.',
    removed: 'Member removed. Their apps can no longer act for this organisation.',
    withdrawn: 'Invitation withdrawn. Its link no longer works.',
  },
  reconcile: {
    matched: 'Matched: the line is reconciled and linked to its document.',
    unmatched: 'Match undone: the line is to reconcile again, and what the match booked is taken out of the books.',
    marked: 'Marked reconciled elsewhere.',
    unmarked: 'The line is to reconcile again.',
  },
  roles: {
    saved: 'Role permissions saved. They apply from the next call.',
    unchanged: 'Nothing needed saving: the permissions were already as ticked.',
  },
} as const satisfies Record<string, Record<string, string>>;
