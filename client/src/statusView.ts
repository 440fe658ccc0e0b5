/**
 * What the status bar item shows for a connection state, and which command a click runs (the
 * fix for that state). No `vscode` here, so the mapping is unit-tested on its own.
 */
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import type { CatalogStatus, ConnectionState } from '../../model/src/protocol';
import { PaletteCommands } from './commandIds';

/** The server's connection states, and the client's own: its language server restarting after a crash. */
export type ClientStatus = CatalogStatus | { state: 'restarting'; message: string; endpoint?: undefined };

export interface StatusView {
  text: string;
  tooltip: string;
  /** Only the theme's error and warning backgrounds are used (anchors.md, status bar). */
  background: 'error' | 'warning' | undefined;
  command: string;
}

const VIEWS: Record<ConnectionState | 'restarting', Omit<StatusView, 'tooltip'> & { title: string }> = {
  connected: {
    text: '$(database) Catalog',
    title: 'Catalog connected',
    background: undefined,
    command: PaletteCommands.showOutput,
  },
  checking: {
    text: '$(sync~spin) Catalog',
    title: 'Checking the catalog connection…',
    background: undefined,
    command: PaletteCommands.showOutput,
  },
  restarting: {
    text: '$(sync~spin) Catalog: restarting',
    title: 'The language server stopped unexpectedly and is restarting',
    background: 'warning',
    command: PaletteCommands.showOutput,
  },
  notConfigured: {
    text: '$(plug) Catalog: not configured',
    title: 'No catalog configured — click to configure',
    background: 'warning',
    command: PaletteCommands.configure,
  },
  unauthorized: {
    text: '$(key) Catalog: unauthorized',
    title: 'The catalog refused the access token — click to set one',
    background: 'error',
    command: PaletteCommands.setAccessToken,
  },
  unreachable: {
    text: '$(debug-disconnect) Catalog: unreachable',
    title: 'The catalog cannot be reached — click to configure',
    background: 'error',
    command: PaletteCommands.configure,
  },
  error: {
    text: '$(error) Catalog: error',
    title: 'The catalog answered with an error — click to show the log',
    background: 'error',
    command: PaletteCommands.showOutput,
  },
};

export function statusView(status: ClientStatus): StatusView {
  const v = VIEWS[status.state] ?? VIEWS.error;
  // The message may quote the catalog: each line of the tooltip is one plain bounded line.
  const lines = [
    v.title,
    inertText(status.message, 'plain', MESSAGE_LIMIT),
    status.endpoint ? inertText(`Endpoint: ${status.endpoint}`, 'plain') : '',
  ].filter((l) => l !== '');
  return { text: v.text, tooltip: lines.join('\n'), background: v.background, command: v.command };
}
