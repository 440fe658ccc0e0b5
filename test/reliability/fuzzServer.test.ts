/**
 * Bad input through the real server process over LSP (a few hundred documents, against the real
 * local catalog with its sample data): random code, broken YAML, binary junk, malformed URNs and
 * a few huge documents, opened, hovered, asked for code actions, links and completion, edited and
 * closed. The server answers every request (no error response, none past the bound), never exits,
 * logs no uncaught exception, and publishes a malformed-urn diagnostic inside every malformed URN.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { Diagnostic, Position } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { startSession, type LspSession } from '../support/lspClient';
import { sampleCatalog, type Catalog } from '../support/fixture';
import { binaryJunk, codeDocument, embeddings, hugeInputs, malformedUrn, yamlDocument } from './support/fuzzInputs';

const REQUEST_BOUND_MS = 10_000;
const seed = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : undefined;
const sample = <T>(arb: fc.Arbitrary<T>, n: number): T[] =>
  fc.sample(arb, seed !== undefined ? { numRuns: n, seed } : n);

describe('bad input to the server process over LSP (fuzz)', () => {
  let catalog: Catalog;
  let lsp: LspSession;
  let stderr = '';
  let exited: string | undefined;
  let documents = 0;
  let requests = 0;
  let slowest = 0;

  before(async () => {
    catalog = await sampleCatalog();
    lsp = await startSession({ settings: { url: catalog.url }, initializationOptions: { clientCommands: true } });
    lsp.child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    lsp.child.once('exit', (code, signal) => {
      exited = `code ${code}, signal ${signal}`;
    });
  });
  after(async () => {
    console.log(`LSP fuzz inputs: ${documents} documents, ${requests} requests, slowest ${slowest.toFixed(0)} ms`);
    await lsp.stop();
    await catalog.close();
  });

  /** One request: answered (not an error response) within the bound. */
  async function ask<T>(what: string, run: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${REQUEST_BOUND_MS} ms`)), REQUEST_BOUND_MS);
    });
    try {
      return await Promise.race([run(), bound]);
    } finally {
      clearTimeout(timer);
      requests++;
      slowest = Math.max(slowest, performance.now() - t0);
    }
  }

  /** Open, wait for diagnostics, then hover, code actions, links and completion; edit; ask again; close. */
  async function exerciseDocument(languageId: string, text: string, edited: string): Promise<Diagnostic[]> {
    const uri = `file:///fuzz/d${documents++}.${languageId === 'yaml' ? 'yml' : 'txt'}`;
    const doc = TextDocument.create(uri, languageId, 1, text);
    await lsp.open(uri, languageId, text);
    const diagnostics = await ask(`diagnostics of ${uri}`, () => lsp.diagnostics(uri, () => true, REQUEST_BOUND_MS));
    const positions: Position[] = [
      { line: 0, character: 0 },
      doc.positionAt(text.length),
      { line: 1_000_000, character: 5 },
    ];
    for (let i = text.indexOf('urn:'), n = 0; i >= 0 && n < 3; i = text.indexOf('urn:', i + 1), n++)
      positions.push(doc.positionAt(i + 5));
    for (const p of positions) {
      await ask(`hover ${uri}`, () => lsp.hover(uri, p));
      await ask(`completion ${uri}`, () => lsp.completion(uri, p));
      await ask(`code actions ${uri}`, () => lsp.codeActions(uri, { start: p, end: p }, diagnostics.slice(0, 5)));
    }
    for (const d of diagnostics.slice(0, 3))
      await ask(`code actions on ${d.code}`, () => lsp.codeActions(uri, d.range, [d]));
    await ask(`links ${uri}`, () => lsp.links(uri));
    await lsp.change(uri, edited);
    await ask(`hover after an edit ${uri}`, () => lsp.hover(uri, positions[positions.length - 1]!));
    await lsp.close(uri);
    return diagnostics;
  }

  const mutate = (text: string, k: number): string =>
    text.length === 0 ? 'urn:li:' : text.slice(0, k % text.length) + ')(,"\n' + text.slice(k % text.length);

  test('random code, YAML and binary junk (240 documents): every request is answered within the bound and the server stays up', async () => {
    const inputs = [
      ...sample(codeDocument, 120),
      ...sample(yamlDocument, 80).map((text) => ({ languageId: 'yaml', text })),
      ...sample(fc.tuple(binaryJunk, fc.constantFrom('python', 'yaml', 'plaintext')), 40).map(([text, languageId]) => ({
        languageId,
        text,
      })),
    ];
    for (const [i, { languageId, text }] of inputs.entries())
      await exerciseDocument(languageId, text, mutate(text, i * 7919));
    assert.equal(exited, undefined, `the server exited (${exited}); stderr:\n${stderr}`);
    assert.doesNotMatch(stderr, /uncaught|unhandled rejection/i);
  });

  test('malformed URNs in host documents (60 URNs, each in every host language): the published diagnostics hold a malformed-urn inside each', async () => {
    for (const { family, text } of sample(malformedUrn, 60)) {
      for (const e of embeddings(text)) {
        const doc = TextDocument.create('file:///x', e.languageId, 1, e.text);
        const ds = await exerciseDocument(e.languageId, e.text, e.text.replace(text, `${text})`));
        const inside = ds.filter(
          (d) =>
            d.code === 'malformed-urn' && doc.offsetAt(d.range.start) >= e.start && doc.offsetAt(d.range.end) <= e.end,
        );
        assert.ok(
          inside.length > 0,
          `${family}: no malformed-urn inside ${JSON.stringify(text)} in ${JSON.stringify(e.text)}; published ${JSON.stringify(ds)}`,
        );
      }
    }
    assert.equal(exited, undefined, `the server exited (${exited})`);
  });

  test('huge documents over the wire (a megabyte line, nesting ten thousand deep): answered, and the server stays up', async () => {
    const picks = [
      'a megabyte line of nested unclosed tuples',
      'a megabyte line of { inside a tuple',
      'a megabyte line of unclosed builder calls',
      'one malformed URN of a megabyte',
      'URNs nested ten thousand deep',
      'YAML flow sequences nested ten thousand deep',
    ];
    for (const { name, text } of hugeInputs().filter((h) => picks.includes(h.name))) {
      for (const languageId of ['python', 'yaml'])
        await exerciseDocument(languageId, text, `${text}\nurn:li:corpuser:x`);
      assert.equal(exited, undefined, `the server exited on ${name} (${exited})`);
    }
    assert.doesNotMatch(stderr, /uncaught|unhandled rejection/i);
    assert.equal(lsp.child.exitCode, null);
  });
});
