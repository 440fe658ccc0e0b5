/**
 * The write commands (docs/dev/lsp-extensions.md "Server commands"): each reads what the catalog
 * holds, merges (merge.ts) and writes only what changed, through the writer its settings choose
 * (writerFor.ts: the aspect path by default, or the GraphQL mutations, `catalogLens.writePath`).
 * Each answers a WriteResult: written, unchanged (nothing written), or failed with why.
 *
 * Here: the table of commands and what every command goes through (trust, one object argument,
 * the settings and catalog client of its document, the log line). The commands themselves are in
 * descriptionServerCommands.ts, memberListServerCommands.ts, labelCommands.ts and createEntity.ts.
 */
import { ServerCommands } from '../../../model/src/commandIds';
import { randomBytes } from 'node:crypto';
import type { CancellationToken } from 'vscode-languageserver';
import { inertText, MESSAGE_LIMIT } from '../../../model/src/inertText';
import { type Settings, type WriteCommandId, type WriteResult, writeOutcome } from '../../../model/src/protocol';
import { parseUrn } from '../../../model/src/urn';
import type { CatalogClient } from '../catalogClient/client';
import { signalOf, type CommandHandler } from '../lsp';
import type { PipelineDeps } from '../pipeline/check';
import { createEntity } from './createEntity';
import { setColumnDescription, setDatasetDescription, setDescription, setMlDescription } from './descriptionCommands';
import {
  appendToList,
  FEATURES_OF_MODEL,
  FEATURES_OF_TABLE,
  GROUPS_OF_MODEL,
  listWrite,
  removeFromList,
} from './memberListCommands';
import { addOwners, addTags, addTerms, removeOwners, removeTags, removeTerms } from './labelCommands';
import { failed, label, Refusal } from './refusal';
import type { CommandDeps } from './writer';
import { writerFor } from './writerFor';

/** What the write commands are given by the wiring: settings and catalog clients, trust, and a way to re-check. */
export interface WriteDeps extends PipelineDeps<CatalogClient> {
  /** false in Restricted Mode: every write is refused. */
  readonly trusted: boolean;
  /** Check the open documents again: a write changed what the catalog answers. */
  revalidateAll(): void;
}

/**
 * One run id per command: DataHub's rollback (`datahub ingest rollback --run-id`) then undoes that
 * one edit. A fixed id would tie every edit ever made through the extension to one rollback.
 */
export function runIdFor(now: Date = new Date()): string {
  return `catalog-lens-${now.toISOString().replace(/[-:]|\.\d+/g, '')}-${randomBytes(4).toString('hex')}`;
}

