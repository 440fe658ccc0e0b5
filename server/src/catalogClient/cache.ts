/**
 * An LRU cache with a time to live, and single flight: while a value is being fetched, every
 * other caller of the same key waits for that one fetch.
 */
export class LruTtlCache<V> {
  /** By key; each entry holds its key as first set, which `get` moves to the end under that same string. */
  private entries = new Map<string, { key: string; value: V; expires: number }>();
  /**
   * Expiry times are kept as milliseconds after this one: small integers, which V8 keeps in the
   * entry itself, where a clock's milliseconds since 1970 need a number object of their own.
   */
  private readonly epoch: number;
  /** Values set or swapped since replaceValues last ran. */
  private changed = 0;
  /**
   * Live values replaced or dropped before their time so far (a set over a fresh entry, a delete,
   * an eviction, a clear): what a reader that kept conclusions drawn from the values checks, with
   * `expiresAt`, before it trusts them again. Expiry itself is not counted: it is time's to tell.
   */
  replaced = 0;

  constructor(
    private maxEntries: number,
    private ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.epoch = now();
  }

  configure(maxEntries: number, ttlMs: number): void {
    this.maxEntries = Math.max(1, maxEntries);
    this.ttlMs = ttlMs;
    this.evict();
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= this.now() - this.epoch) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-insert: a Map iterates in insertion order, so the first key is the least recently used. The
    // key set first stays: the one asked with may be a slice of a longer string, which would keep it.
    this.entries.delete(key);
    this.entries.set(e.key, e);
    return e.value;
  }

  set(key: string, value: V): void {
    this.changed++;
    const before = this.entries.get(key);
    if (before) {
      if (before.expires > this.now() - this.epoch) this.replaced++;
      this.entries.delete(key);
    }
    const expires = this.now() - this.epoch + this.ttlMs;
    // `| 0` makes an integer within 32 bits a small integer to V8 (a clock's difference is a double).
    this.entries.set(key, { key, value, expires: expires === (expires | 0) ? expires | 0 : expires });
    this.evict();
  }

  /**
   * Replaces each value by `f` of it: the order and expiry times stay. The entries move to a new
   * table sized for them: a Map's table grows with the deletions of the moves to the end (each
   * read) until it is rebuilt, and is not shrunk while a quarter of it is in use.
   */
  replaceValues(f: (value: V) => V): void {
    // Nothing set or swapped since the last time: every value is already what `f` made of it.
    if (this.changed === 0) return;
    this.changed = 0;
    const now = this.now() - this.epoch;
    const next = new Map<string, { key: string; value: V; expires: number }>();
    for (const e of this.entries.values()) {
      if (e.expires <= now) continue; // expired: dropped here rather than kept until read
      e.value = f(e.value);
      next.set(e.key, e);
    }
    this.entries = next;
  }

  /**
   * The value of `key`, when it is in the cache, replaced by `value` (the same answer in another
   * form): its place in the order and its expiry stay.
   */
  swap(key: string, value: V): void {
    const e = this.entries.get(key);
    if (!e) return;
    e.value = value;
    this.changed++;
  }

  delete(key: string): void {
    if (this.entries.delete(key)) this.replaced++;
  }

  clear(): void {
    if (this.entries.size > 0) this.replaced++;
    this.entries.clear();
  }

  /** When the value of `key` expires (milliseconds since 1970, as `now` counts), or undefined when it is not kept. */
  expiresAt(key: string): number | undefined {
    const e = this.entries.get(key);
    return e && e.expires + this.epoch;
  }

  get size(): number {
    return this.entries.size;
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
      this.replaced++;
    }
  }
}

/**
 * Runs one fetch per key at a time; later callers share the running promise. A fetch of many keys
 * (a resolve batch of 10,000 URNs) is one flight: each key's own promise is made only when a later
 * caller asks for that key, and one callback forgets the keys when the fetch settles — not a
 * promise and a callback per key, which a batch nobody else asks about would make and run for
 * nothing.
 */
export class SingleFlight<V> {
  private readonly running = new Map<string, Flight<V>>();

  get(key: string): Promise<V> | undefined {
    const flight = this.running.get(key);
    if (!flight) return undefined;
    flight.picked ??= new Map();
    let p = flight.picked.get(key);
    if (!p) {
      p = flight.pick(key);
      flight.picked.set(key, p);
    }
    return p;
  }

  /** Registers `promise` as the fetch of every key in `keys` until it settles; `pick` answers a key's value from it. */
  track(keys: readonly string[], promise: Promise<unknown>, pick: (key: string) => Promise<V>): void {
    const flight: Flight<V> = { pick, picked: undefined };
    for (const k of keys) this.running.set(k, flight);
    const forget = (): void => {
      for (const k of keys) if (this.running.get(k) === flight) this.running.delete(k);
    };
    promise.then(forget, forget);
  }

  get size(): number {
    return this.running.size;
  }
}

/** One fetch of SingleFlight: how a key's value is picked from it, and the promises picked so far. */
interface Flight<V> {
  readonly pick: (key: string) => Promise<V>;
  picked: Map<string, Promise<V>> | undefined;
}

/**
 * `p`, or undefined as soon as `signal` is aborted: a cancelled caller stops waiting, while the
 * work behind `p` goes on (and fills the cache for the next caller).
 */
export function raceCancel<T>(p: Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
  if (!signal) return p;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
