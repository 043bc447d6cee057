// The form of a new category or a changed one: name, description, parent and position among its
// siblings. A parent inside the category itself is not offered (the API refuses it too). Each
// refusal is a sentence beside its field.
import { ErrorAlert } from '@dogshop/web-kit';
import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from '../lib/api';
import {
  FieldMessage,
  fieldRefusal,
  fieldSentence,
  refusedInput,
  type FieldRefusal,
} from '../lib/field-messages';
import { SaveButtons } from '../lib/save-buttons';
import { useFormCall } from '../lib/use-form-call';
import { optionText, subtreeOf, type AdminCategory, type TreeEntry } from './category-tree';

const NAME_TAKEN = /a category named .* exists already/;
const INSIDE_ITSELF = /cannot (?:be its own parent|have parent)/;

function refusalOf(message: string | undefined): FieldRefusal | undefined {
  if (message && NAME_TAKEN.test(message)) {
    return { field: 'name', text: 'Another category has this name: choose another one.' };
  }
  if (message && INSIDE_ITSELF.test(message)) {
    return {
      field: 'parent_id',
      text: 'A category cannot be inside itself or one of its own subcategories.',
    };
  }
  return fieldRefusal(message);
}

const SORT_ORDER = /^-?\d{1,7}$/;

export function CategoryForm(props: {
  api: Api;
  /** Absent: a new category. */
  category?: AdminCategory;
  /** Every category, in tree order (the parent's choices). */
  tree: TreeEntry[];
  /** Prefix of the fields' ids. */
  idPrefix: string;
  onSaved: (category: AdminCategory) => void;
  onCancel?: () => void;
}) {
  const { category, idPrefix } = props;
  const [name, setName] = useState(category?.name ?? '');
  const [description, setDescription] = useState(category?.description ?? '');
  const [parent, setParent] = useState(category?.parent_id ? String(category.parent_id) : '');
  const [position, setPosition] = useState(String(category?.sort_order ?? 0));
  const { call, refusal, refuse, passed } = useFormCall(refusalOf);
  const first = useRef<HTMLInputElement>(null);
  const ids = {
    name: `${idPrefix}-name`,
    description: `${idPrefix}-description`,
    parent: `${idPrefix}-parent`,
    position: `${idPrefix}-position`,
  };
  const inside = category
    ? subtreeOf(
        props.tree.map((e) => e.category),
        category.id,
      )
    : new Set<number>();

  // An edit form opens in place of the category's line: the keyboard goes on in it.
  useEffect(() => {
    if (category) first.current?.focus();
  }, []);

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (call.busy) return;
    const refuseField = (field: string, at: string) =>
      refuse(fieldSentence(field), document.getElementById(at));
    const trimmed = name.trim();
    if (trimmed === '') return refuseField('name', ids.name);
    if (!SORT_ORDER.test(position.trim()) || Math.abs(Number(position)) > 1_000_000) {
      return refuseField('sort_order', ids.position);
    }
    passed();
    const fields = {
      name: trimmed,
      description,
      parent_id: parent === '' ? null : Number(parent),
      sort_order: Number(position),
    };
    const body = category
      ? {
          ...(fields.name !== category.name && { name: fields.name }),
          ...(fields.description !== category.description && { description }),
          ...(fields.parent_id !== category.parent_id && { parent_id: fields.parent_id }),
          ...(fields.sort_order !== category.sort_order && { sort_order: fields.sort_order }),
        }
      : fields;
    if (category && Object.keys(body).length === 0) {
      props.onSaved(category);
      return;
    }
    const saved = await call.run(
      category
        ? props.api.PATCH('/admin/categories/{id}', {
            params: { path: { id: category.id } },
            body,
          })
        : props.api.POST('/admin/categories', { body: { ...fields, active: true } }),
    );
    if (!saved) return;
    if (!category) {
      setName('');
      setDescription('');
      setPosition('0');
    }
    props.onSaved(saved.data);
  }

  return (
    <form
      class={category ? 'category-form' : 'category-form panel'}
      aria-label={category ? `Edit ${category.name}` : 'New category'}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      {!category && <h3>New category</h3>}
      <div class="form-columns">
        <div>
          <label for={ids.name}>Name</label>
          <input
            id={ids.name}
            ref={first}
            maxLength={200}
            autoComplete="off"
            aria-required="true"
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
            {...refusedInput(refusal, 'name', ids.name)}
          />
          <FieldMessage refusal={refusal} field="name" inputId={ids.name} />
        </div>
        <div>
          <label for={ids.parent}>Parent</label>
          <select
            id={ids.parent}
            value={parent}
            onChange={(event) => setParent(event.currentTarget.value)}
            {...refusedInput(refusal, 'parent_id', ids.parent)}
          >
            <option value="">None (top level)</option>
            {props.tree
              .filter((entry) => !inside.has(entry.category.id))
              .map((entry) => (
                <option key={entry.category.id} value={String(entry.category.id)}>
                  {optionText(entry)}
                </option>
              ))}
          </select>
          <FieldMessage refusal={refusal} field="parent_id" inputId={ids.parent} />
        </div>
        <div>
          <label for={ids.position}>Position</label>
          <p class="hint" id={`${ids.position}-hint`}>
            Lower numbers come first; equal ones by name.
          </p>
          <input
            id={ids.position}
            type="number"
            step={1}
            min={-1_000_000}
            max={1_000_000}
            autoComplete="off"
            value={position}
            onInput={(event) => setPosition(event.currentTarget.value)}
            {...refusedInput(refusal, 'sort_order', ids.position, `${ids.position}-hint`)}
          />
          <FieldMessage refusal={refusal} field="sort_order" inputId={ids.position} />
        </div>
      </div>
      <label for={ids.description}>Description</label>
      <textarea
        id={ids.description}
        maxLength={5000}
        value={description}
        onInput={(event) => setDescription(event.currentTarget.value)}
        {...refusedInput(refusal, 'description', ids.description)}
      />
      <FieldMessage refusal={refusal} field="description" inputId={ids.description} />
      <ErrorAlert text={refusal ? undefined : call.error} />
      <SaveButtons
        busy={call.busy}
        label={category ? 'Save changes' : 'Create category'}
        onCancel={props.onCancel}
      />
    </form>
  );
}
