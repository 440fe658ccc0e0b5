/**
 * `pushDataHubYaml`, for editors without the extension's own confirmation: the writes a push of a
 * DataHub YAML file (dataset, glossary, data product; or of one entry) makes are listed to the user with
 * `window/showMessageRequest`, a bounded number per message, and each batch runs only once the
 * user picks Push for it; then through the same write commands as anywhere else (each one's result
 * told as any write's). An editor that cannot show a message with actions gets nothing written.
 * What the file says and a push does not write (a structured property's display name) is named in
 * the result's message.
 */
import { MessageType, type CancellationToken, type Connection } from 'vscode-languageserver';
import type {
  DataHubYamlParams,
  DataHubYamlResult,
  DataHubYamlWrite,
  PushDataHubYamlResult,
  WriteResult,
} from '../../../model/src/protocol';

export const PUSH = 'Push';
export const CANCEL = 'Cancel';
/** At most this many writes, and this many characters, in one message. */
export const PUSH_BATCH = 10;
export const PUSH_MESSAGE_LIMIT = 2000;

export interface YamlPushDeps {
  connection: Pick<Connection, 'sendRequest'>;
  plan(params: DataHubYamlParams, token: CancellationToken): Promise<DataHubYamlResult>;
  write(w: DataHubYamlWrite, token: CancellationToken): Promise<WriteResult>;
  trusted(): boolean;
  /** The editor shows `window/showMessageRequest` actions. */
  messageActions(): boolean;
}

export async function pushDataHubYaml(
  deps: YamlPushDeps,
  args: unknown,
  token: CancellationToken,
): Promise<PushDataHubYamlResult> {
  const failed = (message: string): PushDataHubYamlResult => ({ status: 'failed', message, results: [] });
  const a = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  if (typeof a['uri'] !== 'string') return failed('pushDataHubYaml: uri must be a string');
  if (a['entry'] !== undefined && typeof a['entry'] !== 'string')
    return failed('pushDataHubYaml: entry must be the URN of an entry');
  if (!deps.trusted())
    return failed('This workspace is not trusted (Restricted Mode): Catalog Lens writes nothing to the catalog here.');
  const plan = await deps.plan(
    { uri: a['uri'], ...(typeof a['entry'] === 'string' ? { entry: a['entry'] } : {}) },
    token,
  );
  if (plan.error !== undefined) return failed(plan.error);
  const unpushed = plan.unpushed.length > 0 ? ` Not pushed: ${plan.unpushed.join('; ')}` : '';
  if (plan.writes.length === 0)
    return {
      status: 'nothing',
      message:
        plan.unpushed.length > 0
          ? `Nothing Catalog Lens can push.${unpushed}`
          : 'Nothing to push: the catalog already says what the file says.',
      results: [],
    };
  if (!deps.messageActions())
    return failed(
      'This editor cannot show the writes to confirm them (window/showMessageRequest): nothing was written.',
    );
  const batches = batchesOf(plan.writes);
  const results: PushDataHubYamlResult['results'] = [];
  let done = 0;
  for (const batch of batches) {
    const range = batches.length === 1 ? '' : ` (${done + 1}–${done + batch.length} of ${plan.writes.length})`;
    const message = [
      `Catalog Lens: push ${count(batch.length)} to the catalog${range}?`,
      ...batch.map((w) => `• ${w.line}`),
    ].join('\n');
    const pick = await deps.connection.sendRequest<{ title: string } | null>('window/showMessageRequest', {
      type: MessageType.Warning,
      message,
      actions: [{ title: PUSH }, { title: CANCEL }],
    });
    if (pick?.title !== PUSH || token.isCancellationRequested) break;
    for (const w of batch) results.push({ line: w.line, result: await deps.write(w, token) });
    done += batch.length;
  }
  if (results.length === 0) return { status: 'cancelled', message: 'Nothing was written.', results };
  const of = (s: WriteResult['status']): number => results.filter((r) => r.result.status === s).length;
  const left = plan.writes.length - results.length;
  return {
    status: 'pushed',
    message:
      `${count(results.length)} run: ${of('written')} written, ${of('unchanged')} unchanged, ${of('failed')} failed` +
      (left > 0 ? `; ${count(left)} not run (cancelled)` : '') +
      '.' +
      unpushed,
    results,
  };
}

/** The writes in order, at most PUSH_BATCH and PUSH_MESSAGE_LIMIT characters of lines per batch. */
export function batchesOf(writes: readonly DataHubYamlWrite[]): DataHubYamlWrite[][] {
  const out: DataHubYamlWrite[][] = [];
  let batch: DataHubYamlWrite[] = [];
  let size = 0;
  for (const w of writes) {
    if (batch.length > 0 && (batch.length >= PUSH_BATCH || size + w.line.length + 3 > PUSH_MESSAGE_LIMIT)) {
      out.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(w);
    size += w.line.length + 3;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

function count(n: number): string {
  return `${n} write${n === 1 ? '' : 's'}`;
}
