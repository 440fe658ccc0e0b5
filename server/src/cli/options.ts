/**
 * `catalog-lens check`'s options: flags first, then the environment, then a config file, then the
 * editor's defaults. Pure: the caller gives argv, the environment and a file reader, and gets either
 * options or one message that says what is wrong and where (exit code 2).
 *
 * The config file is JSON with the editor's setting names without their `catalogLens.` prefix
 * (`{"url": "…", "diagnostics": {"unknown": "error"}}`; prefixed keys are read too, so a
 * `.vscode/settings.json` section can be copied as it is). Unlike the editor, which falls back to a
 * default for a wrong value, the CLI refuses it: a CI check must not pass on a typo. A config file
 * may name the catalog only when no token is set: the token goes to a URL from a flag or the
 * environment only, as the editor's `url` is machine-scoped: a config file checked into a
 * repository must not send the token to a host of its choosing.
 */
import { resolve } from 'node:path';
import { DEFAULT_SETTINGS, type Settings } from '../../../model/src/protocol';
import { mergeSettings } from '../settings';

export type Format = 'text' | 'json' | 'sarif';
/** The least severity that fails the check. */
export type FailOn = 'error' | 'warning' | 'information';

export interface CheckOptions {
  paths: string[];
  format: Format;
  failOn: FailOn;
  /** Where the report goes; undefined: standard output. */
  output: string | undefined;
  /** Progress lines on standard error: on when it is a terminal, unless --no-progress. */
  progress: boolean;
  settings: Settings;
  /** The catalog's token: CATALOG_LENS_TOKEN, or the first line of --token-file. Never a flag: `ps` shows flags. */
  token: string | undefined;
  /** The config file read, if any. */
  configFile: string | undefined;
  /** `mcp --allow-writes`: the write tools write to the catalog (else they refuse). */
  allowWrites: boolean;
}

export type Parsed =
  { command: 'check' | 'mcp'; options: CheckOptions } | { command: 'help' | 'version' } | { error: string };

/** File access, given by the caller (tests give their own). */
export interface OptionsIo {
  /** The file's text, or undefined when there is no such file; throws on other errors. */
  readText(path: string): string | undefined;
  cwd: string;
  stderrIsTerminal: boolean;
}

export const CONFIG_FILE = '.catalog-lens.json';

export const USAGE = `Usage: catalog-lens check [paths…] [options]
       catalog-lens mcp [folder] [--allow-writes] [--url URL] [--graphql-url URL] [--token-file FILE] [--config FILE] [--exclude NAME]

Checks the URNs of every matching file under the paths (default: the current folder) as the editor
does: malformed URNs, and, with a catalog, unknown entities, env typos and missing descriptions.

Options:
  --format text|json|sarif     report format (default: text; sarif: SARIF 2.1.0 for code scanning)
  --output FILE                write the report to FILE instead of standard output
  --fail-on error|warning|information
                               least severity that fails the check (default: error)
  --url URL                    the catalog (DataHub GMS or the local catalog); env CATALOG_LENS_URL
  --graphql-url URL            its GraphQL endpoint, if not {url}/api/graphql; env CATALOG_LENS_GRAPHQL_URL
  --token-file FILE            read the catalog's token from FILE (or set CATALOG_LENS_TOKEN)
  --config FILE                settings file (default: ${CONFIG_FILE} in the current folder, if there)
  --exclude NAME               also skip folders named NAME (repeatable)
  --no-progress                no progress lines on standard error
  -h, --help                   this text
  --version                    the version

The token (CATALOG_LENS_TOKEN or --token-file) is sent only to a catalog given by --url or
CATALOG_LENS_URL (and --graphql-url or CATALOG_LENS_GRAPHQL_URL): with a token, a config file's "url"
or "graphqlUrl" is refused, since a file in the repository must not choose where the token goes.
Without --url, CATALOG_LENS_URL or a config file's "url", DataHub's own CLI settings are used
(DATAHUB_GMS_URL and DATAHUB_GMS_TOKEN, or ~/.datahubenv); with none, only the URNs' syntax is checked.

Exit codes: 0 nothing at or above --fail-on; 1 something is; 2 bad usage or settings;
3 the catalog could not be asked (unreachable, refused the token).

catalog-lens mcp serves the agent bridge's tools (what the folder's code names of the catalog, its
problems, descriptions, search and downstream impact) to an MCP client over standard input and
output, on the folder (default: the current one), with the catalog and token found as above; its
config file is the folder's ${CONFIG_FILE}. Its write tools (set_description, add_link,
append_members) write to the catalog only with --allow-writes; without it they answer a tool error.`;

