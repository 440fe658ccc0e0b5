/**
 * The client commands that code actions name (ClientCommands): each asks the user for text or a
 * target, then runs the server's write command through client/src/writes.ts (progress, the result, Retry). From the
 * palette they act on the URN under the cursor, or ask for one.
 */
import * as vscode from 'vscode';
import { isRecord } from '../../model/src/json';
import { ML_KINDS, type CatalogKind } from '../../model/src/kinds';
import {
  DescriptionRequest,
  KnownUrnsRequest,
  MembersRequest,
  type CommandArgs,
  type WriteCommandId,
  type WriteResult,
} from '../../model/src/protocol';
import { ClientCommands, ServerCommands } from '../../model/src/commandIds';
import { reportFailure, urnUnderCursor, type CommandDeps } from './paletteCommands';
import type { CatalogLanguageServer } from './languageClient';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import { askColumn, askDescription, askUrn, pickMembers, pickUrn } from './pickers';
import { rank, rankFeatureTables, rankModelGroups, rankModels } from './pickOrder';
import { urnLabel } from './userText';
import { progressTitle, writeRunner } from './writes';

type Args = Record<string, unknown> | undefined;

export function registerWriteCommands(deps: CommandDeps): void {
  const { context, server, log } = deps;
  const writes = writeRunner(server, log);
  // Write commands VS Code runs itself (code actions such as "Push description to catalog", command links) speak too.
  // The server checks the arguments: they are passed as given.
  server.runWritesWith((command, arg) =>
    writes.run(command, (isRecord(arg) ? arg : {}) as unknown as CommandArgs<typeof command>),
  );
  const runWrite = <C extends WriteCommandId>(title: string, command: C, arg: CommandArgs<C>): Promise<WriteResult> =>
    writes.run(command, arg, title);
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
      ...(await currentText(server, args, urn)),
    });
    if (description === undefined) return;
    await runWrite(`Writing the description of ${urnLabel(urn).label}`, ServerCommands.setDatasetDescription, {
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
      ...(await currentText(server, args, urn, fieldPath)),
    });
    if (description === undefined) return;
    await runWrite(`Writing the description of column ${fieldPath}`, ServerCommands.setColumnDescription, {
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
    // The feature's own table first (pickOrder.ts): Enter on the first item must not add it elsewhere.
    const { known, inDocument } = await seen(server, 'mlFeatureTable');
    const table = await pickUrn(
      rankFeatureTables(feature, known, inDocument),
      'mlFeatureTable',
      `Add ${urnLabel(feature).label} to which feature table?`,
    );
    if (!table) return;
    await runWrite(`Adding ${urnLabel(feature).label} to ${urnLabel(table).label}`, ServerCommands.addFeaturesToTable, {
      table,
      features: [feature],
    });
  });

  register(ClientCommands.addFeatureToModel, async (args) => {
    const feature = await targetUrn(server, args?.['feature'], ['mlFeature'], 'Add Feature to Model: which feature?');
    if (!feature) return;
    const { known, inDocument } = await seen(server, 'mlModel');
    const model = await pickUrn(
      rankModels(known, inDocument),
      'mlModel',
      `Add ${urnLabel(feature).label} to which model?`,
    );
    if (!model) return;
    await runWrite(`Adding ${urnLabel(feature).label} to ${urnLabel(model).label}`, ServerCommands.addFeaturesToModel, {
      model,
      features: [feature],
    });
  });

  register(ClientCommands.addGroupToModel, async (args) => {
    const model = await targetUrn(server, args?.['model'], ['mlModel'], 'Add Model Group: to which model?');
    if (!model) return;
    const { known, inDocument } = await seen(server, 'mlModelGroup');
    const group = await pickUrn(
      rankModelGroups(model, known, inDocument),
      'mlModelGroup',
      `Add which model group to ${urnLabel(model).label}?`,
    );
    if (!group) return;
    await runWrite(
      `Adding model group ${urnLabel(group).label} to ${urnLabel(model).label}`,
      ServerCommands.addGroupsToModel,
      {
        model,
        groups: [group],
      },
    );
  });

  register(ClientCommands.writeDescription, async (args) => {
    const urn = await targetUrn(server, args?.['urn'], ML_KINDS, 'Write Description: which ML entity?');
    if (!urn) return;
    const { label, description: where } = urnLabel(urn);
    const description = await askDescription({
      title: `Description of ${label} (${where})`,
      ...(await currentText(server, args, urn)),
    });
    if (description === undefined) return;
    await runWrite(`Writing the description of ${label}`, ServerCommands.setMlDescription, { urn, description });
  });
  registerRemove(register, server, runWrite);

  register(ClientCommands.createEntityInteractive, async (args) => {
    const urn = await targetUrn(server, args?.['urn'], ML_KINDS, 'Create Entity in Catalog: which ML entity?');
    if (!urn) return;
    const { label, description: where } = urnLabel(urn);
    const description = await askDescription({ title: `Create ${label} (${where}): description`, optional: true });
    if (description === undefined) return;
    await runWrite(`Creating ${label}`, ServerCommands.createEntity, {
      urn,
      properties: description ? { description } : {},
    });
  });
}

