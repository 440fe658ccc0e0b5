/**
 * Code actions at a URN occurrence. Quick fixes where they fix the diagnostic they are attached
 * to, `refactor.*` for the rest, never `source.fixAll` (nothing writes to the network on save).
 * Actions read `diagnostic.data`, never the message text. Actions that need text or a target
 * from the user name client commands (ClientCommands), offered only to clients that have them.
 * Pure: what the catalog answered comes in as a lookup of what its client has cached.
 */
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
  type Position,
  type TextEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { ClientCommands, ServerCommands } from '../../../model/src/commandIds';
import { findField } from '../../../model/src/fieldPath';
import { shownColumns } from '../../../model/src/readShapes';
import { entityName, kindWord } from '../../../model/src/entityNames';
import { inertText } from '../../../model/src/inertText';
import { isMlKind, type MlKind } from '../../../model/src/kinds';
import { decodePart, encodePart, parseUrn } from '../../../model/src/urn';
import type { ResolutionLookup } from '../catalogClient/client';
import type { ScanResult, UrnOccurrence, YamlScalarRef } from '../scan/types';
import { catalogDescription, type DiagnosticData } from './diagnostics';
import { nearMatch } from '../resolution/didYouMean';
import { lookupOf } from '../resolution/lookup';
import { occurrenceAt } from './urnAt';
import { replaceUrnEdits, rewriteUrnEdits } from './urnEdit';
import { doubleQuoted, renderInsertion, renderScalarLike, type InsertionPoint } from './yamlEdit';
import { REFACTOR_KIND } from '../capabilities';

export { REFACTOR_KIND };

export interface CodeActionInput {
  doc: TextDocument;
  scan: ScanResult;
  params: CodeActionParams;
  trusted: boolean;
  clientCommands: boolean;
  /** What the catalog client has cached (no request is made for a code action). */
  cached: ResolutionLookup;
}

export function codeActionsFor(input: CodeActionInput): CodeAction[] {
  const { params, trusted } = input;
  const only = params.context.only;
  const wants = (kind: string): boolean => !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
  const actions: CodeAction[] = [];
  for (const d of params.context.diagnostics) {
    if (d.source !== 'catalog-lens' || !isData(d.data)) continue;
    if (wants(CodeActionKind.QuickFix)) actions.push(...quickFixes(input, d, d.data));
  }
  actions.splice(0, actions.length, ...withoutRepeats(input.doc, actions));
  // A refactor that repeats a quick fix already offered here (same title) would show twice in the menu.
  if (wants(REFACTOR_KIND)) actions.push(...refactors(input).filter((r) => !actions.some((a) => a.title === r.title)));
  if (trusted) return actions;
  // In Restricted Mode nothing that writes to the catalog is offered; edits to the file still are.
  // Where a write would have been offered, one action says why and opens the trust editor.
  const edits = actions.filter((a) => a.command === undefined);
  const withheld = actions.filter((a) => a.command !== undefined);
  if (withheld.length === 0 || !input.clientCommands) return edits;
  const diagnostics = [...new Set(withheld.flatMap((a) => a.diagnostics ?? []))];
  const title = 'Trust this workspace to write to the catalog… (Restricted Mode writes nothing)';
  return [
    ...edits,
    {
      title,
      kind: diagnostics.length > 0 ? CodeActionKind.QuickFix : REFACTOR_KIND,
      ...(diagnostics.length > 0 ? { diagnostics } : {}),
      command: { title, command: ClientCommands.manageTrust },
    },
  ];
}

