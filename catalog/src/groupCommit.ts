/**
 * Group commit: aspect writes that arrive while the previous commit was waiting for its fsync are
 * written together in one transaction and acknowledged after that one fsync. Each write runs in
 * its own savepoint (better-sqlite3 nests transactions that way), so a refused write undoes only
 * itself; the order of arrival is kept, so conditional writes see each other as if sequential.
 */
import type { AspectStore } from './store';

interface Pending {
  run: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly store: AspectStore) {}

  /** Runs `write` (which opens its own transaction) in the next group; settles after the commit. */
  submit<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: write, resolve: resolve as (v: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate runs after the poll phase: every request whose body has arrived joins this group.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const group = this.queue;
    this.queue = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      this.store.transaction(() => {
        for (const item of group) {
          try {
            outcomes.push({ ok: true, value: item.run() });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed: nothing of this group is durable, so nothing is acknowledged.
      for (const item of group) item.reject(error);
      return;
    }
    group.forEach((item, i) => {
      const o = outcomes[i]!;
      if (o.ok) item.resolve(o.value);
      else item.reject(o.error);
    });
  }
}
