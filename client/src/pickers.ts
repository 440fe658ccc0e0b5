/**
 * Input boxes and quick picks. Each returns undefined when the user cancels. Titles, prompts,
 * validation messages and items that quote a URN go through inertText: VS Code renders `$(icon)`
 * there, and links in an input box's message.
 */
import * as vscode from 'vscode';
import { aKind, article, kindWord } from '../../model/src/entityNames';
import type { CatalogKind } from '../../model/src/kinds';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import { checkCatalogUrl } from './endpoints';
import type { RankedUrn } from './pickOrder';
import { checkUrnText, descriptionFromInput, descriptionToInput, exampleUrn, urnLabel } from './userText';

export async function askAccessToken(origin: string): Promise<string | undefined> {
  const token = await vscode.window.showInputBox({
    title: 'Catalog Lens: Set Access Token',
    prompt: `Access token for ${origin}. It is kept in VS Code's secret storage and only sent to ${origin}.`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (t) =>
      t.trim() === ''
        ? 'Enter the token (DataHub: Settings → Access Tokens)'
        : /\s/.test(t.trim())
          ? 'A token holds no spaces'
          : undefined,
  });
  return token?.trim();
}

/** The catalog's base URL (required) or the GraphQL override (optional, empty = default). */
export async function askCatalogUrl(
  kind: 'catalog' | 'graphql',
  current: string,
  step: number,
): Promise<string | undefined> {
  const optional = kind === 'graphql';
  const value = await vscode.window.showInputBox({
    title: `Catalog Lens: Configure Catalog (${step}/2)`,
    prompt: optional
      ? "GraphQL endpoint, if it is not {catalog URL}/api/graphql (e.g. DataHub's frontend http://localhost:9002/api/graphql). Leave empty for the default."
      : "Catalog URL: DataHub's metadata service (GMS), e.g. http://localhost:8080, or the local catalog's URL. Saved in your user settings.",
    placeHolder: optional ? '(default: {catalog URL}/api/graphql)' : 'http://localhost:8080',
    value: current,
    ignoreFocusOut: true,
    validateInput: (t) => checkCatalogUrl(t, { optional }),
  });
  return value === undefined ? undefined : value.trim().replace(/\/+$/, '');
}

export async function askUrn(kinds: readonly CatalogKind[], title: string, value = ''): Promise<string | undefined> {
  const urn = await vscode.window.showInputBox({
    title: inertText(title, 'quickInput', MESSAGE_LIMIT),
    prompt: `${article(kindWord(kinds[0] ?? 'dataset'), true)} ${kinds.map(kindWord).join(' or ')} URN`,
    placeHolder: exampleUrn(kinds[0] ?? 'dataset'),
    value,
    ignoreFocusOut: true,
    validateInput: (t) => {
      // The message may quote what was typed or pasted (a URN from a file).
      const problem = checkUrnText(t, kinds);
      return problem === undefined ? undefined : inertText(problem, 'quickInput', MESSAGE_LIMIT);
    },
  });
  return urn?.trim();
}

export async function askColumn(datasetUrn: string): Promise<string | undefined> {
  const column = await vscode.window.showInputBox({
    title: inertText(`Column of ${urnLabel(datasetUrn).label}`, 'quickInput', MESSAGE_LIMIT),
    prompt: 'The column (field path), e.g. user_id or address.city',
    ignoreFocusOut: true,
    validateInput: (t) => (t.trim() === '' ? 'Enter the column name' : undefined),
  });
  return column?.trim();
}

/** A description on one line: line breaks are written `\n` (see userText.ts). */
export async function askDescription(opts: {
  title: string;
  current?: string;
  optional?: boolean;
}): Promise<string | undefined> {
  const value = await vscode.window.showInputBox({
    title: inertText(opts.title, 'quickInput', MESSAGE_LIMIT),
    prompt: `Markdown; write \\n for a line break.${opts.optional ? ' Leave empty for none.' : ''}`,
    value: descriptionToInput(opts.current ?? ''),
    ignoreFocusOut: true,
    validateInput: (t) => (!opts.optional && t.trim() === '' ? 'Enter a description' : undefined),
  });
  return value === undefined ? undefined : descriptionFromInput(value.trim());
}

const ENTER_URN = 'Enter a URN…';

interface UrnItem extends vscode.QuickPickItem {
  urn?: string;
}

/**
 * A URN of `kind`: one seen in the workspace, or typed (what was typed in the filter is kept).
 * `known` comes in the order to offer (pickOrder.ts): the first is the one selected, and an
 * item's `why` ("the feature's own table", "in this document") leads its description.
 */
export async function pickUrn(
  known: readonly (string | RankedUrn)[],
  kind: CatalogKind,
  title: string,
  placeholder?: string,
): Promise<string | undefined> {
  const items: UrnItem[] = known.map((k) => {
    const { urn, why } = typeof k === 'string' ? { urn: k, why: undefined } : k;
    const { label, description } = urnLabel(urn);
    return {
      label: inertText(label, 'quickInput'),
      description: inertText(why ? `${why} · ${description}` : description, 'quickInput'),
      detail: inertText(urn, 'quickInput', MESSAGE_LIMIT),
      urn,
    };
  });
  items.push({ label: `$(edit) ${ENTER_URN}`, description: `type ${aKind(kind)} URN`, alwaysShow: true });
  const pick = vscode.window.createQuickPick<UrnItem>();
  pick.title = inertText(title, 'quickInput', MESSAGE_LIMIT);
  pick.placeholder =
    placeholder ??
    (known.length > 0
      ? `Pick ${aKind(kind)} seen in the workspace, or enter its URN`
      : `No ${kindWord(kind)} URN seen in the workspace yet: enter one`);
  pick.items = items;
  pick.matchOnDetail = true;
  pick.ignoreFocusOut = true;
  const chosen = await new Promise<{ item: UrnItem | undefined; typed: string } | undefined>((resolve) => {
    pick.onDidAccept(() => resolve({ item: pick.selectedItems[0], typed: pick.value }));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (!chosen) return undefined;
  if (chosen.item?.urn) return chosen.item.urn;
  const typed = chosen.typed.trim();
  return askUrn([kind], title, typed.startsWith('urn:') ? typed : '');
}

/** Some of the members a list holds now (the Remove commands); undefined when the user cancels. */
export async function pickMembers(members: readonly string[], title: string): Promise<string[] | undefined> {
  const items: UrnItem[] = members.map((urn) => {
    const { label, description } = urnLabel(urn);
    return {
      label: inertText(label, 'quickInput'),
      description: inertText(description, 'quickInput'),
      detail: inertText(urn, 'quickInput', MESSAGE_LIMIT),
      urn,
    };
  });
  const picked = await vscode.window.showQuickPick(items, {
    title: inertText(title, 'quickInput', MESSAGE_LIMIT),
    placeHolder: 'Pick the members to remove (Space to select, Enter to confirm)',
    canPickMany: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  if (!picked || picked.length === 0) return undefined;
  return picked.flatMap((i) => (i.urn ? [i.urn] : []));
}
