/**
 * The client's own log: the "Catalog Lens" output channel. The language server's messages and
 * the LSP trace go to their own channel, "Catalog Lens Language Server".
 */
import * as vscode from 'vscode';

export const CLIENT_LOG_NAME = 'Catalog Lens';
export const SERVER_LOG_NAME = 'Catalog Lens Language Server';

export interface Log {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
  debug(message: string): void;
  trace(message: string): void;
  show(): void;
}

export function createLog(context: vscode.ExtensionContext): Log {
  const channel = vscode.window.createOutputChannel(CLIENT_LOG_NAME, { log: true });
  context.subscriptions.push(channel);
  return {
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m, e) => channel.error(e === undefined ? m : `${m}: ${describeError(e)}`),
    debug: (m) => channel.debug(m),
    trace: (m) => channel.trace(m),
    show: () => channel.show(true),
  };
}

export function describeError(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string')
    return (e as { message: string }).message;
  return String(e);
}
