/**
 * The protocol side of the server, apart from the wiring: diagnostics and hovers in LSP's form,
 * cancellation both ways, one guard around every request, the custom messages of
 * model/src/protocol.ts with their types, and the shape of a command handler.
 */
import {
  DiagnosticSeverity,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Connection,
  type Diagnostic,
  type DocumentLink,
  type Hover,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CustomNotification, CustomRequest } from '../../model/src/protocol';
import type { PlainDiagnostic } from './features/diagnostics';
import type { HoverAt } from './features/hover';

export type Log = (message: string) => void;

/** A server command (`workspace/executeCommand`): its one argument, unchecked, to its result. */
export type CommandHandler<R = unknown> = (args: unknown, token: CancellationToken) => Promise<R>;

const SEVERITY: Record<PlainDiagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(doc: TextDocument, d: PlainDiagnostic): Diagnostic {
  return {
    range: { start: doc.positionAt(d.start), end: doc.positionAt(d.end) },
    severity: SEVERITY[d.severity],
    message: d.message,
    code: d.code,
    source: 'catalog-lens',
    data: d.data,
  };
}

export function toLspHover(doc: TextDocument, hover: HoverAt): Hover {
  return {
    contents: { kind: 'markdown', value: hover.markdown },
    range: { start: doc.positionAt(hover.range.start), end: doc.positionAt(hover.range.end) },
  };
}

export function toLspDocumentLink(
  doc: TextDocument,
  link: { start: number; end: number; target: string },
): DocumentLink {
  return {
    range: { start: doc.positionAt(link.start), end: doc.positionAt(link.end) },
    target: link.target,
    tooltip: 'Open in catalog',
  };
}

/** An AbortSignal that follows the request's cancellation, for the catalog client. */
export function signalOf(token: CancellationToken | undefined): AbortSignal | undefined {
  if (!token) return undefined;
  const c = new AbortController();
  if (token.isCancellationRequested) c.abort();
  else token.onCancellationRequested(() => c.abort());
  return c.signal;
}

/** The answer to a request the client cancelled. */
export function cancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
}

/**
 * The guard every request handler is wrapped in (json-language-features' runSafeAsync): a request
 * cancelled before it runs is answered so at once; a ResponseError goes to the client as it is;
 * any other failure is logged with the document's URI and answered with `fallback`.
 */
export function guardWith(log: Log) {
  return <P, R>(name: string, fallback: R, handler: (params: P, token: CancellationToken) => Promise<R>) =>
    async (params: P, token: CancellationToken): Promise<R> => {
      if (token?.isCancellationRequested) throw cancelled();
      try {
        return await handler(params, token);
      } catch (e) {
        if (e instanceof ResponseError) throw e;
        const uri = (params as { textDocument?: { uri?: string } } | undefined)?.textDocument?.uri;
        log(`${name}${uri ? ` on ${uri}` : ''} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        return fallback;
      }
    };
}

/**
 * A custom request's handler, typed by its declaration. Registered by method: the model's
 * declarations are not vscode-jsonrpc `RequestType`s (model/src/protocol.ts says why).
 */
export function onCustomRequest<P, R>(
  connection: Connection,
  type: CustomRequest<P, R>,
  handler: (params: P, token: CancellationToken) => Promise<R>,
): void {
  connection.onRequest(type.method, handler);
}

export function sendCustomNotification<P>(connection: Connection, type: CustomNotification<P>, params: P): void {
  void connection.sendNotification(type.method, params);
}
