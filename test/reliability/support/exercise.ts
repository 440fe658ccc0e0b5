/**
 * One input through the server's pure services, the functions its handlers call: the document
 * request (scan, then diagnostics without and with the catalog), a hover per occurrence and
 * column, code actions per diagnostic and per occurrence. Each request is timed on its own;
 * what is wrong with the outputs comes back as a list of problems.
 */
import { performance } from 'node:perf_hooks';
import type { CodeAction, CodeActionParams, Diagnostic } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { MESSAGE_LIMIT } from '../../../model/src/inertText';
import { DEFAULT_SETTINGS, type Settings } from '../../../model/src/protocol';
import { parseUrn } from '../../../model/src/urn';
import type { Resolution } from '../../../server/src/catalogClient/client';
import { ClientCommands } from '../../../model/src/commandIds';
import { codeActionsFor } from '../../../server/src/features/codeActions';
import { diagnosticsFor, type PlainDiagnostic } from '../../../server/src/features/diagnostics';
import { hoverAt } from '../../../server/src/features/hover';
import { scanDocument } from '../../../server/src/scan';
import type { ScanResult, UrnOccurrence } from '../../../server/src/scan/types';
import { toLspDiagnostic } from '../../../server/src/lsp';
import { NAMESPACES } from './fuzzInputs';
import { activeMarkdown, activeMessage } from './inert';

export const UI_BASE = 'http://127.0.0.1:9002';
export const SETTINGS: Settings = {
  ...DEFAULT_SETTINGS,
  url: 'http://127.0.0.1:9',
  uiUrl: UI_BASE,
  namespaces: [...NAMESPACES],
};

/** Longest hover the features can make from bounded parts (descriptions, 15 table rows, 20 names). */
export const MAX_HOVER_CHARS = 25_000;
const MAX_HOVERS = 200;
const MAX_ACTION_REQUESTS = 30;

export type RequestKind = 'document' | 'hover' | 'codeAction';

/** Counts and the slowest request of each kind. */
export class FuzzLedger {
  inputs = 0;
  requests = 0;
  readonly slowest: Record<RequestKind, { ms: number; what: string }> = {
    document: { ms: 0, what: '' },
    hover: { ms: 0, what: '' },
    codeAction: { ms: 0, what: '' },
  };

  time<T>(kind: RequestKind, what: () => string, run: () => T): T {
    const t0 = performance.now();
    const result = run();
    const ms = performance.now() - t0;
    this.requests++;
    if (ms > this.slowest[kind].ms) this.slowest[kind] = { ms, what: what() };
    return result;
  }

  summary(): string {
    const f = (k: RequestKind): string => `${k} ${this.slowest[k].ms.toFixed(1)} ms`;
    return `${this.inputs} inputs, ${this.requests} requests; slowest: ${f('document')}, ${f('hover')}, ${f('codeAction')}`;
  }
}

export interface ExerciseOptions {
  lookup?: (urn: string) => Resolution | undefined;
  trusted?: boolean;
  clientCommands?: boolean;
  /** Check diagnostic messages as catalog text (only when the document's own URNs are short). */
  checkMessages?: boolean;
}

export interface Exercised {
  scan: ScanResult;
  diagnostics: PlainDiagnostic[];
  problems: string[];
}

function describeInput(languageId: string, text: string): string {
  return `${languageId} document of ${text.length} characters: ${JSON.stringify(text.slice(0, 120))}${text.length > 120 ? '…' : ''}`;
}

export function exercise(languageId: string, text: string, ledger: FuzzLedger, opts: ExerciseOptions = {}): Exercised {
  const lookup = opts.lookup ?? (() => undefined);
  const trusted = opts.trusted ?? true;
  const problems: string[] = [];
  const what = (): string => describeInput(languageId, text);
  const { scan, diagnostics } = ledger.time('document', what, () => {
    const s = scanDocument(text, languageId, { namespaces: NAMESPACES });
    diagnosticsFor(s, () => undefined, SETTINGS.diagnostics);
    return { scan: s, diagnostics: diagnosticsFor(s, lookup, SETTINGS.diagnostics) };
  });
  ledger.inputs++;
  checkScan(scan, text.length, problems);
  checkDiagnostics(scan, diagnostics, text, problems, opts.checkMessages === true);

  const offsets = new Set<number>();
  for (const o of scan.occurrences.slice(0, MAX_HOVERS)) offsets.add(o.start).add(Math.max(o.start, o.end - 1));
  for (const c of scan.columns.slice(0, 50)) offsets.add(c.name.start);
  for (const offset of offsets) {
    const hover = ledger.time('hover', what, () => hoverAt(scan, offset, SETTINGS, lookup)?.markdown);
    if (hover === undefined) continue;
    for (const p of activeMarkdown(hover, (t) => t.startsWith(UI_BASE))) problems.push(`hover at ${offset}: ${p}`);
    // The link to the entity's page holds the document's own URN, however long: not counted.
    const shown = hover.replace(/\n\n\[Open in catalog\]\([^\n]*\)$/, '');
    if (shown.length > MAX_HOVER_CHARS) problems.push(`hover at ${offset} is ${shown.length} characters`);
  }

  const doc = TextDocument.create('file:///fuzz/doc', languageId, 1, text);
  const lsp = diagnostics.slice(0, MAX_ACTION_REQUESTS).map((d) => toLspDiagnostic(doc, d));
  const ask = (params: CodeActionParams): CodeAction[] =>
    ledger.time('codeAction', what, () =>
      codeActionsFor({
        doc,
        scan,
        params,
        trusted,
        clientCommands: opts.clientCommands ?? true,
        cached: lookup,
      }),
    );
  const requests: CodeActionParams[] = [
    ...lsp.map((d): CodeActionParams => ({
      textDocument: { uri: doc.uri },
      range: d.range,
      context: { diagnostics: [d] },
    })),
    ...scan.occurrences.slice(0, 20).map((o): CodeActionParams => {
      const at = doc.positionAt(o.start);
      return {
        textDocument: { uri: doc.uri },
        range: { start: at, end: at },
        context: { diagnostics: lsp.filter((d) => overlaps(doc, d, o)) },
      };
    }),
  ];
  for (const params of requests) checkActions(ask(params), doc, trusted, problems);
  return { scan, diagnostics, problems };
}