function quickFixes(input: CodeActionInput, d: Diagnostic, data: DiagnosticData): CodeAction[] {
  const { clientCommands, doc, scan } = input;
  const fix = (title: string, extra: Partial<CodeAction>): CodeAction => ({
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [d],
    ...extra,
  });
  const out: CodeAction[] = [];
  switch (data.code) {
    case 'missing-description':
      // An ML entity's description is asked for and written by ClientCommands.writeDescription; a
      // client without client commands (Neovim) has no way to ask for the text: nothing is offered.
      if (data.kind && isMlKind(data.kind) && clientCommands && data.urn) {
        const title = writeDescriptionTitle(data.kind);
        out.push(
          fix(title, {
            isPreferred: true,
            command: { title, command: ClientCommands.writeDescription, arguments: [{ urn: data.urn }] },
          }),
        );
      }
      if (data.kind === 'dataset' && clientCommands && data.urn) {
        out.push(
          fix('Write dataset description…', {
            isPreferred: true,
            command: {
              title: 'Write dataset description…',
              command: ClientCommands.writeDatasetDescription,
              arguments: [{ urn: data.urn }],
            },
          }),
        );
      }
      break;
    case 'missing-column-description':
      if (clientCommands && data.urn && data.fieldPath) {
        out.push(
          fix('Write column description…', {
            isPreferred: true,
            command: {
              title: 'Write column description…',
              command: ClientCommands.writeColumnDescription,
              arguments: [{ urn: data.urn, fieldPath: data.fieldPath }],
            },
          }),
        );
      }
      break;
    case 'description-mismatch':
    case 'column-description-mismatch': {
      if (!data.urn || data.yamlText === undefined) break;
      const push =
        data.code === 'description-mismatch'
          ? {
              command: ServerCommands.setDatasetDescription,
              arguments: [{ urn: data.urn, description: data.yamlText }],
            }
          : {
              command: ServerCommands.setColumnDescription,
              arguments: [{ urn: data.urn, fieldPath: data.fieldPath, description: data.yamlText }],
            };
      if (data.kind === 'dataset')
        out.push(fix('Push description to catalog', { command: { title: 'Push description to catalog', ...push } }));
      const node = yamlNodeAt(scan, doc.offsetAt(d.range.start));
      if (node && data.catalogText !== undefined) {
        out.push(
          fix('Pull description from catalog', {
            edit: {
              changes: {
                [doc.uri]: [
                  {
                    range: { start: doc.positionAt(node.start), end: doc.positionAt(node.end) },
                    newText: renderScalarLike(node, data.catalogText, doc.getText()),
                  },
                ],
              },
            },
          }),
        );
      }
      break;
    }
    case 'malformed-urn':
      // Only while the range still holds the URN the diagnostic was made for (the text may have changed since).
      if (data.quote && data.urn && doc.getText(d.range) === data.urn) {
        out.push(
          fix('Quote the URN', {
            isPreferred: true,
            edit: { changes: { [doc.uri]: [{ range: d.range, newText: doubleQuoted(data.urn) }] } },
          }),
        );
        // As ESLint's "Fix all …": every URN of the file cut at a comma, quoted in one edit.
        const all = quoteAllOnce(input);
        if (all.length > 1) {
          out.push(
            fix(`Quote all ${all.length} URNs cut at a comma in the whole file`, {
              edit: { changes: { [doc.uri]: all } },
            }),
          );
        }
      }
      if (data.rewrite && data.urn) {
        const occ = malformedAt(doc, scan, d, data.urn);
        const edits = occ ? rewriteUrnEdits(doc, occ, data.rewrite.urn) : undefined;
        if (edits && edits.length > 0) {
          out.push(fix(data.rewrite.title, { isPreferred: true, edit: { changes: { [doc.uri]: edits } } }));
        }
      }
      break;
    case 'unknown-column': {
      // Did-you-mean: each near column the schema has, the nearest preferred, written where the column is named.
      (data.columns ?? []).forEach((name, i) => {
        const edits = data.fieldPath !== undefined ? columnEdits(doc, scan, d, data.fieldPath, name) : undefined;
        if (!edits || edits.length === 0) return;
        out.push(
          fix(`Replace with ${inertText(name, 'plain', 120)}`, {
            ...(i === 0 ? { isPreferred: true } : {}),
            edit: { changes: { [doc.uri]: edits } },
          }),
        );
      });
      break;
    }
    case 'unknown-env': {
      const edit = data.env && data.suggestion ? envEdit(doc, d, data.env, data.suggestion) : undefined;
      if (edit) {
        out.push(
          fix(`Replace with ${data.suggestion}`, {
            isPreferred: true,
            edit: { changes: { [doc.uri]: [edit] } },
          }),
        );
      }
      break;
    }
    case 'deprecated-urn': {
      // Only while the diagnostic's range still holds the URN it was made for (the text may have changed since).
      const occ = occurrenceOf(doc, scan, d, data.urn);
      const edits = occ && data.replacement ? replaceUrnEdits(doc, occ, data.replacement) : undefined;
      if (edits && edits.length > 0) {
        const parsed = parseUrn(data.replacement!);
        const title = `Replace with ${inertText(parsed.ok ? entityName(parsed.urn) : data.replacement!, 'plain', 120)}`;
        out.push(fix(title, { isPreferred: true, edit: { changes: { [doc.uri]: edits } } }));
      }
      break;
    }
    case 'missing-list-member':
      if (data.owner && data.urn && data.list) {
        const command =
          data.list === 'groups'
            ? ServerCommands.addGroupsToModel
            : data.owner.includes(':mlFeatureTable:')
              ? ServerCommands.addFeaturesToTable
              : ServerCommands.addFeaturesToModel;
        const args =
          data.list === 'groups'
            ? { model: data.owner, groups: [data.urn] }
            : command === ServerCommands.addFeaturesToTable
              ? { table: data.owner, features: [data.urn] }
              : { model: data.owner, features: [data.urn] };
        out.push(
          fix('Append to catalog', {
            isPreferred: true,
            command: { title: 'Append to catalog', command, arguments: [args] },
          }),
        );
      }
      break;
    case 'unknown-urn': {
      // Did-you-mean: each near entity the catalog has, the nearest preferred (the same edits as a replacement).
      const occ = occurrenceOf(doc, scan, d, data.urn);
      (data.suggestions ?? []).forEach((target, i) => {
        const edits = occ ? replaceUrnEdits(doc, occ, target) : undefined;
        if (!edits || edits.length === 0) return;
        const title = inertText(data.urn ? nearMatch(data.urn, target).title : `Replace with ${target}`, 'plain', 120);
        if (out.some((a) => a.title === title)) return;
        out.push(fix(title, { ...(i === 0 ? { isPreferred: true } : {}), edit: { changes: { [doc.uri]: edits } } }));
      });
      if (data.urn && data.kind && isMlKind(data.kind)) {
        const title = `Create ${kindWord(data.kind)} in catalog`;
        out.push(
          fix(clientCommands ? `${title}…` : title, {
            command: clientCommands
              ? { title, command: ClientCommands.createEntityInteractive, arguments: [{ urn: data.urn }] }
              : { title, command: ServerCommands.createEntity, arguments: [{ urn: data.urn, properties: {} }] },
          }),
        );
      }
      break;
    }
    default:
      break;
  }
  return out;
}

