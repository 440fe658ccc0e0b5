/**
 * The serialised answers of read-only GraphQL documents, by request body: a client that sends the
 * same lookup again (the language server's hover and batch documents) is answered with the bytes
 * of the last answer, without parsing the body or walking the document, as long as nothing was
 * written since (AspectStore.generation: any write through the store, or a commit by another
 * connection to the file, drops every answer).
 *
 * One cache per running catalog: its compat mode, size limits and actor are fixed, and only
 * requests that passed the guard and the bearer check reach it, so the same body always gets the
 * same answer until the next write. Only answers of the entity lookups walked without the executor
 * (fastRead.ts) are kept: no mutation, no search, no error.
 */

export interface CachedAnswer {
  /** The answer's JSON text, as sent. */
  readonly text: string;
  /** Its length in UTF-8 bytes (Content-Length). */
  readonly bytes: number;
  /** The name of the operation the document runs, for the stats. */
  readonly operation: string;
}

export interface AnswerCacheLimits {
  /** Answers kept at most; the oldest goes first. */
  entries: number;
  /** Characters of bodies and answers kept at most, together. */
  chars: number;
  /** A body longer than this (characters) is not kept. */
  maxBodyChars: number;
}

export const DEFAULT_ANSWER_CACHE_LIMITS: AnswerCacheLimits = {
  entries: 1000,
  chars: 8 * 1024 * 1024,
  maxBodyChars: 64 * 1024,
};

export class AnswerCache {
  private readonly answers = new Map<string, CachedAnswer>();
  private chars = 0;
  private generation = -1;

  constructor(
    /** The store's generation (AspectStore.generation): the answers are valid while it stays the same. */
    private readonly currentGeneration: () => number,
    private readonly limits: AnswerCacheLimits = DEFAULT_ANSWER_CACHE_LIMITS,
  ) {}

  /** How many answers are kept (none once the store's generation moved on). */
  get size(): number {
    this.sync();
    return this.answers.size;
  }

  /**
   * The answer kept for this body, when nothing was written since it was made. Also notes the
   * store's generation: `seen` is what a caller passes to `keep` for an answer it makes now.
   */
  get(body: string): CachedAnswer | undefined {
    this.sync();
    return this.answers.get(body);
  }

  /** The generation the last `get` saw. */
  get seen(): number {
    return this.generation;
  }

  /**
   * Keeps an answer made from what the store held at generation `seen`: nothing when a `get`
   * since saw another generation. The store is not asked again here: an answer kept although a
   * write came in between is dropped by the next `get`, which asks it before answering anything.
   */
  keep(body: string, seen: number, answer: CachedAnswer): void {
    if (this.generation !== seen) return;
    if (body.length > this.limits.maxBodyChars) return;
    const size = body.length + answer.text.length;
    if (size > this.limits.chars / 8 || this.answers.has(body)) return;
    while (
      this.answers.size > 0 &&
      (this.answers.size >= this.limits.entries || this.chars + size > this.limits.chars)
    ) {
      const [oldest, old] = this.answers.entries().next().value as [string, CachedAnswer];
      this.answers.delete(oldest);
      this.chars -= oldest.length + old.text.length;
    }
    this.answers.set(body, answer);
    this.chars += size;
  }

  private sync(): number {
    const g = this.currentGeneration();
    if (g !== this.generation) {
      this.generation = g;
      this.answers.clear();
      this.chars = 0;
    }
    return g;
  }
}
