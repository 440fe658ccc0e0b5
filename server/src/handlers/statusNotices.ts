/**
 * The catalog's connection state and the documents skipped for their size, told to the editor.
 * The Catalog Lens extension asks for `catalogLens/status` and `catalogLens/skipped`
 * (`statusNotifications`) and shows them in its status item and notices. Any other editor would
 * drop those methods, so it is told with `window/showMessage` instead: a warning when the catalog
 * starts failing in a new way (not again for each failed request of the same kind), a line when it
 * answers again, and a file it skipped once per file, as the extension says it.
 */
import { MessageType } from 'vscode-languageserver';
import { inertText, MESSAGE_LIMIT } from '../../../model/src/inertText';
import {
  SkippedNotification,
  StatusNotification,
  type CatalogStatus,
  type ConnectionState,
  type SkippedFile,
} from '../../../model/src/protocol';
import { fileNameOf } from '../workspace';

/** What the notices need of the connection: custom notifications and `window/showMessage`. */
export interface NoticeChannel {
  notify(method: string, params: unknown): void;
  showMessage(type: MessageType, message: string): void;
}

/** States a user should hear of without looking: the catalog cannot be read as configured. */
const FAILING: ReadonlySet<ConnectionState> = new Set(['notConfigured', 'unauthorized', 'unreachable', 'error']);

export interface StatusNotices {
  status(status: CatalogStatus): void;
  skipped(file: SkippedFile): void;
}

export function statusNotices(channel: NoticeChannel, custom: () => boolean): StatusNotices {
  /** The failing state last told with a message, until the catalog answers again. */
  let told: ConnectionState | undefined;
  return {
    status(status) {
      if (custom()) return channel.notify(StatusNotification.method, status);
      if (FAILING.has(status.state)) {
        if (told === status.state) return;
        told = status.state;
        const type = status.state === 'notConfigured' ? MessageType.Info : MessageType.Warning;
        channel.showMessage(type, inertText(`Catalog Lens: ${status.message}`, 'notification', MESSAGE_LIMIT));
      } else if (status.state === 'connected' && told !== undefined) {
        told = undefined;
        channel.showMessage(
          MessageType.Info,
          inertText(`Catalog Lens: the catalog answers again (${status.message}).`, 'notification', MESSAGE_LIMIT),
        );
      }
    },
    skipped(file) {
      if (custom()) return channel.notify(SkippedNotification.method, file);
      channel.showMessage(
        MessageType.Info,
        inertText(
          `Catalog Lens did not check ${fileNameOf(file.uri)}: ${file.size} characters is over catalogLens.maxFileSize (${file.limit}).`,
          'notification',
          MESSAGE_LIMIT,
        ),
      );
    },
  };
}
