/**
 * A write to the catalog — from a code action ("Push description to
 * catalog", "Append to catalog"), a command link, or a client command — runs with a cancellable
 * progress notification when it takes more than quietProgress.ts PROGRESS_DELAY_MS, says what came of it (written, unchanged, failed with why), and logs one
 * line in the "Catalog Lens" output channel. The token is in no argument and no message.
 *
 * The buttons (resultButtons, a pure choice):
 * - Undo on a written description: the same command with the text it replaced (`previous`), or an
 *   empty one where there was none.
 * - Undo on a written append (add features to a table or model, add model groups; add tags, glossary
 *   terms or owners of one ownership type to a dataset or a column): it runs the
 *   matching remove command with exactly the members the server says it added (`added`), never
 *   one that was there before; a member someone else appended meanwhile stays (the remove is a
 *   read-merge-write too). The undo speaks like any write.
 * - Retry (the same arguments again; the user's text is kept) only where trying again can
 *   succeed: the catalog unreachable or slow (unreachable, timeout), the aspect changing under
 *   every attempt (conflict), a server error or a strange answer (badResponse), after the fix its
 *   kind calls for (unauthorized, forbidden: Set Access Token; notConfigured: Configure Catalog;
 *   once that fix is made the write runs again by itself, and if it is abandoned the failure is
 *   shown again),
 *   and notFound (the entity may be created meanwhile). Never for badInput and rejected (the
 *   arguments or the catalog's validation refuse it, and would again; Restricted Mode) nor
 *   cancelled (the user asked for it; no message is shown).
 */
import * as vscode from 'vscode';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import { isRecord } from '../../model/src/json';
import {
  type CommandArgs,
  type CommandScope,
  type WriteCommandId,
  type WriteResult,
  writeOutcome,
} from '../../model/src/protocol';
import { ClientCommands, ServerCommands } from '../../model/src/commandIds';
import type { CatalogLanguageServer } from './languageClient';
import { describeError, type Log } from './log';
import { isCancellation } from './paletteCommands';
import { withQuietProgress, type ProgressHost } from './quietProgress';
import { urnLabel } from './userText';
import {
  afterFix,
  CONFIGURE_CATALOG,
  messageButtons,
  RETRY,
  SET_ACCESS_TOKEN,
  SHOW_LOG,
  UNDO,
  undoOf,
} from './writeButtons';

export { RETRY, UNDO } from './writeButtons';

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
      result = await withQuietProgress(
        VSCODE_PROGRESS,
        // The title quotes URNs from the document: a progress title renders `[label](command:…)` as a link.
        inertText(`Catalog Lens: ${title}…`, 'notification', MESSAGE_LIMIT),
        (token): Promise<WriteResult> => server.executeServerCommand(command, withUri, token),
      );
    } catch (e) {
      result = isCancellation(e)
        ? { status: 'failed', kind: 'cancelled', message: 'cancelled; nothing more was written' }
        : { status: 'failed', kind: 'badResponse', message: `the write did not run: ${describeError(e)}` };
    }
    if (!isWriteResult(result))
      result = { status: 'failed', kind: 'badResponse', message: 'the language server answered no write result' };
    log.info(clientWriteLogLine(command, withUri, writePathOf(withUri), result));
    if (result.kind !== 'cancelled') {
      const undo = undoOf(command, result, withUri);
      showWriteResult(result, title, {
        command,
        arg: withUri,
        retry: () => void run(command, arg, title),
        ...(undo
          ? {
              undo: () =>
                void run(undo.command, undo.arg as unknown as CommandArgs<typeof undo.command>, `Undoing: ${title}`),
            }
          : {}),
      });
    }
    return result;
  };
  return { run };
}

/** VS Code's progress notification and cancellation, for quietProgress.ts. */
const VSCODE_PROGRESS: ProgressHost<vscode.CancellationToken> = {
  cancellationSource: () => new vscode.CancellationTokenSource(),
  showProgress: (title, until, onCancel) =>
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (_progress, token) => {
        token.onCancellationRequested(onCancel);
        return until;
      },
    ),
};

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
 * Written and unchanged: an information message, with Undo on a written append. Failed: an error
 * message that names what was being written and why it failed, with Retry where trying again can
 * succeed and the fix its kind calls for (resultButtons). A message with none of these has Show
 * Log, so VS Code shows it whole (messageButtons). The server made the message inert
 * already; it is made so again here, whatever server sent it. The message is not awaited: the
 * write's caller (a code action, another extension) gets its result at once.
 */
