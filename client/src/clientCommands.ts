/**
 * The client commands that code actions name (ClientCommands): each asks the user for text or a
 * target, then runs the server's write command with progress and shows its WriteResult. From the
 * palette they act on the URN under the cursor, or ask for one.
 */
import * as vscode from 'vscode';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import { isRecord } from '../../model/src/json';
import {
  ClientCommands,
  Commands,
  KnownUrnsRequest,
  type CommandArgs,
  type WriteCommandId,
  type WriteResult,
} from '../../model/src/protocol';
import { PaletteCommands } from './commandIds';
import { reportFailure, urnUnderCursor, type CommandDeps } from './paletteCommands';
import type { CatalogLanguageServer } from './languageClient';
import { askColumn, askDescription, askUrn, pickUrn } from './pickers';
import { urnLabel, type UrnKindName } from './userText';

type Args = Record<string, unknown> | undefined;

const ML_KINDS: readonly UrnKindName[] = ['mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup'];

export function registerWriteCommands(deps: CommandDeps): void {
  const { context, server, log } = deps;
  const register = (id: string, run: (args: Args) => Promise<void>): void => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (args?: unknown) => {
        if (!vscode.workspace.isTrusted) {
          void vscode.window.showWarningMessage(
            'Catalog Lens writes nothing to the catalog in Restricted Mode: trust this workspace first.',
          );
          return undefined;
        }
        return run(isRecord(args) ? args : undefined).catch((e: unknown) => reportFailure(log, id, e));
      }),
    );
  };

  register(ClientCommands.writeDatasetDescription, async (args) => {
    const urn = await targetUrn(server, args?.['urn'], ['dataset'], 'Write Dataset Description: which dataset?');
    if (!urn) return;
    const description = await askDescription({
      title: `Description of dataset ${urnLabel(urn).label}`,
      ...currentText(args),
    });
    if (description === undefined) return;
    await runWrite(server, `Writing the description of ${urnLabel(urn).label}`, Commands.setDatasetDescription, {
      urn,
      description,
    });
  });

  register(ClientCommands.writeColumnDescription, async (args) => {
    let urn = stringArg(args?.['urn']);
    let fieldPath = stringArg(args?.['fieldPath']);
    if (!urn) {
      const at = await urnUnderCursor(server);
      if (at?.kind === 'dataset') {
        urn = at.urn;
        fieldPath = at.column;
      } else {
        urn = await askUrn(['dataset'], 'Write Column Description: which dataset?');
      }
    }
    if (!urn) return;
    fieldPath ??= await askColumn(urn);
    if (!fieldPath) return;
    const description = await askDescription({
      title: `Description of column ${fieldPath} of ${urnLabel(urn).label}`,
      ...currentText(args),
    });
    if (description === undefined) return;
    await runWrite(server, `Writing the description of column ${fieldPath}`, Commands.setColumnDescription, {
      urn,
      fieldPath,
      description,
    });
  });

  register(ClientCommands.addFeatureToTable, async (args) => {
    const feature = await targetUrn(
      server,
      args?.['feature'],
      ['mlFeature'],
      'Add Feature to Feature Table: which feature?',
    );
    if (!feature) return;
    const table = await pickTarget(server, 'mlFeatureTable', `Add ${urnLabel(feature).label} to which feature table?`);
    if (!table) return;
    await runWrite(
      server,
      `Adding ${urnLabel(feature).label} to ${urnLabel(table).label}`,
      Commands.addFeaturesToTable,
      { table, features: [feature] },
    );
  });

  register(ClientCommands.addFeatureToModel, async (args) => {
    const feature = await targetUrn(server, args?.['feature'], ['mlFeature'], 'Add Feature to Model: which feature?');
    if (!feature) return;
    const model = await pickTarget(server, 'mlModel', `Add ${urnLabel(feature).label} to which model?`);
    if (!model) return;
    await runWrite(
      server,
      `Adding ${urnLabel(feature).label} to ${urnLabel(model).label}`,
      Commands.addFeaturesToModel,
      { model, features: [feature] },
    );
  });

  register(ClientCommands.addGroupToModel, async (args) => {
    const model = await targetUrn(server, args?.['model'], ['mlModel'], 'Add Model Group: to which model?');
    if (!model) return;
    const group = await pickTarget(server, 'mlModelGroup', `Add ${urnLabel(model).label} to which model group?`);
    if (!group) return;
    await runWrite(
      server,
      `Adding ${urnLabel(model).label} to group ${urnLabel(group).label}`,
      Commands.addGroupsToModel,
      { model, groups: [group] },
    );
  });

  register(ClientCommands.createEntity, async (args) => {
    const urn = await targetUrn(server, args?.['urn'], ML_KINDS, 'Create Entity in Catalog: which ML entity?');
    if (!urn) return;
    const { label, description: where } = urnLabel(urn);
    const description = await askDescription({ title: `Create ${label} (${where}): description`, optional: true });
    if (description === undefined) return;
    await runWrite(server, `Creating ${label}`, Commands.createEntity, {
      urn,
      properties: description ? { description } : {},
    });
  });
}