/**
 * A key of the text `edits` make of `doc`: equal for two edit lists exactly when the texts after
 * them are equal (what TextDocument.applyEdits gives, overlapping edits refused as it refuses
 * them), without making that text: the edited text is the document's with one middle part
 * replaced, and the key is that part after the longest prefix and then suffix it shares with the
 * document, with where it stands. (Keying each fix by the whole edited document made a code
 * action over a selection of N diagnostics O(N × document): minutes for a large file.)
 */
export function editedTextKey(doc: TextDocument, edits: readonly TextEdit[]): string {
  const text = doc.getText();
  // As applyEdits: a reversed range made well-formed, a stable sort by start position.
  const before = (a: Position, b: Position): boolean =>
    a.line > b.line || (a.line === b.line && a.character > b.character);
  const sorted = edits
    .map((e, i) => {
      const r = before(e.range.start, e.range.end) ? { start: e.range.end, end: e.range.start } : e.range;
      return { at: r.start, start: doc.offsetAt(r.start), end: doc.offsetAt(r.end), newText: e.newText, i };
    })
    .sort((a, b) => a.at.line - b.at.line || a.at.character - b.at.character || a.i - b.i);
  if (sorted.length === 0) return `${text.length}\n${text.length}\n`;
  const from = sorted[0]!.start;
  const parts: string[] = [];
  let last = from;
  for (const { start, end, newText } of sorted) {
    if (start < last) throw new Error('Overlapping edit');
    if (start > last) parts.push(text.substring(last, start));
    if (newText.length) parts.push(newText);
    last = end;
  }
  // The edited text: text[0, from) + middle + text[to, length).
  const middle = parts.join('');
  const to = last;
  const editedLength = from + middle.length + (text.length - to);
  const editedAt = (i: number): number =>
    i < from
      ? text.charCodeAt(i)
      : i < from + middle.length
        ? middle.charCodeAt(i - from)
        : text.charCodeAt(i - from - middle.length + to);
  const shortest = Math.min(text.length, editedLength);
  // Both start at what is known to be the same: text[0, from), and text[to, length) at both ends;
  // a middle that is what it replaces leaves the whole text the same (no walk over the rest).
  let prefix = middle === text.slice(from, to) ? shortest : from;
  while (prefix < shortest && editedAt(prefix) === text.charCodeAt(prefix)) prefix++;
  let suffix = Math.min(text.length - to, shortest - prefix);
  while (
    suffix < shortest - prefix &&
    editedAt(editedLength - 1 - suffix) === text.charCodeAt(text.length - 1 - suffix)
  )
    suffix++;
  // The edited text is text[0, prefix) + its own [prefix, editedLength - suffix) + text[length - suffix, length).
  const end = editedLength - suffix;
  const changed =
    text.slice(prefix, Math.min(end, from)) +
    middle.slice(Math.max(prefix - from, 0), Math.max(end - from, 0)) +
    text.slice(Math.max(prefix, from + middle.length) - from - middle.length + to, end - from - middle.length + to);
  return `${prefix}\n${text.length - suffix}\n${changed}`;
}