export function showWriteResult(
  result: WriteResult,
  title: string,
  actions: { command: string; arg?: unknown; retry: () => void; undo?: () => void },
): void {
  const chosen = messageButtons(actions.command, result, actions.arg).filter((b) => b !== UNDO || actions.undo);
  // Never without a button: VS Code would show the message collapsed, cut to one line.
  const buttons = chosen.length > 0 ? chosen : [SHOW_LOG];
  if (result.status !== 'failed') {
    void vscode.window
      .showInformationMessage(inertText(`Catalog Lens: ${result.message}`, 'notification', MESSAGE_LIMIT), ...buttons)
      .then((pick) => {
        if (pick === UNDO) actions.undo?.();
        else if (pick === SHOW_LOG) void vscode.commands.executeCommand(ClientCommands.showOutput);
      });
    return;
  }
  // What the user asked for comes first: "Writing the description of db.users failed: no answer from …".
  const message = inertText(`Catalog Lens: ${title} failed: ${result.message}`, 'notification', MESSAGE_LIMIT);
  void vscode.window.showErrorMessage(message, ...buttons).then(async (pick) => {
    if (pick === RETRY) actions.retry();
    else if (pick === SHOW_LOG) void vscode.commands.executeCommand(ClientCommands.showOutput);
    else if (pick === SET_ACCESS_TOKEN || pick === CONFIGURE_CATALOG) {
      // The write is not lost: it runs again once the fix is made, else its failure is offered again.
      const fixed = await vscode.commands.executeCommand<unknown>(
        pick === SET_ACCESS_TOKEN ? ClientCommands.setAccessToken : ClientCommands.configure,
      );
      if (afterFix(fixed) === 'retry') actions.retry();
      else showWriteResult(result, title, actions);
    }
  });
}

/** "Writing the description of db.users", in the user's words. */
export function progressTitle(command: WriteCommandId, arg: unknown): string {
  const a = isRecord(arg) ? arg : {};
  const name = (key: string): string => (typeof a[key] === 'string' ? urnLabel(a[key]).label : '?');
  const count = (key: string): number => (Array.isArray(a[key]) ? a[key].length : 0);
  const many = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
  switch (command) {
    case ServerCommands.setDatasetDescription:
      return `Writing the description of ${name('urn')}`;
    case ServerCommands.setColumnDescription:
      return `Writing the description of column ${typeof a['fieldPath'] === 'string' ? a['fieldPath'] : '?'} of ${name('urn')}`;
    case ServerCommands.addFeaturesToTable:
      return `Adding ${many(count('features'), 'feature')} to ${name('table')}`;
    case ServerCommands.addFeaturesToModel:
      return `Adding ${many(count('features'), 'feature')} to ${name('model')}`;
    case ServerCommands.addGroupsToModel:
      return `Adding ${many(count('groups'), 'model group')} to ${name('model')}`;
    case ServerCommands.removeFeaturesFromTable:
      return `Removing ${many(count('features'), 'feature')} from ${name('table')}`;
    case ServerCommands.removeFeaturesFromModel:
      return `Removing ${many(count('features'), 'feature')} from ${name('model')}`;
    case ServerCommands.removeGroupsFromModel:
      return `Removing ${many(count('groups'), 'model group')} from ${name('model')}`;
    case ServerCommands.createEntity:
      return `Creating ${name('urn')}`;
    case ServerCommands.setMlDescription:
    case ServerCommands.setDescription:
      return `Writing the description of ${name('urn')}`;
    case ServerCommands.addTags:
      return `Adding ${many(count('tags'), 'tag')} to ${name('urn')}`;
    case ServerCommands.removeTags:
      return `Removing ${many(count('tags'), 'tag')} from ${name('urn')}`;
    case ServerCommands.addTerms:
      return `Adding ${many(count('terms'), 'glossary term')} to ${name('urn')}`;
    case ServerCommands.removeTerms:
      return `Removing ${many(count('terms'), 'glossary term')} from ${name('urn')}`;
    case ServerCommands.addOwners:
      return `Adding ${many(count('owners'), 'owner')} to ${name('urn')}`;
    case ServerCommands.removeOwners:
      return `Removing ${many(count('owners'), 'owner')} from ${name('urn')}`;
  }
  return 'Writing to the catalog';
}

/** One line per write for the "Catalog Lens" output channel: command, entity, path, result. */
export function clientWriteLogLine(command: string, arg: unknown, path: string, r: WriteResult): string {
  const a = isRecord(arg) ? arg : {};
  const entity = [a['urn'], a['table'], a['model']].find((v): v is string => typeof v === 'string') ?? '(no entity)';
  const column = typeof a['fieldPath'] === 'string' ? ` column ${a['fieldPath']}` : '';
  const outcome = writeOutcome(r);
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
