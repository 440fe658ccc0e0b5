/**
 * A write's result told to an editor without the Catalog Lens extension (Neovim, Emacs, Helix …),
 * whose client ignores what `workspace/executeCommand` answers: the server says what came of the
 * write itself. With `window/showMessageRequest` declared (the `window.showMessage` capability) and
 * `window/showDocument` supported, a written or unchanged entity's message offers "Open in catalog",
 * which opens its page in the browser (showDocument with external: true); else a plain
 * `window/showMessage`. The extension shows results its own way (writes.ts), so it is never told.
 */
import { MessageType, type Connection } from 'vscode-languageserver';
import { entityPageUrl } from '../../../model/src/entityPage';
import { inertText, MESSAGE_LIMIT } from '../../../model/src/inertText';
import type { WriteResult } from '../../../model/src/protocol';
import { parseUrn } from '../../../model/src/urn';
import type { EntityPageSettings } from '../../../model/src/entityPage';

export const OPEN_IN_CATALOG = 'Open in catalog';

/** What the editor can be asked: a message with actions, and to open a page. */
export interface NoticeSupport {
  messageActions: boolean;
  showDocument: boolean;
}

/** The notice of one write: its type, text, the page it may open, and its actions. */
export function writeNotice(
  result: WriteResult,
  args: unknown,
  links: EntityPageSettings | undefined,
  support: NoticeSupport,
): { type: MessageType; message: string; page?: string; actions: string[] } {
  const type = result.status === 'failed' ? MessageType.Error : MessageType.Info;
  const message = inertText(
    `Catalog Lens: ${result.status === 'failed' ? `the write failed: ${result.message}` : result.message}`,
    'plain',
    MESSAGE_LIMIT,
  );
  const a = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  const target = [a['urn'], a['table'], a['model']].find((v): v is string => typeof v === 'string');
  const parsed = target !== undefined ? parseUrn(target) : undefined;
  const page =
    result.status !== 'failed' && links && parsed?.ok ? entityPageUrl(links, parsed.urn, target!) : undefined;
  if (page && 'url' in page && support.messageActions && support.showDocument)
    return { type, message, page: page.url, actions: [OPEN_IN_CATALOG] };
  return { type, message, actions: [] };
}

/** Tells the editor; not awaited by the command, which answers its result at once. */
export async function tellWriteResult(
  connection: Connection,
  notice: ReturnType<typeof writeNotice>,
  log: (message: string) => void,
): Promise<void> {
  try {
    if (notice.actions.length === 0) {
      await connection.sendNotification('window/showMessage', { type: notice.type, message: notice.message });
      return;
    }
    const pick = await connection.sendRequest<{ title: string } | null>('window/showMessageRequest', {
      type: notice.type,
      message: notice.message,
      actions: notice.actions.map((title) => ({ title })),
    });
    if (pick?.title === OPEN_IN_CATALOG && notice.page)
      await connection.window.showDocument({ uri: notice.page, external: true });
  } catch (e) {
    log(`the write's result could not be shown: ${e instanceof Error ? e.message : String(e)}`);
  }
}
