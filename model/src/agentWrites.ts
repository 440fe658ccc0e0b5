/**
 * The agent bridge's write tools, as the write commands they run: `set_description` (a dataset,
 * one of its columns, or an ML entity), `add_link` (a link on a dataset) and `append_members`
 * (features to a feature table or a model, model groups to a model). A tool's input becomes one
 * server command and its argument; the server's write path (its checks, merge, writer, result)
 * does the rest. The editor's language model tools and the MCP server both map their input here.
 */
import { ServerCommands } from './commandIds';
import type { CommandArgs, WriteCommandId } from './protocol';
import { entityTypeOf, parseUrn } from './urn';

export const AGENT_WRITE_TOOLS = ['set_description', 'add_link', 'append_members'] as const;
export type AgentWriteToolName = (typeof AGENT_WRITE_TOOLS)[number];

export const isAgentWriteTool = (name: string): name is AgentWriteToolName =>
  (AGENT_WRITE_TOOLS as readonly string[]).includes(name);

/** One write command and its argument. */
export type AgentWrite = {
  [C in WriteCommandId]: { command: C; arg: CommandArgs<C> };
}[WriteCommandId];

const ML_DESCRIBED = new Set(['mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup']);

/**
 * The write command a write tool's input asks for, or why the input asks for none. The input's
 * types were checked against the tool's schema; the URNs are parsed here for their kind, and the
 * command checks everything again.
 */
export function agentWriteOf(name: AgentWriteToolName, input: Record<string, unknown>): AgentWrite | { error: string } {
  const text = (key: string): string | undefined => (typeof input[key] === 'string' ? input[key] : undefined);
  const urn = text('urn');
  if (urn === undefined) return { error: `${name}: urn is required.` };
  const parsed = parseUrn(urn);
  if (!parsed.ok) return { error: `${name}: urn is not a URN: ${parsed.error.message}.` };
  const kind = parsed.urn.kind;
  switch (name) {
    case 'set_description': {
      const description = text('description');
      if (description === undefined) return { error: 'set_description: description is required.' };
      const column = text('column');
      if (column !== undefined) {
        if (kind !== 'dataset')
          return { error: `set_description: a column is of a dataset, not of a ${entityTypeOf(parsed.urn)}.` };
        return { command: ServerCommands.setColumnDescription, arg: { urn, fieldPath: column, description } };
      }
      if (kind === 'dataset') return { command: ServerCommands.setDatasetDescription, arg: { urn, description } };
      if (ML_DESCRIBED.has(kind)) return { command: ServerCommands.setMlDescription, arg: { urn, description } };
      return {
        error: `set_description: describes a dataset, a column or an ML entity (feature, feature table, model, model group), not a ${entityTypeOf(parsed.urn)}.`,
      };
    }
    case 'add_link': {
      if (kind !== 'dataset')
        return { error: `add_link: links are added to datasets, not to a ${entityTypeOf(parsed.urn)}.` };
      const url = text('url');
      if (url === undefined || !/^https?:\/\/\S+$/i.test(url))
        return { error: 'add_link: url must be an http(s) URL.' };
      return {
        command: ServerCommands.setDatasetDescription,
        arg: { urn, link: { url, description: text('label') ?? '' } },
      };
    }
    case 'append_members': {
      const list = (key: string): string[] | undefined =>
        Array.isArray(input[key])
          ? (input[key] as unknown[]).filter((v): v is string => typeof v === 'string')
          : undefined;
      const features = list('features');
      const groups = list('groups');
      if ((features === undefined) === (groups === undefined))
        return { error: 'append_members: give either features or groups (one call each).' };
      if (features !== undefined && features.length === 0) return { error: 'append_members: features is empty.' };
      if (groups !== undefined && groups.length === 0) return { error: 'append_members: groups is empty.' };
      if (kind === 'mlFeatureTable') {
        if (!features) return { error: 'append_members: a feature table lists features, not model groups.' };
        return { command: ServerCommands.addFeaturesToTable, arg: { table: urn, features } };
      }
      if (kind === 'mlModel')
        return features
          ? { command: ServerCommands.addFeaturesToModel, arg: { model: urn, features } }
          : { command: ServerCommands.addGroupsToModel, arg: { model: urn, groups: groups! } };
      return {
        error: `append_members: members are appended to a feature table or an ML model, not to a ${entityTypeOf(parsed.urn)}.`,
      };
    }
  }
}

/** What the write will do, in the user's words, for the editor's confirmation. */
export function agentWriteSummary(write: AgentWrite): string {
  const a = write.arg as unknown as Record<string, unknown>;
  const quoted = (v: unknown): string => (typeof v === 'string' ? v : '');
  const count = (v: unknown): number => (Array.isArray(v) ? v.length : 0);
  switch (write.command) {
    case ServerCommands.setDatasetDescription:
      return a['description'] === undefined
        ? `Add the link ${quoted((a['link'] as Record<string, unknown> | undefined)?.['url'])} to ${quoted(a['urn'])}`
        : `Set the description of ${quoted(a['urn'])} to:\n\n${quoted(a['description'])}`;
    case ServerCommands.setColumnDescription:
      return `Set the description of column ${quoted(a['fieldPath'])} of ${quoted(a['urn'])} to:\n\n${quoted(a['description'])}`;
    case ServerCommands.setMlDescription:
      return `Set the description of ${quoted(a['urn'])} to:\n\n${quoted(a['description'])}`;
    case ServerCommands.addFeaturesToTable:
      return `Add ${count(a['features'])} feature(s) to ${quoted(a['table'])}: ${(a['features'] as string[]).join(', ')}`;
    case ServerCommands.addFeaturesToModel:
      return `Add ${count(a['features'])} feature(s) to ${quoted(a['model'])}: ${(a['features'] as string[]).join(', ')}`;
    case ServerCommands.addGroupsToModel:
      return `Add ${count(a['groups'])} model group(s) to ${quoted(a['model'])}: ${(a['groups'] as string[]).join(', ')}`;
    default:
      return 'Write to the catalog';
  }
}

/**
 * What the editor shows before a write tool runs: its progress line, and the confirmation the
 * user answers (Continue or Cancel). Input that asks for no write gets no confirmation: the call
 * then fails with why.
 */
export function agentWritePreparation(
  name: AgentWriteToolName,
  input: Record<string, unknown>,
): { invocationMessage: string; confirmationMessages?: { title: string; message: string } } {
  const write = agentWriteOf(name, input);
  if ('error' in write) return { invocationMessage: `Catalog Lens: ${name} (not run: ${write.error})` };
  const summary = agentWriteSummary(write);
  return {
    invocationMessage: `Catalog Lens: ${summary.split('\n')[0]!.replace(/ to:$/, '')}`,
    confirmationMessages: {
      title: 'Write to the DataHub catalog?',
      message: `${summary}\n\nCatalog Lens writes this to the catalog now (Undo is offered after it).`,
    },
  };
}
