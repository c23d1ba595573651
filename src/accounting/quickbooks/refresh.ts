/**
 * A mirror pass now, whatever the mirror's age (mirror/mirror.ts): after a write, so the service's
 * copy of the books (ledger.account_transactions, bills to pay) shows it at once. A Mirror whose
 * maximum age is 0 always runs a pass, through the same lease as every other; when another call
 * holds the lease its pass may have started before the write, so this waits for a pass that ended
 * after the write (a few seconds at most). The write is done either way: a pass that cannot be
 * made now is left to the next call, which runs one (the mirror being older than its age).
 */
import { getMirror } from '../mirror/store.js';
import { Mirror, type MirrorPlace, type MirrorSource } from '../mirror/mirror.js';

const WAIT_MS = 5_000;
const POLL_MS = 100;

export async function refreshMirror<S>(place: MirrorPlace, source: MirrorSource<S>, writtenAt: number): Promise<boolean> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    try {
      await new Mirror(place.db, place.organisationId, source, { maxAgeMs: 0 }).ready();
      const row = await getMirror(place.db, place.organisationId);
      if (row?.synced_at && Date.parse(row.synced_at) >= writtenAt) return true;
    } catch {
      // the write stands; the next call's pass brings the mirror up to date
      return false;
    }
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