/**
 * Quick fixes with the same edit (an env typo's "Replace with PROD" and the did-you-mean's
 * "Replace env PORD with PROD") are one fix: the first is kept, preferred when either was.
 */
function withoutRepeats(doc: TextDocument, actions: CodeAction[]): CodeAction[] {
  const out: CodeAction[] = [];
  const byEdit = new Map<string, CodeAction>();
  // The key of each list of edits once (the quote-all fixes of a selection share theirs).
  const keys = new Map<readonly TextEdit[], string>();
  for (const a of actions) {
    // The same edit is the same text after it: one fix may replace the env, another the whole URN.
    const edits = a.edit?.changes?.[doc.uri];
    const only = a.edit?.changes !== undefined && Object.keys(a.edit.changes).length === 1;
    let key: string | undefined;
    if (edits && only && !a.command) {
      key = keys.get(edits);
      if (key === undefined) keys.set(edits, (key = editedTextKey(doc, edits)));
    }
    const first = key === undefined ? undefined : byEdit.get(key);
    if (first) {
      if (a.isPreferred) first.isPreferred = true;
      continue;
    }
    if (key !== undefined) byEdit.set(key, a);
    out.push(a);
  }
  return out;
}

/** quoteAllEdits once per request: each of a selection's cut URNs offers the same edits (then one fix). */
const quotedAll = new WeakMap<CodeActionInput, TextEdit[]>();
function quoteAllOnce(input: CodeActionInput): TextEdit[] {
  let all = quotedAll.get(input);
  if (!all) quotedAll.set(input, (all = quoteAllEdits(input.doc, input.scan)));
  return all;
}

/** The edits that double-quote every URN of the document cut at a comma in a YAML flow collection, where the text still holds it. */
function quoteAllEdits(doc: TextDocument, scan: ScanResult): TextEdit[] {
  const text = doc.getText();
  return scan.occurrences.flatMap((o) =>
    o.cutInFlow && text.slice(o.start, o.cutInFlow.end) === o.cutInFlow.urn
      ? [
          {
            range: { start: doc.positionAt(o.start), end: doc.positionAt(o.cutInFlow.end) },
            newText: doubleQuoted(o.cutInFlow.urn),
          },
        ]
      : [],
  );
}

/** The malformed occurrence a diagnostic was made for: the outermost one holding its range, with its text. */
function malformedAt(doc: TextDocument, scan: ScanResult, d: Diagnostic, urn: string): UrnOccurrence | undefined {
  const start = doc.offsetAt(d.range.start);
  const end = doc.offsetAt(d.range.end);
  return scan.occurrences.find((o) => o.parent === undefined && o.urn === urn && o.start <= start && end <= o.end);
}

/**
 * The edits that name column `name` where an unknown column `was` is named: a YAML column's name
 * (in the scalar's own style), or a schemaField URN's field path (the URN's edits, so a builder's
 * argument changes alone). Only while the text still names `was` there.
 */