/**
 * The Remove commands: the target (given, under the cursor, picked from those seen, or typed),
 * then some of the members its list holds now in the catalog (read fresh through the server), then
 * the remove command through the write runner. What an Undo runs, chosen by hand.
 */
function registerRemove(
  register: (id: string, run: (args: Args) => Promise<void>) => void,
  server: CatalogLanguageServer,
  runWrite: <C extends WriteCommandId>(title: string, command: C, arg: CommandArgs<C>) => Promise<WriteResult>,
): void {
  const removal = async (
    args: Args,
    key: 'table' | 'model',
    kind: 'mlFeatureTable' | 'mlModel',
    list: 'mlFeatures' | 'groups',
    title: string,
  ): Promise<{ target: string; members: string[] } | undefined> => {
    const target =
      stringArg(args?.[key]) ??
      (await (async () => {
        const at = await urnUnderCursor(server);
        if (at?.kind === kind) return at.urn;
        const { known, inDocument } = await seen(server, kind);
        return pickUrn(
          kind === 'mlModel' ? rankModels(known, inDocument) : rank(known, inDocument),
          kind,
          `${title}: from which ${kind === 'mlModel' ? 'model' : 'feature table'}?`,
        );
      })());
    if (!target) return undefined;
    const uri = await activeUri(server);
    const r = await server.request(MembersRequest, { urn: target, list, ...(uri ? { uri } : {}) });
    const noun = list === 'groups' ? 'model groups' : 'features';
    if (r.error !== undefined) {
      void vscode.window.showErrorMessage(
        inertText(
          `Catalog Lens: the ${noun} of ${urnLabel(target).label} could not be read: ${r.error}`,
          'notification',
          MESSAGE_LIMIT,
        ),
      );
      return undefined;
    }
    if (r.members.length === 0) {
      void vscode.window.showInformationMessage(
        inertText(`Catalog Lens: ${urnLabel(target).label} lists no ${noun}.`, 'notification', MESSAGE_LIMIT),
      );
      return undefined;
    }
    const members = await pickMembers(r.members, `${title}: which ${noun} of ${urnLabel(target).label}?`);
    return members ? { target, members } : undefined;
  };

  register(ClientCommands.removeFeatureFromTable, async (args) => {
    const r = await removal(args, 'table', 'mlFeatureTable', 'mlFeatures', 'Remove Feature from Feature Table');
    if (!r) return;
    const arg = { table: r.target, features: r.members };
    await runWrite(
      progressTitle(ServerCommands.removeFeaturesFromTable, arg),
      ServerCommands.removeFeaturesFromTable,
      arg,
    );
  });
  register(ClientCommands.removeFeatureFromModel, async (args) => {
    const r = await removal(args, 'model', 'mlModel', 'mlFeatures', 'Remove Feature from Model');
    if (!r) return;
    const arg = { model: r.target, features: r.members };
    await runWrite(
      progressTitle(ServerCommands.removeFeaturesFromModel, arg),
      ServerCommands.removeFeaturesFromModel,
      arg,
    );
  });
  register(ClientCommands.removeGroupFromModel, async (args) => {
    const r = await removal(args, 'model', 'mlModel', 'groups', 'Remove Model Group from Model');
    if (!r) return;
    const arg = { model: r.target, groups: r.members };
    await runWrite(progressTitle(ServerCommands.removeGroupsFromModel, arg), ServerCommands.removeGroupsFromModel, arg);
  });
}

/** The URNs of `kind` seen in the open documents, and those in the active one. */
async function seen(
  server: CatalogLanguageServer,
  kind: CatalogKind,
): Promise<{ known: string[]; inDocument: string[] }> {
  const uri = await activeUri(server);
  const [known, inDocument] = await Promise.all([
    server.request(KnownUrnsRequest, { kind }),
    uri ? server.request(KnownUrnsRequest, { kind, uri }) : Promise.resolve([]),
  ]);
  return { known, inDocument };
}

async function activeUri(server: CatalogLanguageServer): Promise<string | undefined> {
  const doc = vscode.window.activeTextEditor?.document;
  return doc ? server.protocolUri(doc.uri) : undefined;
}

/** The URN given by the code action, else the one under the cursor if it is of the right kind, else typed. */
async function targetUrn(
  server: CatalogLanguageServer,
  given: unknown,
  kinds: readonly CatalogKind[],
  title: string,
): Promise<string | undefined> {
  const urn = stringArg(given);
  if (urn) return urn;
  const at = await urnUnderCursor(server);
  if (at && (kinds as readonly string[]).includes(at.kind)) return at.urn;
  return askUrn(kinds, title);
}

/**
 * The text the input box starts from: the `current` a code action passed, else what the catalog
 * shows now (asked of the server), so a description is never overwritten blind. Nothing when the
 * catalog cannot say.
 */
async function currentText(
  server: CatalogLanguageServer,
  args: Args,
  urn: string,
  fieldPath?: string,
): Promise<{ current?: string }> {
  const current = args?.['current'];
  if (typeof current === 'string') return { current };
  try {
    const r = await server.request(DescriptionRequest, { urn, ...(fieldPath !== undefined ? { fieldPath } : {}) });
    return typeof r?.description === 'string' ? { current: r.description } : {};
  } catch {
    return {};
  }
}

function stringArg(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
