/**
 * A completion answer in the form the editor declared it takes (LSP 3.17), so that less of it is
 * made, written, sent and read: a catalog name's item was ~500 bytes, of which its documentation
 * (the description made inert, and the URN) ~150 and its edit range ~85, fifty of them at each
 * keystroke.
 *
 * - An item's documentation may be made later (documentedLater): when the item is answered.
 * - An editor that resolves documentation (`completionItem.resolveSupport.properties`, VS Code)
 *   gets the items without it: the server keeps the last lists' (KeptCompletions: what the
 *   catalog answered, made into documentation only for an item resolved) and
 *   `completionItem/resolve` puts it back from what it kept, no second request to the catalog.
 *   The item's `data` says where it is kept.
 * - An editor that takes a list's default edit range (`completionList.itemDefaults` with
 *   `editRange`, VS Code) gets the range once, in `itemDefaults.editRange`, and each item that
 *   replaces that range carries only its text (`textEditText`, left out when it is the label).
 *
 * An editor that declares neither gets every item whole, as before. The items answered are the
 * features' own, made for this one answer: they are completed and trimmed in place, not copied
 * (fifty copies per keystroke cost more than the bytes they save).
 */
import type { CompletionItem, CompletionList, Range } from 'vscode-languageserver';

/** What the editor declared it takes (ClientSession's completionResolveDocumentation and completionEditRange). */
export interface CompletionShape {
  readonly resolveDocumentation: boolean;
  readonly editRange: boolean;
}

type Documentation = NonNullable<CompletionItem['documentation']>;

/**
 * Where an item holds the maker of its documentation until it is made: a symbol, which JSON
 * leaves out (an item answered as it is never carries it to the editor) and a copy keeps.
 */
const LATER: unique symbol = Symbol('documentation later');
type Deferred = CompletionItem & { [LATER]?: () => Documentation };

/**
 * `item`, whose documentation `make` makes when the item is answered (shapeCompletions), or, for an
 * editor that resolves documentation, when the item is resolved: most items never are.
 */
export function documentedLater<T extends CompletionItem>(item: T, make: () => Documentation): T {
  (item as Deferred)[LATER] = make;
  return item;
}

/** How many lists are kept: an editor resolves items of the list it shows, the newest. */
export const KEPT_LISTS = 8;

/** The items' `data`: the kept list's number and the item's place in it. */
type ItemData = [list: number, index: number];

/** What an item left for resolve: its documentation, or what makes it. */
type Left = Documentation | (() => Documentation) | undefined;

/**
 * The documentation the items of the last KEPT_LISTS lists left for resolve, each list under a
 * number that its items' `data` holds. An item of an older list resolves to the item as it came:
 * the editor resolves items of the list it shows, one of the last.
 */
export class KeptCompletions {
  private readonly lists = new Map<number, readonly Left[]>();
  /**
   * Where this process's numbers begin, at random: an editor that restarts a crashed server keeps
   * its open list, and an item numbered by the old process must not name a list of the new one.
   */
  private next: number;

  constructor(
    private readonly max = KEPT_LISTS,
    first: number = 1 + Math.floor(Math.random() * 0x3ffffffe),
  ) {
    this.next = first;
  }

  /** Keeps `left` (by item index) and answers its number. */
  keep(left: readonly Left[]): number {
    const id = this.next;
    // Small integers: the editor sends them back, and JSON writes them short.
    this.next = this.next >= 0x3fffffff ? 1 : this.next + 1;
    this.lists.set(id, left);
    if (this.lists.size > this.max) this.lists.delete(this.lists.keys().next().value!);
    return id;
  }

  /** What item `index` of list `id` left, when that list is still kept. */
  left(id: number, index: number): Left {
    return this.lists.get(id)?.[index];
  }
}

/**
 * `found` (the features' own items, changed in place) shaped for `shape`: each item's
 * documentation made (documentedLater) or, for an editor that resolves it, left for resolve and
 * kept in `kept`; a list's common edit range given once. `present` makes the documentation an
 * item carries presentable to the editor (plain text for one that shows only that); what is left
 * for resolve is presented when it is resolved (resolveCompletion).
 */
export function shapeCompletions(
  found: CompletionItem[] | CompletionList,
  shape: CompletionShape,
  kept: KeptCompletions,
  present?: (item: CompletionItem) => CompletionItem,
): CompletionItem[] | CompletionList {
  const list = Array.isArray(found) ? undefined : found;
  let items = Array.isArray(found) ? found : found.items;
  const editRange = list && shape.editRange ? commonRange(items) : undefined;
  if (editRange) for (const item of items) withDefaultRange(item, editRange);
  if (shape.resolveDocumentation) leaveForResolve(items, kept);
  else for (const item of items) makeDocumentation(item);
  if (present) items = items.map(present);
  if (!list) return items;
  return editRange ? { ...list, itemDefaults: { ...list.itemDefaults, editRange }, items } : { ...list, items };
}

/** `item` with its documentation made, when it was left for later. */
function makeDocumentation(item: Deferred): void {
  const make = item[LATER];
  if (!make) return;
  item.documentation = make();
}

/** Takes each item's documentation (made or to be made) into `kept`, and marks the item with its place. */
function leaveForResolve(items: readonly Deferred[], kept: KeptCompletions): void {
  const left: Left[] = [];
  let any = false;
  for (const item of items) {
    const documentation = item[LATER] ?? item.documentation;
    left.push(documentation);
    any ||= documentation !== undefined;
  }
  if (!any) return;
  const id = kept.keep(left);
  items.forEach((item, i) => {
    if (left[i] === undefined) return;
    if (item.documentation !== undefined) delete item.documentation;
    item.data = [id, i] satisfies ItemData;
  });
}

/**
 * `item` with what it left for resolve put back (presented by `present`), when `kept` still has
 * it; else `item` as it came. Anything else of the item is the editor's own and stays as it is.
 */
export function resolveCompletion(
  item: CompletionItem,
  kept: KeptCompletions,
  present?: (item: CompletionItem) => CompletionItem,
): CompletionItem {
  const data: unknown = item.data;
  if (!Array.isArray(data) || data.length !== 2 || !Number.isSafeInteger(data[0]) || !Number.isSafeInteger(data[1]))
    return item;
  const left = kept.left(data[0] as number, data[1] as number);
  if (left === undefined) return item;
  const resolved = { ...item, documentation: typeof left === 'function' ? left() : left };
  return present ? present(resolved) : resolved;
}

/** The edit range of the first item with a plain text edit, when at least two items replace it. */
function commonRange(items: readonly CompletionItem[]): Range | undefined {
  let range: Range | undefined;
  let same = 0;
  for (const item of items) {
    const edit = item.textEdit;
    if (!edit || !('range' in edit)) continue;
    range ??= edit.range;
    if (sameRange(edit.range, range)) same++;
  }
  // A default that one item uses saves nothing and adds its own bytes.
  return range && same >= 2 ? range : undefined;
}

function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

/** `item`'s text edit given as `textEditText` when it replaces `range`. */
function withDefaultRange(item: CompletionItem, range: Range): void {
  const edit = item.textEdit;
  if (!edit || !('range' in edit) || !sameRange(edit.range, range)) return;
  // Written as absent (JSON leaves out what is undefined), not deleted: a deleted property makes the
  // item a slow dictionary for V8, to change and to write (~0.1 ms per list of fifty).
  (item as { textEdit?: CompletionItem['textEdit'] | undefined }).textEdit = undefined;
  // Without textEditText the editor writes the label (LSP 3.17).
  if (edit.newText !== item.label) item.textEditText = edit.newText;
}
