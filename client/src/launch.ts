/**
 * How the language server process is launched: its environment, initialization options and
 * document selector. No `vscode` here, so the rules (the token travels only in the environment)
 * are unit-tested on their own.
 */
import { DEFAULT_SETTINGS, SERVER_TOKEN_ENV, type ServerInitializationOptions } from '../../model/src/protocol';

/** Languages the extension activates on and the server is given; settings may add more. */
export const SERVER_LANGUAGES: readonly string[] = DEFAULT_SETTINGS.languages;

export const SERVER_SCHEMES: readonly string[] = ['file', 'untitled'];

/**
 * glibc's mmap threshold fixed at its default, 128 KiB. Setting any malloc tunable turns off
 * glibc's dynamic threshold, which V8's compiler threads raise to ~1 MiB within seconds; after
 * that, allocations under it come from glibc's arenas, which keep freed memory resident (~10 MiB
 * of the server's RSS after checking a 10,000-file workspace). glibc reads it only when the
 * process starts; other C libraries ignore it. A value the user's environment sets is kept.
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' };

/**
 * V8's young generation held to semi-spaces of 8 MiB (its default on 64-bit machines is 16 MiB):
 * Check Workspace's burst of short-lived objects grows it to its full size, which the process
 * keeps resident until it is idle. Benchmark 10 measured the peak RSS of a 10,000-file check
 * ~6 MiB lower with it, for the same CPU. V8 reads it only when the process starts.
 */
export const SERVER_NODE_ARGS: readonly string[] = ['--max-semi-space-size=8'];

/** The V8 options the server is started with: SERVER_NODE_ARGS, unless NODE_OPTIONS already sizes the young generation. */
export function serverNodeArgs(base: NodeJS.ProcessEnv): string[] {
  return /--max-semi-space-size\b/.test(base['NODE_OPTIONS'] ?? '') ? [] : [...SERVER_NODE_ARGS];
}

/**
 * The server's environment: the extension host's, with SERVER_MALLOC_ENV where it does not set
 * those, and the token of the configured origin or none. A CATALOG_LENS_TOKEN inherited from the
 * shell VS Code was started from is removed: it was not stored for any origin, and the configured
 * URL may be another host.
 */
export function serverProcessEnv(base: NodeJS.ProcessEnv, token: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...SERVER_MALLOC_ENV, ...base };
  delete env[SERVER_TOKEN_ENV];
  if (token) env[SERVER_TOKEN_ENV] = token;
  return env;
}

/**
 * Never the token: initialization options show up in the LSP trace. The extension registers the
 * client commands, and VS Code's hover box shows the diagnostics and the document link under the
 * mouse (so the server's hovers leave them out). `allowInsecureHosts` lists
 * the plain-HTTP hosts, `allowTokenOrigins` the other origins (a graphqlUrl's), the user already
 * agreed to send the token to, so the server does not ask again.
 */
export function serverInitializationOptions(
  trusted: boolean,
  allowInsecureHosts: readonly string[] = [],
  allowTokenOrigins: readonly string[] = [],
): ServerInitializationOptions {
  return {
    clientCommands: true,
    hoverShowsDiagnostics: true,
    hoverShowsLinkTooltips: true,
    statusNotifications: true,
    trusted,
    allowInsecureHosts: [...allowInsecureHosts],
    allowTokenOrigins: [...allowTokenOrigins],
  };
}

export function serverDocumentSelector(
  configuredLanguages: readonly string[],
): Array<{ scheme: string; language: string }> {
  const languages = [...new Set([...SERVER_LANGUAGES, ...configuredLanguages])];
  return languages.flatMap((language) => SERVER_SCHEMES.map((scheme) => ({ scheme, language })));
}

/** What the running server was started with; a different key means a restart. */
export interface LaunchInputs {
  origin: string | undefined;
  token: string | undefined;
  allowInsecureHosts: readonly string[];
  allowTokenOrigins: readonly string[];
  trusted: boolean;
  languages: readonly string[];
}

export function sameLaunch(a: LaunchInputs, b: LaunchInputs): boolean {
  const set = (xs: readonly string[]): string => [...new Set(xs)].sort().join(',');
  return (
    a.origin === b.origin &&
    a.token === b.token &&
    a.trusted === b.trusted &&
    set(a.allowInsecureHosts) === set(b.allowInsecureHosts) &&
    set(a.allowTokenOrigins) === set(b.allowTokenOrigins) &&
    set(a.languages) === set(b.languages)
  );
}