function columnEdits(
  doc: TextDocument,
  scan: ScanResult,
  d: Diagnostic,
  was: string,
  name: string,
): TextEdit[] | undefined {
  const start = doc.offsetAt(d.range.start);
  const end = doc.offsetAt(d.range.end);
  const column = scan.columns.find((c) => c.name.start === start && c.name.end === end);
  if (column) {
    if (column.name.value !== was) return undefined;
    return [{ range: d.range, newText: renderScalarLike(column.name, name, doc.getText()) }];
  }
  const occ = scan.occurrences.find(
    (o) =>
      o.parent === undefined && o.start <= start && end <= o.end && o.parsed?.ok && o.parsed.urn.kind === 'schemaField',
  );
  if (!occ?.parsed?.ok || occ.parsed.urn.kind !== 'schemaField' || decodePart(occ.parsed.urn.fieldPath) !== was)
    return undefined;
  const part = occ.parsed.parts.find((p) => p.role === 'fieldPath');
  if (!part) return undefined;
  const target = `${occ.urn.slice(0, part.start)}${encodePart(name)}${occ.urn.slice(part.end)}`;
  return replaceUrnEdits(doc, occ, target);
}

function refactors(input: CodeActionInput): CodeAction[] {
  const { doc, scan, params, clientCommands } = input;
  const at = occurrenceAt(scan, doc.offsetAt(params.range.start));
  if (!at) return [];
  const occ = at.occurrence;
  if (occ.template || !occ.parsed?.ok) return [];
  const kind = occ.parsed.urn.kind;
  const act = (title: string, command: string, args: unknown): CodeAction => ({
    title,
    kind: REFACTOR_KIND,
    command: { title, command, arguments: [args] },
  });
  const out: CodeAction[] = [];
  // No write is offered on an entity the catalog's cached answer says it does not have: the user
  // would type the text and only then hear "not in the catalog" (for ML kinds the unknown-urn
  // quick fix offers Create… instead). Not asked yet, or the catalog failed: offered, since every
  // write command checks existence again, fresh, before it writes.
  const absent = (urn: string): boolean => input.cached(urn)?.state === 'missing';
  if (absent(occ.urn)) return pullInsert(input, at.occurrence, at.column);
  if (clientCommands && kind === 'mlFeature') {
    out.push(act('Add feature to feature table…', ClientCommands.addFeatureToTable, { feature: occ.urn }));
    out.push(act('Add feature to model…', ClientCommands.addFeatureToModel, { feature: occ.urn }));
  }
  if (clientCommands && kind === 'mlModel')
    out.push(act('Add model group…', ClientCommands.addGroupToModel, { model: occ.urn }));
  if (clientCommands && kind === 'dataset' && at.column === undefined) {
    const res = input.cached(occ.urn);
    const current = res?.state === 'found' ? catalogDescription(res) : undefined;
    out.push(
      act('Write dataset description…', ClientCommands.writeDatasetDescription, {
        urn: occ.urn,
        ...(current ? { current } : {}),
      }),
    );
  }
  if (clientCommands && isMlKind(kind)) {
    // The input box starts from the description the catalog shows, when it is known.
    const res = input.cached(occ.urn);
    const current = res?.state === 'found' ? catalogDescription(res) : undefined;
    const title = writeDescriptionTitle(kind);
    out.push(act(title, ClientCommands.writeDescription, { urn: occ.urn, ...(current ? { current } : {}) }));
  }
  if (clientCommands && occ.parsed.urn.kind === 'schemaField' && occ.parsed.urn.dataset) {
    const column = lookupOf(occ.parsed.urn, occ.urn);
    // Nor on a column the cached schema lacks (`emial`): its quick fixes name the near ones.
    const dataset = column ? input.cached(column.urn) : undefined;
    const lacksColumn =
      dataset?.state === 'found' &&
      dataset.kind === 'dataset' &&
      dataset.entity.schemaMetadata !== null &&
      column?.column !== undefined &&
      !findField(shownColumns(dataset.entity), column.column);
    if (column?.column !== undefined && !absent(column.urn) && !lacksColumn) {
      out.push(
        act('Write column description…', ClientCommands.writeColumnDescription, {
          urn: column.urn,
          fieldPath: column.column,
        }),
      );
    }
  }
  out.push(...pullInsert(input, at.occurrence, at.column));
  return out;
}

