/**
 * The agent bridge's write tools: set a description (a dataset, one of its columns, an ML entity),
 * add a link to a dataset, append features or model groups to a feature table or a model. Each is
 * one write command (model/src/agentWrites.ts) run through the server's write path; a host that
 * does not allow writes (an MCP server started without --allow-writes, the language server, whose
 * editor runs writes through its own write path) answers a tool error and writes nothing.
 */
import { agentWriteOf, type AgentWrite, type AgentWriteToolName } from '../../../model/src/agentWrites';
import { inertText } from '../../../model/src/inertText';
import type { WriteResult } from '../../../model/src/protocol';
import type { JsonSchema } from './schema';

export interface WriteToolDefinition {
  name: AgentWriteToolName;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

const urn: JsonSchema = { type: 'string', minLength: 4, maxLength: 2000, description: 'The entity’s URN.' };
const urns: JsonSchema = {
  type: 'array',
  items: { type: 'string', minLength: 4, maxLength: 2000 },
  maxItems: 100,
};

/** What every write tool answers: the write command's result. */
const writeOut: JsonSchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['written', 'unchanged'] },
    message: { type: 'string' },
    aspects: { type: 'array', items: { type: 'string' }, description: 'The aspects written.' },
    added: { type: 'array', items: { type: 'string' }, description: 'The members appended.' },
  },
  required: ['status', 'message'],
};

export const WRITE_TOOLS: readonly WriteToolDefinition[] = [
  {
    name: 'set_description',
    title: 'Set a description in the catalog',
    description:
      'Writes the description of a dataset, of one column of a dataset (give column), or of an ML feature, feature table, model or model group, in the DataHub catalog. The user confirms each write; nothing is written when it already says so.',
    inputSchema: {
      type: 'object',
      properties: {
        urn,
        description: { type: 'string', maxLength: 20_000, description: 'The new description (Markdown).' },
        column: {
          type: 'string',
          minLength: 1,
          maxLength: 1000,
          description: 'A column of the dataset (its field path): its description is written instead.',
        },
      },
      required: ['urn', 'description'],
      additionalProperties: false,
    },
    outputSchema: writeOut,
  },
  {
    name: 'add_link',
    title: 'Add a link to a dataset',
    description:
      'Adds a link (documentation, a dashboard, the code that writes it) to a dataset in the DataHub catalog, unless it already has a link with that url. The user confirms each write.',
    inputSchema: {
      type: 'object',
      properties: {
        urn,
        url: { type: 'string', minLength: 8, maxLength: 2000, description: 'An http(s) URL.' },
        label: { type: 'string', maxLength: 500, description: 'What the link is, as the catalog shows it.' },
      },
      required: ['urn', 'url'],
      additionalProperties: false,
    },
    outputSchema: writeOut,
  },
  {
    name: 'append_members',
    title: 'Append features or model groups',
    description:
      'Appends ML features to a feature table or an ML model, or model groups to an ML model, in the DataHub catalog (give features or groups; the ones already listed are kept, and every member must exist). The user confirms each write.',
    inputSchema: {
      type: 'object',
      properties: {
        urn: { ...urn, description: 'The feature table’s or the model’s URN.' },
        features: { ...urns, description: 'ML feature URNs to append.' },
        groups: { ...urns, description: 'ML model group URNs to append (to a model).' },
      },
      required: ['urn'],
      additionalProperties: false,
    },
    outputSchema: writeOut,
  },
];

/** Runs one write for a write tool, or answers that this host does not write. */
export type WriteRun = (write: AgentWrite) => Promise<WriteResult>;

export const NOT_ENABLED =
  'Catalog Lens writes are not enabled here: start the MCP server with `catalog-lens mcp --allow-writes` (or, in VS Code, turn on catalogLens.agentTools.writes) to let an agent write to the catalog. Nothing was written.';

/** A write tool's answer: the write's result (a failed write is a tool error). */
export async function runWriteTool(
  write: WriteRun | undefined,
  name: AgentWriteToolName,
  args: Record<string, unknown>,
): Promise<{ structured: Record<string, unknown>; text: string; error?: undefined } | { error: string }> {
  if (!write) return { error: `${name}: ${NOT_ENABLED}` };
  const asked = agentWriteOf(name, args);
  if ('error' in asked) return { error: asked.error };
  const r = await write(asked);
  const message = inertText(r.message, 'plain', 1000);
  if (r.status === 'failed') return { error: `${name} failed (${r.kind}): ${message}` };
  const structured: Record<string, unknown> = {
    status: r.status,
    message,
    ...(r.aspects ? { aspects: r.aspects } : {}),
    ...(Array.isArray(r.added) ? { added: r.added } : {}),
  };
  return { structured, text: r.status === 'written' ? `${message}.` : `Nothing written: ${message}.` };
}