/** The settings that say where requests (and the token) go, with the flag and variable that may set them. */
const ENDPOINTS = [
  { key: 'url', flag: 'url', env: 'CATALOG_LENS_URL', what: 'the catalog' },
  { key: 'graphqlUrl', flag: 'graphql-url', env: 'CATALOG_LENS_GRAPHQL_URL', what: "the catalog's GraphQL endpoint" },
] as const;

const FORMATS: readonly Format[] = ['text', 'json', 'sarif'];
const FAIL_ON: readonly FailOn[] = ['error', 'warning', 'information'];
const SEVERITIES = ['error', 'warning', 'information', 'hint', 'off'] as const;

export function parseCheckArgs(argv: readonly string[], env: NodeJS.ProcessEnv, io: OptionsIo): Parsed {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help')
    return { command: 'help' };
  if (command === '--version' || command === '-v') return { command: 'version' };
  if (command !== 'check' && command !== 'mcp')
    return { error: `unknown command '${command}': the commands are 'check' and 'mcp'` };
  const mcp = command === 'mcp';

  const paths: string[] = [];
  const exclude: string[] = [];
  const flags: Partial<
    Record<'format' | 'output' | 'fail-on' | 'url' | 'graphql-url' | 'token-file' | 'config', string>
  > = {};
  let progress = io.stderrIsTerminal;
  let allowWrites = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '-h' || arg === '--help') return { command: 'help' };
    if (arg === '--version') return { command: 'version' };
    if (arg === '--allow-writes' && mcp) {
      allowWrites = true;
      continue;
    }
    if (arg === '--no-progress') {
      progress = false;
      continue;
    }
    if (arg === '--') {
      paths.push(...rest.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-')) {
      paths.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = (eq > 0 ? arg.slice(0, eq) : arg).replace(/^--/, '');
    const known = ['format', 'output', 'fail-on', 'url', 'graphql-url', 'token-file', 'config', 'exclude'];
    if (!arg.startsWith('--') || !known.includes(name) || (mcp && ['format', 'output', 'fail-on'].includes(name)))
      return { error: `unknown option '${arg}' (catalog-lens ${command} --help lists them)` };
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      value = rest[i + 1];
      i++;
    }
    if (value === undefined || (eq < 0 && value.startsWith('--'))) return { error: `--${name} needs a value` };
    if (name === 'exclude') exclude.push(value);
    else flags[name as keyof typeof flags] = value;
  }

  const format = flags.format ?? 'text';
  if (!FORMATS.includes(format as Format))
    return { error: `--format must be one of ${FORMATS.join(', ')}, not '${format}'` };
  const failOn = flags['fail-on'] ?? 'error';
  if (!FAIL_ON.includes(failOn as FailOn))
    return { error: `--fail-on must be one of ${FAIL_ON.join(', ')}, not '${failOn}'` };

  if (mcp && paths.length > 1) return { error: 'catalog-lens mcp serves one folder' };
  // The config file: the one named, or the default one if it is there (of the folder mcp serves).
  const base = mcp && paths[0] !== undefined ? resolve(io.cwd, paths[0]) : io.cwd;
  const configPath = flags.config ?? `${base.replace(/\/+$/, '')}/${CONFIG_FILE}`;
  let raw: Record<string, unknown> = {};
  let configFile: string | undefined;
  let text: string | undefined;
  try {
    text = io.readText(configPath);
  } catch (err) {
    return { error: `${configPath}: cannot be read (${err instanceof Error ? err.message : String(err)})` };
  }
  if (text === undefined && flags.config !== undefined) return { error: `${configPath}: no such file` };
  if (text !== undefined) {
    const read = readConfig(text, configPath);
    if ('error' in read) return read;
    raw = read.settings;
    configFile = configPath;
  }

  const fromEnv = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  // Which endpoints the config file names (not overridden by a flag or the environment): see the token below.
  const fromFile = ENDPOINTS.filter(
    (e) => typeof raw[e.key] === 'string' && raw[e.key] !== '' && flags[e.flag] === undefined && !fromEnv(e.env),
  );
  const url = flags.url ?? fromEnv('CATALOG_LENS_URL');
  if (url !== undefined) raw['url'] = url;
  const graphqlUrl = flags['graphql-url'] ?? fromEnv('CATALOG_LENS_GRAPHQL_URL');
  if (graphqlUrl !== undefined) raw['graphqlUrl'] = graphqlUrl;
  for (const [key, value] of [
    ['url', raw['url']],
    ['graphqlUrl', raw['graphqlUrl']],
  ] as const) {
    if (typeof value === 'string' && value !== '' && !/^https?:\/\/[^/]/i.test(value))
      return { error: `${key} must be an http:// or https:// URL, not '${value}'` };
  }
  const settings = mergeSettings(raw);
  settings.excludeFolders = [...settings.excludeFolders, ...exclude];

  let token = fromEnv('CATALOG_LENS_TOKEN');
  if (flags['token-file'] !== undefined) {
    let tokenText: string | undefined;
    try {
      tokenText = io.readText(flags['token-file']);
    } catch (err) {
      return {
        error: `--token-file ${flags['token-file']}: cannot be read (${err instanceof Error ? err.message : String(err)})`,
      };
    }
    if (tokenText === undefined) return { error: `--token-file ${flags['token-file']}: no such file` };
    token = tokenText.split(/\r?\n/)[0]?.trim() || undefined;
    if (token === undefined) return { error: `--token-file ${flags['token-file']}: the first line is empty` };
  }
  // The token goes only where the user said: a catalog named by a flag or the environment, never one
  // a file in the checked-out repository names (in CI, any pull request's choice). DataHub's own
  // configuration keeps its token bound to its server (catalogClient/registry.ts), without this.
  const named = fromFile[0];
  if (token !== undefined && named !== undefined) {
    const source = flags['token-file'] !== undefined ? '--token-file' : 'CATALOG_LENS_TOKEN';
    return {
      error:
        `${configFile}: "${named.key}" names ${named.what}, and a token is set (${source}): the token is sent only ` +
        `to a URL given by a flag or the environment, never to one a file in the repository names. ` +
        `To use that ${named.what === 'the catalog' ? 'catalog' : 'endpoint'} with the token, pass --${named.flag} URL or set ${named.env} ` +
        `(in CI: from the CI's own settings, not the repository).`,
    };
  }

  return {
    command,
    options: {
      paths: paths.length > 0 ? paths : ['.'],
      format: format as Format,
      failOn: failOn as FailOn,
      output: flags.output,
      progress,
      settings,
      token,
      configFile,
      allowWrites,
    },
  };
}

