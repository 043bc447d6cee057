// The categories (`/app/categories`): the tree as the storefront orders it (parents with their
// subcategories, siblings by position, then name), each with its product counts. A writer
// creates a category, edits one in place (name, description, parent, position), moves it up or
// down among its siblings, and deactivates or reactivates it; a viewer reads the tree.
import { ErrorAlert, useResource } from '@dogshop/web-kit';
import { useState } from 'preact/hooks';
import { canWrite, type SectionProps } from '../app/app';
import { outcome, type Api, type Schemas } from '../lib/api';
import { formatCount } from '../lib/format';
import { PRODUCTS_PATH } from '../products/links';
import { CategoryForm } from './category-form';
import {
  childrenOf,
  loadCategories,
  treeOrder,
  type AdminCategory,
  type TreeEntry,
} from './category-tree';
import '../products/products.css';
import './categories.css';

type UpdateCategoryBody = Schemas['UpdateCategoryBody'];

/** What a category's line can do: absent for a viewer. */
interface Writes {
  api: Api;
  busy: boolean;
  editing: number | undefined;
  edit: (id: number | undefined) => void;
  saved: (category: AdminCategory, what: string) => void;
  move: (category: AdminCategory, by: -1 | 1) => void;
  setActive: (category: AdminCategory, active: boolean) => void;
}

export function Categories({ session }: SectionProps) {
  const { api } = session;
  const writer = canWrite(session);
  const listing = useResource(() => loadCategories(api), [], { keep: true });
  const [editing, setEditing] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState<string | undefined>();
  const all = listing.data?.data ?? [];
  const tree = treeOrder(all);

  function replace(changed: AdminCategory) {
    listing.mutate((list) => ({
      ...list,
      data: list.data.some((c) => c.id === changed.id)
        ? list.data.map((c) => (c.id === changed.id ? changed : c))
        : [...list.data, changed],
    }));
  }

  /** Writes one change after another; the tree loads again after them (counts, order). */
  async function write(changes: { id: number; body: UpdateCategoryBody }[], what: string) {
    setBusy(true);
    setError(undefined);
    setNotice('');
    let failed = false;
    for (const { id, body } of changes) {
      const result = await outcome(
        api.PATCH('/admin/categories/{id}', { params: { path: { id } }, body }),
      );
      if (!('data' in result)) {
        setError(result.message);
        failed = true;
        break;
      }
      replace(result.data.data);
    }
    setBusy(false);
    if (!failed) setNotice(what);
    // A move that stopped half-way: the tree as it is now.
    else if (changes.length > 1) listing.reload();
  }

  /** Moves `category` one place up or down among its siblings (their positions renumbered when two share one). */
  async function move(category: AdminCategory, by: -1 | 1) {
    const siblings = childrenOf(all, category.parent_id);
    const at = siblings.findIndex((c) => c.id === category.id);
    const other = siblings[at + by];
    if (!other) return;
    let changes: { id: number; body: UpdateCategoryBody }[];
    if (other.sort_order !== category.sort_order) {
      changes = [
        { id: category.id, body: { sort_order: other.sort_order } },
        { id: other.id, body: { sort_order: category.sort_order } },
      ];
    } else {
      const order = siblings.slice();
      order[at] = other;
      order[at + by] = category;
      changes = order.flatMap((c, index) =>
        c.sort_order === (index + 1) * 10
          ? []
          : [{ id: c.id, body: { sort_order: (index + 1) * 10 } }],
      );
    }
    await write(changes, `${category.name} moved ${by < 0 ? 'up' : 'down'}.`);
    // The line moved: its button keeps the keyboard (or the other one, at the end of the list).
    const button =
      document.getElementById(`move-${by < 0 ? 'up' : 'down'}-${category.id}`) ??
      document.getElementById(`move-${by < 0 ? 'down' : 'up'}-${category.id}`);
    button?.focus();
  }

  const writes: Writes | undefined = writer
    ? {
        api,
        busy,
        editing,
        edit: (id) => {
          setEditing(id);
          setNotice('');
          setError(undefined);
        },
        saved: (category, what) => {
          replace(category);
          setEditing(undefined);
          setNotice(what);
          listing.reload();
          requestAnimationFrame(() => document.getElementById(`edit-${category.id}`)?.focus());
        },
        move: (category, by) => void move(category, by),
        setActive: (category, active) =>
          void write(
            [{ id: category.id, body: { active } }],
            `${category.name} is ${active ? 'active again' : 'deactivated'}.`,
          ),
      }
    : undefined;

  return (
    <section aria-labelledby="page-heading" class="categories">
      <div class="page-head">
        <h2 id="page-heading">Categories</h2>
        {writes && (
          // The form is below the tree (which may be long): this takes the keyboard there.
          <button
            type="button"
            onClick={() => document.getElementById('new-category-name')?.focus()}
          >
            New category
          </button>
        )}
      </div>
      <p class="lead">
        The storefront lists active categories in this order: by position, equal positions by name.
        A deactivated category leaves the storefront; its products stay as they are.
      </p>
      <p class="status" role="status">
        {listing.loading === 'all' && all.length === 0
          ? 'Loading the categories …'
          : busy
            ? 'Saving …'
            : notice || (listing.data && all.length === 0 ? 'No categories yet.' : '')}
      </p>
      <ErrorAlert text={error ?? listing.error} />
      {all.length > 0 && (
        <CategoryList all={all} parentId={null} tree={tree} writes={writes} depth={0} />
      )}
      {writes && (
        <CategoryForm
          api={api}
          tree={tree}
          idPrefix="new-category"
          onSaved={(category) => {
            replace(category);
            setNotice(`${category.name} is created.`);
            listing.reload();
          }}
        />
      )}
    </section>
  );
}

