/**
 * The buttons of a write's result message, chosen as pure functions (no vscode import: unit-tested
 * in test/client/writeButtons.test.ts). Why these buttons: client/src/writes.ts.
 */
import { isRecord } from '../../model/src/json';
import { UNDO_OF, type CatalogErrorKind, type WriteCommandId, type WriteResult } from '../../model/src/protocol';
import { ServerCommands } from '../../model/src/commandIds';

export const RETRY = 'Retry';
export const UNDO = 'Undo';
export const SET_ACCESS_TOKEN = 'Set Access Token';
export const CONFIGURE_CATALOG = 'Configure Catalog';
export const SHOW_LOG = 'Show Log';

/** The failures a second try can end differently (see the file's comment). */
const RETRYABLE: ReadonlySet<CatalogErrorKind> = new Set<CatalogErrorKind>([
  'unreachable',
  'timeout',
  'conflict',
  'badResponse',
  'unauthorized',
  'forbidden',
  'notConfigured',
  'notFound',
]);

/** The buttons of a write's result message, in order (see the file's comment). */
export function resultButtons(command: string, result: WriteResult, arg?: unknown): string[] {
  if (result.status === 'written') return undoOf(command, result, arg) ? [UNDO] : [];
  if (result.status !== 'failed' || result.kind === 'cancelled') return [];
  const fix =
    result.kind === 'unauthorized' || result.kind === 'forbidden'
      ? SET_ACCESS_TOKEN
      : result.kind === 'notConfigured' || result.kind === 'unreachable'
        ? CONFIGURE_CATALOG
        : undefined;
  return [...(RETRYABLE.has(result.kind) ? [RETRY] : []), ...(fix ? [fix] : [])];
}

/**
 * The buttons a result message shows: resultButtons, else Show Log (the write's line in the
 * "Catalog Lens" output channel). VS Code shows a notification without buttons collapsed, on one
 * line cut with an ellipsis (NotificationViewItem: expanded only with primary actions), so a
 * result message without one would be cut short. A cancelled write shows no message.
 */
export function messageButtons(command: string, result: WriteResult, arg?: unknown): string[] {
  if (result.status === 'failed' && result.kind === 'cancelled') return [];
  const buttons = resultButtons(command, result, arg);
  return buttons.length > 0 ? buttons : [SHOW_LOG];
}

/**
 * What follows a fix picked from a failed write's message (Set Access Token, Configure Catalog):
 * when the fix was made (a token stored, a catalog configured), the write runs again with the
 * same arguments; when it was abandoned, the failure is shown again, so the write stays retryable.
 */
export function afterFix(fixed: unknown): 'retry' | 'showAgain' {
  return fixed === true ? 'retry' : 'showAgain';
}

/** The description commands, whose written result carries the text they replaced (`previous`). */
const DESCRIPTION_COMMANDS: ReadonlySet<string> = new Set([
  ServerCommands.setDatasetDescription,
  ServerCommands.setColumnDescription,
  ServerCommands.setMlDescription,
  ServerCommands.setDescription,
]);

/**
 * The write that undoes a written description: the same command with the text it replaced, or an
 * empty one where there was none (DataHub's UI, like the catalog's readers, shows an empty edited
 * description as none: the ingested one, if any, shows again). A link added with it stays.
 */
function descriptionUndo(
  command: string,
  result: WriteResult,
  arg: unknown,
): { command: WriteCommandId; arg: Record<string, unknown> } | undefined {
  if (result.status !== 'written' || !DESCRIPTION_COMMANDS.has(command) || !isRecord(arg)) return undefined;
  // An undo is not undone again from its own message.
  if (arg['restoring'] === true) return undefined;
  const previous: unknown = result.previous;
  if (previous !== null && typeof previous !== 'string') return undefined;
  if (typeof arg['urn'] !== 'string') return undefined;
  const scope = typeof arg['uri'] === 'string' ? { uri: arg['uri'] } : {};
  const column = command === ServerCommands.setColumnDescription ? { fieldPath: arg['fieldPath'] } : {};
  return {
    command: command as WriteCommandId,
    arg: { ...scope, urn: arg['urn'], ...column, description: previous ?? '', restoring: true },
  };
}

/**
 * The write that undoes a written append: the matching remove command with the same target and
 * exactly the members the append added (none: nothing to undo). The document's uri goes along,
 * so the same folder's settings apply.
 */
export function undoOf(
  command: string,
  result: WriteResult,
  arg?: unknown,
): { command: WriteCommandId; arg: Record<string, unknown> } | undefined {
  const description = descriptionUndo(command, result, arg);
  if (description) return description;
  // What another server answered is checked: only a list of URN texts is sent back.
  const added: unknown = result.added;
  if (result.status !== 'written' || !Array.isArray(added) || added.length === 0) return undefined;
  if (!added.every((m): m is string => typeof m === 'string')) return undefined;
  if (!Object.prototype.hasOwnProperty.call(UNDO_OF, command)) return undefined;
  const a = isRecord(arg) ? arg : {};
  const undo = UNDO_OF[command as keyof typeof UNDO_OF];
  const scope = typeof a['uri'] === 'string' ? { uri: a['uri'] } : {};
  switch (undo) {
    case ServerCommands.removeFeaturesFromTable:
      return { command: undo, arg: { ...scope, table: a['table'], features: [...added] } };
    case ServerCommands.removeFeaturesFromModel:
      return { command: undo, arg: { ...scope, model: a['model'], features: [...added] } };
    case ServerCommands.removeGroupsFromModel:
      return { command: undo, arg: { ...scope, model: a['model'], groups: [...added] } };
    case ServerCommands.removeTags:
    case ServerCommands.removeTerms: {
      const column = typeof a['fieldPath'] === 'string' ? { fieldPath: a['fieldPath'] } : {};
      const list = undo === ServerCommands.removeTags ? 'tags' : 'terms';
      return { command: undo, arg: { ...scope, urn: a['urn'], [list]: [...added], ...column } };
    }
    case ServerCommands.removeOwners:
      // Only as owners of the type they were added as: the same user may own the dataset otherwise too.
      return { command: undo, arg: { ...scope, urn: a['urn'], owners: [...added], ownershipType: a['ownershipType'] } };
  }
}
