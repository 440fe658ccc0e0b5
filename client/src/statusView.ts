/**
 * What the status bar item shows for a connection state, and which command a click runs (the
 * fix for that state). No `vscode` here, so the mapping is unit-tested on its own.
 */
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import type { CatalogStatus, ConnectionState } from '../../model/src/protocol';
import { ClientCommands } from '../../model/src/commandIds';

/** The server's connection states, and the client's own: its language server restarting after a crash. */
export type ClientStatus = CatalogStatus | { state: 'restarting'; message: string; endpoint?: undefined };

export interface StatusView {
  text: string;
  tooltip: string;
  /** VS Code's status bar items take only the theme's error and warning backgrounds. */
  background: 'error' | 'warning' | undefined;
  command: string;
}

const VIEWS: Record<ConnectionState | 'restarting', Omit<StatusView, 'tooltip'> & { title: string }> = {
  connected: {
    text: '$(database) Catalog: connected',
    title: 'Catalog connected',
    background: undefined,
    command: ClientCommands.showOutput,
  },
  checking: {
    text: '$(sync~spin) Catalog: checking…',
    title: 'Checking the catalog connection…',
    background: undefined,
    command: ClientCommands.showOutput,
  },
  restarting: {
    text: '$(sync~spin) Catalog: restarting',
    title: 'The language server stopped unexpectedly and is restarting',
    background: 'warning',
    command: ClientCommands.showOutput,
  },
  notConfigured: {
    text: '$(plug) Catalog: not configured',
    title: 'No catalog configured — click to configure',
    background: 'warning',
    command: ClientCommands.configure,
  },
  unauthorized: {
    text: '$(key) Catalog: unauthorized',
    title: 'The catalog refused the access token — click to set one',
    background: 'error',
    command: ClientCommands.setAccessToken,
  },
  unreachable: {
    text: '$(debug-disconnect) Catalog: unreachable',
    title:
      'The catalog is down or not answering; Catalog Lens asks it again on its own — click to retry now (Retry, Show Log)',
    background: 'error',
    command: ClientCommands.retryConnection,
  },
  error: {
    text: '$(error) Catalog: error',
    title: 'The catalog answered with an error — click to show the log',
    background: 'error',
    command: ClientCommands.showOutput,
  },
};

/** Longest host shown as it is in the status bar; a longer one is shortened by shortHost. */
const HOST_LIMIT = 28;

/**
 * The host (and port) of the endpoint, as the status bar shows it: `localhost:9002`, or for a
 * long name its first label and the port (`datahub-gms…:8080`): the bar is shared with other
 * items, and the tooltip has the whole endpoint. Undefined when the endpoint is not a URL.
 */
export function shortHost(endpoint: string | undefined): string | undefined {
  if (!endpoint) return undefined;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return undefined;
  }
  const host = inertText(url.host, 'plain');
  if (host === '' || host.length <= HOST_LIMIT) return host || undefined;
  const port = url.port ? `:${url.port}` : '';
  // An IP address has no first label worth keeping: it is cut at the limit.
  const name = url.hostname;
  const first = /^[\d.]+$/.test(name) || name.startsWith('[') ? name : (name.split('.')[0] ?? name);
  const cut = first.length > HOST_LIMIT - port.length - 1 ? first.slice(0, HOST_LIMIT - port.length - 1) : first;
  return `${inertText(cut, 'plain')}…${port}`;
}

/** Said in the tooltip of every state while the workspace is not trusted. */
export const RESTRICTED_LINE =
  'Restricted Mode: Catalog Lens reads the catalog but writes nothing to it — click to trust this workspace';

/**
 * The item for a state. In Restricted Mode (`trusted` false) a connected item says "read-only",
 * its tooltip says why and a click opens the Workspace Trust editor; the other states keep their fix.
 */
export function statusView(status: ClientStatus, trusted = true): StatusView {
  const v = VIEWS[status.state] ?? VIEWS.error;
  // Connected says to which host; the other states say what is wrong.
  const host = status.state === 'connected' ? shortHost(status.endpoint) : undefined;
  const readOnly = !trusted && status.state === 'connected';
  // `$(name)` in a status bar text is an icon: a host that spells one is shown as text (VS Code's escapeIcons).
  const text = host
    ? `$(database) Catalog: ${host.replace(/\$\(/g, '\\$(')}${readOnly ? ' (read-only)' : ''}`
    : readOnly
      ? `${v.text} (read-only)`
      : v.text;
  // The message may quote the catalog: each line of the tooltip is one plain bounded line.
  const lines = [
    v.title,
    inertText(status.message, 'plain', MESSAGE_LIMIT),
    // Said once: the server's message usually names the endpoint already.
    status.endpoint && !status.message.includes(status.endpoint)
      ? inertText(`Endpoint: ${status.endpoint}`, 'plain')
      : '',
    trusted ? '' : RESTRICTED_LINE,
  ].filter((l) => l !== '');
  return {
    text,
    tooltip: lines.join('\n'),
    background: v.background,
    command: readOnly ? ClientCommands.manageTrust : v.command,
  };
}

/** The buttons of a failed connection test, by state: the likely fix first. */
export function connectionFixes(state: string | undefined): string[] {
  if (state === 'unauthorized') return ['Set Access Token', 'Show Output'];
  if (state === 'unreachable') return ['Retry', 'Show Log', 'Configure Catalog'];
  return ['Configure Catalog', 'Show Output'];
}
