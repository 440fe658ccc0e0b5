/**
 * Every write speaks (issue 15): a write to the catalog — from a code action ("Push description to
 * catalog", "Append to catalog"), a command link, or a client command — runs with a cancellable
 * progress notification, says what came of it (written, unchanged, failed with why), offers
 * Retry on a failure with the same arguments (the user's text is kept), and logs one line in
 * the "Catalog Lens" output channel. The token is in no argument and no message.
 */
import * as vscode from 'vscode';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import { isRecord } from '../../model/src/json';
import {
  Commands,
  type CommandArgs,
  type CommandScope,
  type WriteCommandId,
  type WriteResult,
} from '../../model/src/protocol';
import { PaletteCommands } from './commandIds';
import type { CatalogLanguageServer } from './languageClient';
import { describeError, type Log } from './log';
import { isCancellation } from './paletteCommands';
import { urnLabel } from './userText';

export const RETRY = 'Retry';

export interface WriteRunner {
  /**
   * Runs one write with progress and shows what happened; answers the server's WriteResult (a
   * failure the client met itself — the server not running, a cancellation — is one too). It does
   * not wait for the user to answer the message.
   */
  run<C extends WriteCommandId>(command: C, arg: CommandArgs<C>, title?: string): Promise<WriteResult>;
}

export function writeRunner(server: CatalogLanguageServer, log: Log): WriteRunner {
  const run = async <C extends WriteCommandId>(
    command: C,
    arg: CommandArgs<C>,
    title = progressTitle(command, arg),
  ): Promise<WriteResult> => {
    const withUri = await withDocumentUri(server, arg);
    let result: WriteResult;
    try {
      result = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          // The title quotes URNs from the document: a progress title renders `[label](command:…)` as a link.
          title: inertText(`Catalog Lens: ${title}…`, 'notification', MESSAGE_LIMIT),
          cancellable: true,
        },
        (_progress, token): Promise<WriteResult> => server.executeServerCommand(command, withUri, token),
      );
    } catch (e) {
      result = isCancellation(e)
        ? { status: 'failed', kind: 'cancelled', message: 'cancelled; nothing more was written' }
        : { status: 'failed', kind: 'badResponse', message: `the write did not run: ${describeError(e)}` };
    }
    if (!isWriteResult(result))
      result = { status: 'failed', kind: 'badResponse', message: 'the language server answered no write result' };
    log.info(clientWriteLogLine(command, withUri, writePathOf(withUri), result));
    if (result.kind !== 'cancelled') showWriteResult(result, title, () => void run(command, arg, title));
    return result;
  };
  return { run };
}

/** The active document goes along (unless the arguments name one), so its folder's settings (write path, actor) apply. */
async function withDocumentUri<C extends WriteCommandId>(
  server: CatalogLanguageServer,
  arg: CommandArgs<C>,
): Promise<CommandArgs<C>> {
  if ((arg as CommandScope).uri !== undefined) return arg;
  const doc = vscode.window.activeTextEditor?.document;
  return doc && !doc.isUntitled ? { ...arg, uri: await server.protocolUri(doc.uri) } : arg;
}

function writePathOf(arg: CommandScope): string {
  const scope = arg.uri ? vscode.Uri.parse(arg.uri) : undefined;
  return vscode.workspace.getConfiguration('catalogLens', scope).get<string>('writePath', 'aspects');
}

/**
 * Written and unchanged: an information message. Failed: an error message that names what was
 * being written and why it failed, with Retry (the same
 * write again) and the fix its kind calls for. The server made the message inert already; it is
 * made so again here, whatever server sent it. The message is not awaited: the write's caller
 * (a code action, another extension) gets its result at once.
 */
export function showWriteResult(result: WriteResult, title: string, retry: () => void): void {
  if (result.status !== 'failed') {
    void vscode.window.showInformationMessage(
      inertText(`Catalog Lens: ${result.message}`, 'notification', MESSAGE_LIMIT),
    );
    return;
  }
  // What the user asked for comes first: "Writing the description of db.users failed: no answer from …".
  const message = inertText(`Catalog Lens: ${title} failed: ${result.message}`, 'notification', MESSAGE_LIMIT);
  const fix =
    result.kind === 'unauthorized' || result.kind === 'forbidden'
      ? 'Set Access Token'
      : result.kind === 'notConfigured' || result.kind === 'unreachable'
        ? 'Configure Catalog'
        : undefined;
  void vscode.window.showErrorMessage(message, RETRY, ...(fix ? [fix] : [])).then(async (pick) => {
    if (pick === RETRY) retry();
    else if (pick === 'Set Access Token') await vscode.commands.executeCommand(PaletteCommands.setAccessToken);
    else if (pick === 'Configure Catalog') await vscode.commands.executeCommand(PaletteCommands.configure);
  });
}

/** "Writing the description of db.users", in the user's words. */
export function progressTitle(command: WriteCommandId, arg: unknown): string {
  const a = isRecord(arg) ? arg : {};
  const name = (key: string): string => (typeof a[key] === 'string' ? urnLabel(a[key]).label : '?');
  const count = (key: string): number => (Array.isArray(a[key]) ? a[key].length : 0);
  const many = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
  switch (command) {
    case Commands.setDatasetDescription:
      return `Writing the description of ${name('urn')}`;
    case Commands.setColumnDescription:
      return `Writing the description of column ${typeof a['fieldPath'] === 'string' ? a['fieldPath'] : '?'} of ${name('urn')}`;
    case Commands.addFeaturesToTable:
      return `Adding ${many(count('features'), 'feature')} to ${name('table')}`;
    case Commands.addFeaturesToModel:
      return `Adding ${many(count('features'), 'feature')} to ${name('model')}`;
    case Commands.addGroupsToModel:
      return `Adding ${name('model')} to ${many(count('groups'), 'model group')}`;
    case Commands.createEntity:
      return `Creating ${name('urn')}`;
    case Commands.setMlDescription:
      return `Writing the description of ${name('urn')}`;
  }
  return 'Writing to the catalog';
}

/** One line per write for the "Catalog Lens" output channel: command, entity, path, result. */
export function clientWriteLogLine(command: string, arg: unknown, path: string, r: WriteResult): string {
  const a = isRecord(arg) ? arg : {};
  const entity = [a['urn'], a['table'], a['model']].find((v): v is string => typeof v === 'string') ?? '(no entity)';
  const column = typeof a['fieldPath'] === 'string' ? ` column ${a['fieldPath']}` : '';
  const outcome =
    r.status === 'written'
      ? `written ${r.aspects.join(', ')}`
      : r.status === 'unchanged'
        ? 'unchanged'
        : `failed (${r.kind})`;
  return `write ${command} ${entity}${column} through the ${path} path: ${outcome} — ${r.message}`;
}

function isWriteResult(v: unknown): v is WriteResult {
  return (
    isRecord(v) &&
    (v['status'] === 'written' || v['status'] === 'unchanged' || v['status'] === 'failed') &&
    typeof v['message'] === 'string' &&
    (v['status'] !== 'written' || Array.isArray(v['aspects']))
  );
}