/** Where YAML has no description yet and the catalog has one: insert it (an ordinary, undoable edit). */
function pullInsert(input: CodeActionInput, occ: UrnOccurrence, column: string | undefined): CodeAction[] {
  const { doc, scan, cached } = input;
  const res = cached(occ.urn);
  if (!res || res.state !== 'found') return [];
  let text: string | undefined;
  let at: InsertionPoint | undefined;
  if (column !== undefined && res.kind === 'dataset') {
    const col = scan.columns.find((c) => scan.occurrences[c.dataset] === occ && c.name.value === column);
    if (!col || col.description) return [];
    text = findField(shownColumns(res.entity), column)?.description ?? undefined;
    at = col;
  } else {
    const owned = scan.descriptions.find((d) => scan.occurrences[d.owner] === occ);
    if (!owned || owned.description) return [];
    text = catalogDescription(res);
    at = owned;
  }
  if (!text || !at) return [];
  const range = { start: doc.positionAt(at.insertAt), end: doc.positionAt(at.replaceEnd ?? at.insertAt) };
  return [
    {
      title: 'Pull description from catalog',
      kind: REFACTOR_KIND,
      edit: { changes: { [doc.uri]: [{ range, newText: renderInsertion(at, text, doc.getText()) }] } },
    },
  ];
}

/**
 * The edit that puts `suggestion` where the diagnostic's range spells `env`: the range itself when
 * it holds exactly the env (a URN literal, YAML), or the inside of the one string literal it holds
 * (a builder call's argument, `"PRDO"`). Anything else — the text changed since, an escape, a
 * concatenation — gets no edit: the fix would replace more than the env.
 */
function envEdit(doc: TextDocument, d: Diagnostic, env: string, suggestion: string): TextEdit | undefined {
  const text = doc.getText(d.range);
  if (text === env) return { range: d.range, newText: suggestion };
  const literal = /^([rRuUbBfF]{0,2})(["'`])(.*)\2$/s.exec(text);
  if (!literal || literal[3] !== env) return undefined;
  const start = doc.offsetAt(d.range.start) + literal[1]!.length + 1;
  return {
    range: { start: doc.positionAt(start), end: doc.positionAt(start + env.length) },
    newText: suggestion,
  };
}

/** The occurrence a diagnostic was made for, while its range still holds it (the text may have changed since). */
function occurrenceOf(
  doc: TextDocument,
  scan: ScanResult,
  d: Diagnostic,
  urn: string | undefined,
): UrnOccurrence | undefined {
  const start = doc.offsetAt(d.range.start);
  const end = doc.offsetAt(d.range.end);
  return occurrencesByStart(scan.occurrences)
    .get(start)
    ?.find((o) => o.end === end && o.urn === urn);
}

/**
 * A scan's occurrences by start, each list in the scan's order: the occurrence of each of a
 * selection's N diagnostics found without a walk over all of them (N × the file's occurrences).
 */
const byStart = new WeakMap<readonly UrnOccurrence[], Map<number, UrnOccurrence[]>>();
function occurrencesByStart(occurrences: readonly UrnOccurrence[]): Map<number, UrnOccurrence[]> {
  let map = byStart.get(occurrences);
  if (map) return map;
  map = new Map();
  for (const o of occurrences) {
    const list = map.get(o.start);
    if (list) list.push(o);
    else map.set(o.start, [o]);
  }
  byStart.set(occurrences, map);
  return map;
}

/** "Write feature table description…": the entity's kind in the user's words. */
function writeDescriptionTitle(kind: MlKind): string {
  return `Write ${kindWord(kind)} description…`;
}

function yamlNodeAt(scan: ScanResult, offset: number): YamlScalarRef | undefined {
  for (const d of scan.descriptions)
    if (d.description && offset >= d.description.start && offset <= d.description.end) return d.description;
  for (const c of [...scan.columns, ...(scan.formatColumns ?? [])])
    if (c.description && offset >= c.description.start && offset <= c.description.end) return c.description;
  return undefined;
}

function isData(v: unknown): v is DiagnosticData {
  return typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'string';
}
