/**
 * A task with a cancellable progress notification that shows only when the task runs longer than
 * a delay (writes.ts runs every write so). The editor comes in as a ProgressHost — writes.ts gives
 * VS Code's `window.withProgress` and `CancellationTokenSource` — so this module imports no
 * `vscode`, and its timing is tested without an editor (test/client/quietProgress.test.ts).
 */

/** What the task is given to stop early: VS Code's CancellationToken has this shape. */
export interface Cancellation {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface ProgressHost<C extends Cancellation> {
  /** A fresh cancellation source: its token goes to the task, `cancel` stops it. */
  cancellationSource(): { readonly token: C; cancel(): void; dispose(): void };
  /**
   * Shows a cancellable progress notification titled `title` until `until` settles; `onCancel`
   * runs when the user presses its Cancel.
   */
  showProgress(title: string, until: Promise<void>, onCancel: () => void): void;
}

/**
 * How long a write runs before its progress notification shows. VS Code keeps a progress
 * notification up at least 800 ms once shown (ProgressService.withNotificationProgress), so a write
 * that ends sooner would leave its finished progress, with its Cancel button, under the result: a
 * quick write shows the result alone, a slow one its progress from this moment until it ends.
 */
export const PROGRESS_DELAY_MS = 500;

/**
 * `task` with a cancellable progress notification titled `title`, shown only when the task runs
 * longer than `delayMs`; the notification's Cancel cancels the task's token. Resolves or rejects
 * as the task does.
 */
export async function withQuietProgress<T, C extends Cancellation>(
  host: ProgressHost<C>,
  title: string,
  task: (token: C) => Promise<T>,
  delayMs = PROGRESS_DELAY_MS,
): Promise<T> {
  const source = host.cancellationSource();
  const work = task(source.token);
  const timer = setTimeout(() => {
    // The notification ends with the task, whatever its outcome (the caller handles that).
    host.showProgress(
      title,
      work.then(
        () => undefined,
        () => undefined,
      ),
      () => source.cancel(),
    );
  }, delayMs);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
    source.dispose();
  }
}
