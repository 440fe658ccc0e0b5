/**
 * The client commands that code actions name (ClientCommands): each asks the user for text or a
 * target, then runs the server's write command through client/src/writes.ts (progress, the result, Retry). From the
 * palette they act on the URN under the cursor, or ask for one.
 */
import * as vscode from 'vscode';
import { isRecord } from '../../model/src/json';
import {
  ClientCommands,
  Commands,
  KnownUrnsRequest,
  type CommandArgs,
  type WriteCommandId,
  type WriteResult,
} from '../../model/src/protocol';
import { reportFailure, urnUnderCursor, type CommandDeps } from './paletteCommands';
import type { CatalogLanguageServer } from './languageClient';
import { askColumn, askDescription, askUrn, pickUrn } from './pickers';
import { urnLabel, type UrnKindName } from './userText';
import { writeRunner } from './writes';

type Args = Record<string, unknown> | undefined;

const ML_KINDS: readonly UrnKindName[] = ['mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup'];

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
      ...currentText(args),
    });
    if (description === undefined) return;
    await runWrite(`Writing the description of ${urnLabel(urn).label}`, Commands.setDatasetDescription, {
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
    await runWrite(`Writing the description of column ${fieldPath}`, Commands.setColumnDescription, {
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
    await runWrite(`Adding ${urnLabel(feature).label} to ${urnLabel(table).label}`, Commands.addFeaturesToTable, {
      table,
      features: [feature],
    });
  });

  register(ClientCommands.addFeatureToModel, async (args) => {
    const feature = await targetUrn(server, args?.['feature'], ['mlFeature'], 'Add Feature to Model: which feature?');
    if (!feature) return;
    const model = await pickTarget(server, 'mlModel', `Add ${urnLabel(feature).label} to which model?`);
    if (!model) return;
    await runWrite(`Adding ${urnLabel(feature).label} to ${urnLabel(model).label}`, Commands.addFeaturesToModel, {
      model,
      features: [feature],
    });
  });

  register(ClientCommands.addGroupToModel, async (args) => {
    const model = await targetUrn(server, args?.['model'], ['mlModel'], 'Add Model Group: to which model?');
    if (!model) return;
    const group = await pickTarget(server, 'mlModelGroup', `Add ${urnLabel(model).label} to which model group?`);
    if (!group) return;
    await runWrite(`Adding ${urnLabel(model).label} to group ${urnLabel(group).label}`, Commands.addGroupsToModel, {
      model,
      groups: [group],
    });
  });

  register(ClientCommands.writeDescription, async (args) => {
    const urn = await targetUrn(server, args?.['urn'], ML_KINDS, 'Write Description: which ML entity?');
    if (!urn) return;
    const { label, description: where } = urnLabel(urn);
    const description = await askDescription({ title: `Description of ${label} (${where})`, ...currentText(args) });
    if (description === undefined) return;
    await runWrite(`Writing the description of ${label}`, Commands.setMlDescription, { urn, description });
  });

  register(ClientCommands.createEntity, async (args) => {
    const urn = await targetUrn(server, args?.['urn'], ML_KINDS, 'Create Entity in Catalog: which ML entity?');
    if (!urn) return;
    const { label, description: where } = urnLabel(urn);
    const description = await askDescription({ title: `Create ${label} (${where}): description`, optional: true });
    if (description === undefined) return;
    await runWrite(`Creating ${label}`, Commands.createEntity, {
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

function currentText(args: Args): { current?: string } {
  const current = args?.['current'];
  return typeof current === 'string' ? { current } : {};
}

function stringArg(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}
