// The category list as a tree: the API gives every category flat (with `parent_id` and
// `sort_order`); the categories page shows it nested, the products' filter and editor as
// indented options. Pure functions, no requests.
import { outcome, type Api, type Schemas } from '../lib/api';

export type AdminCategory = Schemas['AdminCategory'];

export interface TreeEntry {
  category: AdminCategory;
  /** 0 for a top-level category. */
  depth: number;
}

/** Siblings as the storefront orders them: by `sort_order`, then name. */
export const siblingOrder = (a: AdminCategory, b: AdminCategory) =>
  a.sort_order - b.sort_order || a.name.localeCompare(b.name, 'en') || a.id - b.id;

/** The children of `parentId` (null: the top level), in their order. */
export const childrenOf = (categories: readonly AdminCategory[], parentId: number | null) =>
  categories.filter((c) => c.parent_id === parentId).sort(siblingOrder);

/**
 * Every category in tree order: each parent followed by its children. A category whose parent
 * is not in the list (cannot happen with one answer of the API) is shown at the top level.
 */
export function treeOrder(categories: readonly AdminCategory[]): TreeEntry[] {
  const ids = new Set(categories.map((c) => c.id));
  const roots = categories
    .filter((c) => c.parent_id === null || !ids.has(c.parent_id))
    .sort(siblingOrder);
  const entries: TreeEntry[] = [];
  const visit = (category: AdminCategory, depth: number) => {
    entries.push({ category, depth });
    for (const child of childrenOf(categories, category.id)) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return entries;
}

/** `id` and every category below it: none of them can become its parent. */
export function subtreeOf(categories: readonly AdminCategory[], id: number): Set<number> {
  const inside = new Set([id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of categories) {
      if (c.parent_id !== null && inside.has(c.parent_id) && !inside.has(c.id)) {
        inside.add(c.id);
        grew = true;
      }
    }
  }
  return inside;
}

/** An option's text: indented by depth (a select cannot nest deeper than one group). */
export const optionText = ({ category, depth }: TreeEntry) =>
  `${'\u2003'.repeat(depth)}${category.name}${category.active ? '' : ' (inactive)'}`;

/** Every category, for the products' filter and editor and the categories page. */
export const loadCategories = (api: Api) => outcome(api.GET('/admin/categories'));