export function writeCommands(context: WriteDeps): Record<WriteCommandId, CommandHandler<WriteResult>> {
  const wrap =
    (
      command: WriteCommandId,
      run: (args: Record<string, unknown>, ctx: CommandDeps) => Promise<WriteResult>,
    ): CommandHandler<WriteResult> =>
    async (args: unknown, token: CancellationToken): Promise<WriteResult> => {
      let path: Settings['writePath'] | undefined;
      const logged = (r: WriteResult): WriteResult => {
        context.log(writeLogLine(command, args, path, r));
        return r;
      };
      try {
        if (!context.trusted)
          failed(
            'rejected',
            'This workspace is not trusted (Restricted Mode): Catalog Lens writes nothing to the catalog here.',
          );
        if (typeof args !== 'object' || args === null || Array.isArray(args))
          failed('badInput', 'expected one object argument');
        const a = args as Record<string, unknown>;
        const settings = await context.settingsFor(typeof a['uri'] === 'string' ? a['uri'] : undefined);
        const writer = writerFor(settings);
        path = writer.path;
        const client = context.clientFor(settings);
        if (!client.configured) failed('notConfigured', 'no catalog is configured (catalogLens.url is empty)');
        const result = await run(a, { settings, client, writer, signal: signalOf(token), runId: runIdFor() });
        if (result.status === 'written') context.revalidateAll();
        return logged(shown(result));
      } catch (e) {
        if (e instanceof Refusal) return logged(shown(e.result));
        context.log(`write ${command} ${targetOf(args)}: failed: ${e instanceof Error ? e.message : String(e)}`);
        throw e;
      }
    };
  // The output boundary: whatever a message quotes (URNs, paths, the catalog's words), the client
  // shows it in a notification, where `[label](command:…)` would be a link that runs a command.
  const shown = (r: WriteResult): WriteResult => ({
    ...r,
    message: inertText(r.message, 'notification', MESSAGE_LIMIT),
  });

  return {
    [ServerCommands.setDatasetDescription]: wrap(ServerCommands.setDatasetDescription, setDatasetDescription),
    [ServerCommands.setColumnDescription]: wrap(ServerCommands.setColumnDescription, setColumnDescription),
    [ServerCommands.addFeaturesToTable]: wrap(
      ServerCommands.addFeaturesToTable,
      listWrite(appendToList, FEATURES_OF_TABLE),
    ),
    [ServerCommands.addFeaturesToModel]: wrap(
      ServerCommands.addFeaturesToModel,
      listWrite(appendToList, FEATURES_OF_MODEL),
    ),
    [ServerCommands.addGroupsToModel]: wrap(ServerCommands.addGroupsToModel, listWrite(appendToList, GROUPS_OF_MODEL)),
    [ServerCommands.removeFeaturesFromTable]: wrap(
      ServerCommands.removeFeaturesFromTable,
      listWrite(removeFromList, FEATURES_OF_TABLE),
    ),
    [ServerCommands.removeFeaturesFromModel]: wrap(
      ServerCommands.removeFeaturesFromModel,
      listWrite(removeFromList, FEATURES_OF_MODEL),
    ),
    [ServerCommands.removeGroupsFromModel]: wrap(
      ServerCommands.removeGroupsFromModel,
      listWrite(removeFromList, GROUPS_OF_MODEL),
    ),
    [ServerCommands.createEntity]: wrap(ServerCommands.createEntity, createEntity),
    [ServerCommands.setMlDescription]: wrap(ServerCommands.setMlDescription, setMlDescription),
    [ServerCommands.setDescription]: wrap(ServerCommands.setDescription, setDescription),
    [ServerCommands.addTags]: wrap(ServerCommands.addTags, addTags),
    [ServerCommands.removeTags]: wrap(ServerCommands.removeTags, removeTags),
    [ServerCommands.addTerms]: wrap(ServerCommands.addTerms, addTerms),
    [ServerCommands.removeTerms]: wrap(ServerCommands.removeTerms, removeTerms),
    [ServerCommands.addOwners]: wrap(ServerCommands.addOwners, addOwners),
    [ServerCommands.removeOwners]: wrap(ServerCommands.removeOwners, removeOwners),
  };
}

/**
 * One line of the server's log per write: the command, the entity (its kind and name; the URN's
 * text is in the command's arguments), the column, the write path, and what came of it. Never the
 * token: it is in no argument and no message.
 */
export function writeLogLine(
  command: WriteCommandId,
  args: unknown,
  path: Settings['writePath'] | undefined,
  r: WriteResult,
): string {
  const outcome = writeOutcome(r);
  return `write ${command} ${targetOf(args)}${path ? ` through the ${path} path` : ''}: ${outcome} — ${r.message}`;
}

/** The entity a write's arguments name, as messages name it, with the column or the members added. */
function targetOf(args: unknown): string {
  if (typeof args !== 'object' || args === null) return '(no arguments)';
  const a = args as Record<string, unknown>;
  const text = [a['urn'], a['table'], a['model']].find((v): v is string => typeof v === 'string');
  if (text === undefined) return '(no entity)';
  const p = parseUrn(text);
  const entity = p.ok ? label(p.urn) : inertText(text, 'notification', 200);
  const column = typeof a['fieldPath'] === 'string' ? ` column ${inertText(a['fieldPath'], 'notification', 200)}` : '';
  const members = [a['features'], a['groups'], a['tags'], a['terms'], a['owners']].find(Array.isArray)?.length;
  return `${entity}${column}${members !== undefined ? ` (+${members})` : ''}`;
}