function CategoryList(props: {
  all: AdminCategory[];
  parentId: number | null;
  tree: TreeEntry[];
  writes: Writes | undefined;
  depth: number;
}) {
  const children =
    props.parentId === null
      ? props.tree.filter((e) => e.depth === 0).map((e) => e.category)
      : childrenOf(props.all, props.parentId);
  if (children.length === 0) return null;
  return (
    <ul class={props.depth === 0 ? 'category-tree' : 'category-children'}>
      {children.map((category, index) => (
        <li key={category.id}>
          <CategoryLine
            category={category}
            tree={props.tree}
            writes={props.writes}
            first={index === 0}
            last={index === children.length - 1}
          />
          <CategoryList
            all={props.all}
            parentId={category.id}
            tree={props.tree}
            writes={props.writes}
            depth={props.depth + 1}
          />
        </li>
      ))}
    </ul>
  );
}

function CategoryLine(props: {
  category: AdminCategory;
  tree: TreeEntry[];
  writes: Writes | undefined;
  first: boolean;
  last: boolean;
}) {
  const { category, writes } = props;
  if (writes?.editing === category.id) {
    return (
      <CategoryForm
        api={writes.api}
        category={category}
        tree={props.tree}
        idPrefix={`category-${category.id}`}
        onSaved={(saved) => writes.saved(saved, `Changes to ${saved.name} saved.`)}
        onCancel={() => {
          writes.edit(undefined);
          requestAnimationFrame(() => document.getElementById(`edit-${category.id}`)?.focus());
        }}
      />
    );
  }
  const products =
    category.product_count === 0
      ? 'no products'
      : `${formatCount(category.product_count)} ${category.product_count === 1 ? 'product' : 'products'} (${formatCount(category.active_product_count)} active)`;
  return (
    <div class={category.active ? 'category-line' : 'category-line inactive'}>
      <div class="category-text">
        <span class="category-name">{category.name}</span>
        {!category.active && <span class="badge">inactive</span>}
        <span class="category-facts">
          Position {category.sort_order} ·{' '}
          <a href={`${PRODUCTS_PATH}?category_id=${category.id}`}>{products}</a>
        </span>
        {category.description && <span class="category-description">{category.description}</span>}
      </div>
      {writes && (
        <div class="category-actions">
          <button
            type="button"
            class="secondary small"
            id={`edit-${category.id}`}
            aria-label={`Edit ${category.name}`}
            onClick={() => writes.edit(category.id)}
          >
            Edit
          </button>
          {!props.first && (
            <button
              type="button"
              class="secondary small"
              id={`move-up-${category.id}`}
              aria-label={`Move ${category.name} up`}
              aria-disabled={writes.busy}
              onClick={() => !writes.busy && writes.move(category, -1)}
            >
              Move up
            </button>
          )}
          {!props.last && (
            <button
              type="button"
              class="secondary small"
              id={`move-down-${category.id}`}
              aria-label={`Move ${category.name} down`}
              aria-disabled={writes.busy}
              onClick={() => !writes.busy && writes.move(category, 1)}
            >
              Move down
            </button>
          )}
          <button
            type="button"
            class="secondary small"
            aria-label={`${category.active ? 'Deactivate' : 'Reactivate'} ${category.name}`}
            aria-disabled={writes.busy}
            onClick={() => !writes.busy && writes.setActive(category, !category.active)}
          >
            {category.active ? 'Deactivate' : 'Reactivate'}
          </button>
        </div>
      )}
    </div>
  );
}