/**
 * The config file's settings, checked against the editor's settings: every key known, every value
 * of the default's type (severities and the write path from their lists). The token is refused:
 * a file in a repository is the wrong place for it.
 */
export function readConfig(text: string, file: string): { settings: Record<string, unknown> } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { error: `${file}: not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { error: `${file}: must hold a JSON object of settings` };
  const settings: Record<string, unknown> = {};
  for (const [rawKey, value] of Object.entries(parsed as Record<string, unknown>)) {
    const key = rawKey.replace(/^catalogLens\./, '');
    if (/token/i.test(key))
      return {
        error: `${file}: "${rawKey}": a token does not belong in a file; set CATALOG_LENS_TOKEN or --token-file`,
      };
    const problem = checkSetting(key, value, DEFAULT_SETTINGS as unknown as Record<string, unknown>);
    if (problem) return { error: `${file}: "${rawKey}" ${problem}` };
    // "diagnostics.unknown": "error" (the editor's dotted form) and {"diagnostics": {…}} both work.
    const dot = key.indexOf('.');
    if (dot > 0) {
      const group = key.slice(0, dot);
      settings[group] = { ...(settings[group] as Record<string, unknown> | undefined), [key.slice(dot + 1)]: value };
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      settings[key] = { ...(settings[key] as Record<string, unknown> | undefined), ...value };
    } else settings[key] = value;
  }
  return { settings };
}

/** What is wrong with one setting, or undefined. */
function checkSetting(key: string, value: unknown, defaults: Record<string, unknown>): string | undefined {
  const dot = key.indexOf('.');
  if (dot > 0) {
    const group = defaults[key.slice(0, dot)];
    if (typeof group !== 'object' || group === null || Array.isArray(group)) return 'is not a setting';
    return checkSetting(key.slice(dot + 1), value, group as Record<string, unknown>);
  }
  if (!(key in defaults)) return 'is not a setting';
  const def = defaults[key];
  if (key === 'writePath')
    return value === 'aspects' || value === 'graphql' ? undefined : 'must be "aspects" or "graphql"';
  if (typeof def === 'string' && SEVERITIES.includes(def as (typeof SEVERITIES)[number]))
    return SEVERITIES.includes(value as (typeof SEVERITIES)[number])
      ? undefined
      : `must be one of ${SEVERITIES.join(', ')}`;
  if (Array.isArray(def))
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? undefined : 'must be a list of strings';
  if (typeof def === 'object' && def !== null) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
    for (const [k, v] of Object.entries(value)) {
      const p = checkSetting(k, v, def as Record<string, unknown>);
      if (p) return `.${k} ${p}`;
    }
    return undefined;
  }
  if (typeof def === 'number')
    return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
  return typeof value === typeof def ? undefined : `must be a ${typeof def}`;
}
