/** A marked text (support/caret.ts) as a document of a language and its scan, as the server scans it. */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS, type Settings } from '../../../../model/src/protocol';
import { scanText } from '../../../../server/src/pipeline/check';
import type { ScanResult } from '../../../../server/src/scan/types';
import { marks, type MarkedRange } from './caret';
import type { Position } from 'vscode-languageserver';

const EXTENSION: Record<string, string> = { python: 'py', yaml: 'yaml', sql: 'sql', json: 'json', plaintext: 'txt' };

export interface Scanned {
  doc: TextDocument;
  scan: ScanResult;
  text: string;
  ranges: MarkedRange[];
  /** The caret's offset and position; a test that needs it and has none fails. */
  offset: number;
  position: Position;
}

export function scanned(
  marked: string,
  languageId: string,
  settings: Settings = DEFAULT_SETTINGS,
  uri = `untitled:test.${EXTENSION[languageId] ?? 'txt'}`,
): Scanned {
  const { text, ranges, offset, position } = marks(marked);
  const doc = TextDocument.create(uri, languageId, 1, text);
  return {
    doc,
    scan: scanText(text, languageId, settings),
    text,
    ranges,
    offset: offset ?? -1,
    position: position ?? { line: -1, character: -1 },
  };
}
