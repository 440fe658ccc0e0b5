/**
 * `catalog-lens check`'s report in three formats: text (one `path:line:column` line per finding, as
 * compilers print them, so terminals and CI log viewers link them), JSON (the report as it is), and
 * SARIF 2.1.0 (OASIS; what GitHub code scanning and other code-scanning tools ingest). Pure.
 */
import { pathToFileURL } from 'node:url';
import { HIDDEN_CHARACTERS } from '../../../model/src/inertText';
import type { DiagnosticCode } from '../features/diagnostics';
import type { FailOn } from './options';

export type Level = 'error' | 'warning' | 'information' | 'hint';

export interface Finding {
  /** 1-based line and column, columns in UTF-16 code units (as LSP and SARIF's `utf16CodeUnits` count). */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Level;
  code: DiagnosticCode;
  message: string;
}

export interface FileFindings {
  /** Relative to the folder the check ran in, with `/` separators. */
  path: string;
  findings: Finding[];
}

export interface CheckReport {
  version: string;
  /** The catalog asked (its URL as shown), or undefined: only the URNs' syntax was checked. */
  catalog: string | undefined;
  /** Why the catalog could not be asked, when it could not. */
  catalogProblem: string | undefined;
  /** Absolute folder the paths are relative to. */
  root: string;
  filesChecked: number;
  urns: number;
  skipped: Array<{ path: string; reason: string }>;
  /** Files with findings only, in path order. */
  files: FileFindings[];
}

const ORDER: Record<Level, number> = { error: 0, warning: 1, information: 2, hint: 3 };

export function counts(report: CheckReport): Record<Level, number> {
  const c: Record<Level, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const f of report.files) for (const d of f.findings) c[d.severity]++;
  return c;
}

