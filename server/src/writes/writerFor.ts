/** The writer of a command's settings: chosen once per command, from `catalogLens.writePath`. */
import type { Settings } from '../../../model/src/protocol';
import { aspectWriter } from './aspectWriter';
import { graphqlWriter } from './graphqlWriter';
import type { Writer } from './writer';

export function writerFor(settings: Pick<Settings, 'writePath'>): Writer {
  return settings.writePath === 'graphql' ? graphqlWriter : aspectWriter;
}
