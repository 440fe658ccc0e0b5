/** The write tests' setup: a sample catalog and a server writing as alice, new for each test. */
import assert from 'node:assert/strict';
import { beforeEach } from 'node:test';
import { useSampleServerPerTest, type Catalog, type CompatMode } from '../../support/fixture';
import type { LspSession } from '../../support/lspClient';
import type { WriteResult } from '../../../model/src/protocol';

export interface WriteServer {
  env: { catalog: Catalog; lsp: LspSession };
  /** Runs a write command. */
  run: (command: string, arg: unknown) => Promise<WriteResult>;
  /** A write a test builds on (it must be written), then the catalog's counts reset. */
  given: (command: string, arg: unknown) => Promise<void>;
}

/**
 * In a describe block: each test starts from the sample data (what it builds on, it writes first
 * itself), with the catalog's counts reset.
 */
export function useWriteServer(compat: CompatMode): WriteServer {
  const env = useSampleServerPerTest({ settings: { actor: 'urn:li:corpuser:alice' } }, compat);
  beforeEach(() => env.catalog.stats.reset());
  const run = (command: string, arg: unknown): Promise<WriteResult> => env.lsp.command<WriteResult>(command, arg);
  const given = async (command: string, arg: unknown): Promise<void> => {
    assert.equal((await run(command, arg)).status, 'written', `given ${command} ${JSON.stringify(arg)}`);
    env.catalog.stats.reset();
  };
  return { env, run, given };
}
