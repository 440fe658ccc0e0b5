/** The one question the server asks the user itself: may the access token go to another origin. */
import type { Connection } from 'vscode-languageserver';
import type { Log } from '../lsp';

/**
 * Asks the user (through the client) before the token first goes to `origin`. Only the Catalog
 * Lens extension says it is one (clientCommands); other editors never get asked about another origin.
 */
export async function confirmToken(
  connection: Connection,
  log: Log,
  clientCommands: boolean,
  origin: string,
  why: string,
  kind: 'otherOrigin' | 'plainHttp',
): Promise<boolean> {
  if (kind === 'otherOrigin' && !clientCommands) {
    log(`access token withheld from ${origin}: ${why} List it in catalogLens.allowTokenOrigins to send it there.`);
    return false;
  }
  const send = 'Send the token';
  const answer = await connection.window.showWarningMessage(
    `Catalog Lens: ${why} Send it anyway?${kind === 'plainHttp' ? ' (Use https:// for catalogs that are not on this machine.)' : ''}`,
    { title: send },
    { title: 'Do not send' },
  );
  const allowed = answer?.title === send;
  log(`access token ${allowed ? 'allowed' : 'withheld'} for ${origin}`);
  return allowed;
}