/** 0: nothing at or above `failOn`; 1: something is; 3: the catalog could not be asked. */
export function exitCode(report: CheckReport, failOn: FailOn): 0 | 1 | 3 {
  if (report.catalogProblem !== undefined) return 3;
  const limit = ORDER[failOn];
  return report.files.some((f) => f.findings.some((d) => ORDER[d.severity] <= limit)) ? 1 : 0;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

export function summaryLine(report: CheckReport): string {
  const c = counts(report);
  const found = `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${c.information.toLocaleString('en-US')} information${c.hint ? `, ${plural(c.hint, 'hint')}` : ''}`;
  const against = report.catalog ? `against ${visibleText(report.catalog)}` : 'syntax only (no catalog configured)';
  return `${plural(report.filesChecked, 'file')}, ${plural(report.urns, 'distinct URN')} checked ${against}: ${found}`;
}

/**
 * What the text report escapes: `HIDDEN_CHARACTERS` (controls, bidi and zero-width characters …,
 * the editor's rule) and the line breaks and tab that rule leaves to each place. A file name with a
 * line break would otherwise start a line of its own (GitHub Actions reads `::error …` there as a
 * workflow command), and ESC sequences would reach the terminal.
 */
const ESCAPED = new RegExp(`${HIDDEN_CHARACTERS.source}|[\\t\\n\\v\\f\\r\\u0085\\u2028\\u2029]`, 'gu');

/**
 * Text from the repository or the catalog as one visible line: each character of ESCAPED as `\uXXXX`
 * (as `inertText` shows hidden ones), and `##[` (the runner's older command syntax, read anywhere
 * in a line) broken as `#\u0023[`.
 */
export function visibleText(text: string): string {
  return text.replace(ESCAPED, escapeCharacter).replace(/##\[/g, '#\\u0023[');
}

/** A path at the start of a line: escaped, and `./` before it when it would start as `::` (a workflow command, after white space too). */
export function visiblePath(path: string): string {
  const shown = visibleText(path);
  return /^\s*::/.test(shown) ? `./${shown}` : shown;
}

function escapeCharacter(c: string): string {
  const code = c.codePointAt(0)!;
  return code > 0xffff
    ? `\\u{${code.toString(16).toUpperCase()}}`
    : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** One line per finding, skipped file and catalog problem, then the summary; no line holds a raw control character or starts with repository text read as `::`. */
export function formatText(report: CheckReport): string {
  const lines: string[] = [];
  for (const f of report.files) {
    const path = visiblePath(f.path);
    for (const d of f.findings) {
      lines.push(`${path}:${d.line}:${d.column}: ${d.severity}: ${visibleText(d.message)} [${d.code}]`);
    }
  }
  for (const s of report.skipped) lines.push(`${visiblePath(s.path)}: skipped: ${visibleText(s.reason)}`);
  if (report.catalogProblem) lines.push(`catalog: ${visibleText(report.catalogProblem)}`);
  lines.push(summaryLine(report));
  return `${lines.join('\n')}\n`;
}

export function formatJson(report: CheckReport): string {
  return `${JSON.stringify({ ...report, counts: counts(report) }, null, 2)}\n`;
}

/** What each code means, for SARIF's rules (shown by code-scanning tools beside each result). */
export const RULES: Readonly<Record<DiagnosticCode, { name: string; text: string }>> = {
  'malformed-urn': { name: 'MalformedUrn', text: 'A URN does not parse: the message names the part that is wrong.' },
  'deprecated-urn': {
    name: 'DeprecatedUrn',
    text: 'The catalog marks the entity deprecated: the message gives its note, decommission date and replacement.',
  },
  'unknown-urn': { name: 'UnknownUrn', text: 'A well-formed URN names an entity the catalog does not have.' },
  'unknown-env': {
    name: 'UnknownEnv',
    text: "A URN's env is not one of DataHub's fabric types (PROD, DEV …); the message suggests the nearest.",
  },
  'missing-description': { name: 'MissingDescription', text: 'The entity has no description in the catalog.' },
  'missing-column-description': {
    name: 'MissingColumnDescription',
    text: 'The column has no description in the catalog.',
  },
  'unknown-column': { name: 'UnknownColumn', text: "The column is not in the dataset's schema in the catalog." },
  'description-mismatch': {
    name: 'DescriptionMismatch',
    text: "The YAML's description differs from the catalog's.",
  },
  'column-description-mismatch': {
    name: 'ColumnDescriptionMismatch',
    text: "The YAML's column description differs from the catalog's.",
  },
  'missing-list-member': {
    name: 'MissingListMember',
    text: 'A feature or group listed in the YAML is not in the catalog’s list.',
  },
  'yaml-syntax': { name: 'YamlSyntax', text: 'The YAML does not parse; URNs after the error may be missed.' },
  'unregistered-entity-type': {
    name: 'UnregisteredEntityType',
    text: 'The URN names an entity type no DataHub registry knows (a custom type): it is read, never looked up.',
  },
  'datahub-format': {
    name: 'DataHubFormat',
    text: "A DataHub YAML file (dataset, business glossary, structured properties, data product) breaks its format's rules: a key, a value, a required key, a reference.",
  },
  'structured-property-value': {
    name: 'StructuredPropertyValue',
    text: 'A DataHub dataset file gives a structured property a value its definition in the catalog does not take (type, cardinality, allowed values).',
  },
};

const SARIF_LEVEL: Record<Level, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  information: 'note',
  hint: 'note',
};

/** A file path as a relative URI reference: each segment percent-encoded, `/` kept. */
function uriReference(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export function formatSarif(report: CheckReport): string {
  const codes = Object.keys(RULES) as DiagnosticCode[];
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
  const notifications = [
    ...report.skipped.map((s) => ({
      level: 'note',
      message: { text: `skipped: ${s.reason}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: uriReference(s.path), uriBaseId: '%SRCROOT%' } } }],
    })),
    ...(report.catalogProblem ? [{ level: 'error', message: { text: `catalog: ${report.catalogProblem}` } }] : []),
  ];
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Catalog Lens',
            semanticVersion: report.version,
            rules: codes.map((id) => ({
              id,
              name: RULES[id].name,
              shortDescription: { text: RULES[id].text },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: rootUri(report.root) } },
        columnKind: 'utf16CodeUnits',
        invocations: [
          {
            executionSuccessful: report.catalogProblem === undefined,
            ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}),
          },
        ],
        results: report.files.flatMap((f) =>
          f.findings.map((d) => ({
            ruleId: d.code,
            ruleIndex: ruleIndex.get(d.code),
            level: SARIF_LEVEL[d.severity],
            message: { text: d.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: uriReference(f.path), uriBaseId: '%SRCROOT%' },
                  region: {
                    startLine: d.line,
                    startColumn: d.column,
                    endLine: d.endLine,
                    endColumn: d.endColumn,
                  },
                },
              },
            ],
          })),
        ),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

/** The folder as a file: URI ending in `/` (SARIF wants base URIs to end with a slash). */
function rootUri(root: string): string {
  const href = pathToFileURL(root).href;
  return href.endsWith('/') ? href : `${href}/`;
}