function overlaps(doc: TextDocument, d: Diagnostic, o: UrnOccurrence): boolean {
  const s = doc.offsetAt(d.range.start);
  const e = doc.offsetAt(d.range.end);
  return s <= o.end && e >= o.start;
}

function checkScan(scan: ScanResult, length: number, problems: string[]): void {
  scan.occurrences.forEach((o, i) => {
    if (!(o.start >= 0 && o.start < o.end && o.end <= length))
      problems.push(`occurrence ${i} has range [${o.start}, ${o.end}) in a text of ${length}`);
    if (o.errorRange && !(o.errorRange.start >= o.start && o.errorRange.end <= o.end)) {
      problems.push(
        `occurrence ${i} [${o.start}, ${o.end}) has its error at [${o.errorRange.start}, ${o.errorRange.end})`,
      );
    }
    if (
      o.cutInFlow &&
      !(
        o.cutInFlow.end > o.end &&
        o.cutInFlow.end <= length &&
        parseUrn(o.cutInFlow.urn).ok &&
        o.cutInFlow.urn.startsWith(o.urn)
      )
    ) {
      problems.push(
        `occurrence ${i} [${o.start}, ${o.end}) is cut in flow, but its whole URN ends at ${o.cutInFlow.end} as ${JSON.stringify(o.cutInFlow.urn.slice(0, 200))}`,
      );
    }
    if (o.parent !== undefined) {
      const p = scan.occurrences[o.parent];
      if (!p || o.parent >= i || o.start < p.start || o.end > p.end)
        problems.push(`occurrence ${i} is not inside its parent ${o.parent}`);
    }
  });
  for (const p of scan.problems) {
    if (!(p.start >= 0 && p.start <= p.end && p.end <= length))
      problems.push(`scan problem at [${p.start}, ${p.end}) in a text of ${length}`);
  }
}

function checkDiagnostics(
  scan: ScanResult,
  diagnostics: PlainDiagnostic[],
  text: string,
  problems: string[],
  checkMessages: boolean,
): void {
  const length = text.length;
  for (const d of diagnostics) {
    if (!(d.start >= 0 && d.start <= d.end && d.end <= length))
      problems.push(`${d.code} diagnostic has range [${d.start}, ${d.end}) in a text of ${length}`);
    if (typeof d.message !== 'string' || d.message === '') problems.push(`${d.code} diagnostic without a message`);
    if (checkMessages) {
      // The document's own text is untrusted too (a crafted URN): every message is one bounded plain line.
      for (const p of activeMessage(d.message, MESSAGE_LIMIT, 'plain')) problems.push(`${d.code} message: ${p}`);
    }
  }
  // Every malformed URN the scan sees gets a malformed-urn diagnostic inside it (for one a flow comma
  // cut, inside the whole URN the source holds, which the diagnostic covers for its quick fix).
  for (const o of scan.occurrences) {
    if (o.template || o.parent !== undefined || !o.parsed || o.parsed.ok) continue;
    const end = o.cutInFlow?.end ?? o.end;
    if (o.cutInFlow && text.slice(o.start, end) !== o.cutInFlow.urn)
      problems.push(`cut URN at [${o.start}, ${end}) is not the source's text`);
    if (!diagnostics.some((d) => d.code === 'malformed-urn' && d.start >= o.start && d.end <= end)) {
      problems.push(`malformed URN at [${o.start}, ${o.end}) has no malformed-urn diagnostic inside it`);
    }
  }
}

function checkActions(actions: CodeAction[], doc: TextDocument, trusted: boolean, problems: string[]): void {
  for (const a of actions) {
    const kind = String(a.kind ?? '');
    if (!(kind === 'quickfix' || kind.startsWith('refactor')))
      problems.push(`code action '${a.title}' has kind '${kind}'`);
    // Untrusted, the one command offered is the one that opens the trust editor (it writes nothing).
    if (!trusted && a.command && a.command.command !== ClientCommands.manageTrust)
      problems.push(`untrusted workspace offered '${a.title}', which runs ${a.command.command}`);
    for (const [uri, edits] of Object.entries(a.edit?.changes ?? {})) {
      if (uri !== doc.uri) problems.push(`code action '${a.title}' edits ${uri}`);
      for (const e of edits) {
        const s = doc.offsetAt(e.range.start);
        const t = doc.offsetAt(e.range.end);
        if (s > t || e.range.start.line >= doc.lineCount + 1 || e.range.end.line >= doc.lineCount + 1)
          problems.push(`code action '${a.title}' edits outside the document`);
      }
    }
  }
}