/** The URN given by the code action, else the one under the cursor if it is of the right kind, else typed. */
async function targetUrn(
  server: CatalogLanguageServer,
  given: unknown,
  kinds: readonly UrnKindName[],
  title: string,
): Promise<string | undefined> {
  const urn = stringArg(given);
  if (urn) return urn;
  const at = await urnUnderCursor(server);
  if (at && (kinds as readonly string[]).includes(at.kind)) return at.urn;
  return askUrn(kinds, title);
}

async function pickTarget(
  server: CatalogLanguageServer,
  kind: UrnKindName,
  title: string,
): Promise<string | undefined> {
  const known = await server.request(KnownUrnsRequest, { kind });
  return pickUrn(known, kind, title);
}

/**
 * Runs one write with a progress notification and shows what happened. The active document's
 * URI goes along so its folder's settings (write path, actor) apply. The title quotes URNs from
 * the document: a progress title renders `[label](command:…)` as a link, as notifications do.
 */
async function runWrite<C extends WriteCommandId>(
  server: CatalogLanguageServer,
  title: string,
  command: C,
  arg: CommandArgs<C>,
): Promise<void> {
  const doc = vscode.window.activeTextEditor?.document;
  const withUri = doc && !doc.isUntitled ? { ...arg, uri: await server.protocolUri(doc.uri) } : arg;
  const result = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: inertText(`Catalog Lens: ${title}…`, 'notification', MESSAGE_LIMIT),
      cancellable: true,
    },
    (_progress, token): Promise<WriteResult> => server.executeServerCommand(command, withUri, token),
  );
  await showWriteResult(result);
}

/** The server made the message inert already; it is made so again here, whatever server sent it. */
async function showWriteResult(result: WriteResult): Promise<void> {
  const message = inertText(`Catalog Lens: ${result.message}`, 'notification', MESSAGE_LIMIT);
  if (result.status !== 'failed') {
    void vscode.window.showInformationMessage(message);
    return;
  }
  const fix =
    result.kind === 'unauthorized' || result.kind === 'forbidden'
      ? 'Set Access Token'
      : result.kind === 'notConfigured' || result.kind === 'unreachable'
        ? 'Configure Catalog'
        : undefined;
  const pick = await vscode.window.showErrorMessage(message, ...(fix ? [fix] : []));
  if (pick === 'Set Access Token') await vscode.commands.executeCommand(PaletteCommands.setAccessToken);
  else if (pick === 'Configure Catalog') await vscode.commands.executeCommand(PaletteCommands.configure);
}

function currentText(args: Args): { current?: string } {
  const current = args?.['current'];
  return typeof current === 'string' ? { current } : {};
}

function stringArg(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
