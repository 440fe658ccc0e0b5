/**
 * Tokenises lines with the URN injection grammar through vscode-textmate and vscode-oniguruma,
 * the engine VS Code itself uses. The injection is wired to hosts the way package.json's
 * `contributes.grammars[].injectTo` tells VS Code to.
 *
 * VS Code's own language grammars are not on npm, so the hosts here are small stand-ins
 * (hostGrammars.ts) with the scopes the real ones give strings, comments and YAML scalars.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';
import { HOST_GRAMMARS } from './hostGrammars';

/** The repository root, seen from out/test/grammar. */
export const ROOT = path.resolve(__dirname, '..', '..', '..');

interface GrammarContribution {
  scopeName: string;
  path: string;
  injectTo?: string[];
}

export function grammarContributions(): GrammarContribution[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    contributes?: { grammars?: GrammarContribution[] };
  };
  return pkg.contributes?.grammars ?? [];
}

let registry: Promise<vsctm.Registry> | undefined;

function createRegistry(): Promise<vsctm.Registry> {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  const onigLib = oniguruma
    .loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength))
    .then(() => ({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }));
  const contributions = grammarContributions();
  return Promise.resolve(
    new vsctm.Registry({
      onigLib,
      loadGrammar: async (scopeName) => {
        const contributed = contributions.find((g) => g.scopeName === scopeName);
        if (contributed) {
          const file = path.join(ROOT, contributed.path);
          return vsctm.parseRawGrammar(readFileSync(file, 'utf8'), file);
        }
        const host = HOST_GRAMMARS[scopeName];
        return host ? vsctm.parseRawGrammar(JSON.stringify(host), `${scopeName}.json`) : null;
      },
      getInjections: (scopeName) =>
        contributions.filter((g) => g.injectTo?.includes(scopeName)).map((g) => g.scopeName),
    }),
  );
}

export interface Token {
  text: string;
  start: number;
  end: number;
  scopes: string[];
}

/** Tokenises `lines` in order (state carried from line to line) as the host `scopeName`. */
export async function tokenize(scopeName: string, lines: string[]): Promise<Token[][]> {
  registry ??= createRegistry();
  const grammar = await (await registry).loadGrammar(scopeName);
  if (!grammar) throw new Error(`no grammar for ${scopeName}`);
  let stack = vsctm.INITIAL;
  return lines.map((line) => {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    return r.tokens.map((t) => ({
      text: line.slice(t.startIndex, t.endIndex),
      start: t.startIndex,
      end: t.endIndex,
      scopes: t.scopes,
    }));
  });
}

/**
 * The tokens that make up the `nth` occurrence of `text` in the line, which must start and end
 * on token boundaries (a part of a URN is one token, or several with the same scopes).
 */
export function tokensOf(tokens: Token[], line: string, text: string, nth = 0): Token[] {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = line.indexOf(text, at + 1);
    if (at < 0) throw new Error(`'${text}' does not occur ${nth + 1} times in: ${line}`);
  }
  const end = at + text.length;
  const covering = tokens.filter((t) => t.start < end && t.end > at);
  const first = covering[0];
  const last = covering[covering.length - 1];
  if (!first || !last || first.start !== at || last.end !== end) {
    throw new Error(`'${text}' at ${at} is not on token boundaries: ${describe(covering)}`);
  }
  return covering;
}

export function describe(tokens: Token[]): string {
  return tokens.map((t) => `[${JSON.stringify(t.text)} ${t.scopes.join(' ')}]`).join(' ');
}
