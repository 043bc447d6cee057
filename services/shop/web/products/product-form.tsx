// The editor of a new or an existing product: name, description, price, category, active and,
// for a new one, its opening stock (an existing product's stock changes through a stock change,
// with its reason). A change sends only the fields that differ. Each refusal is a sentence beside
// its field.
import { ErrorAlert } from '@dogshop/web-kit';
import type { TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import type { Api, Schemas } from '../lib/api';
import {
  FieldMessage,
  fieldRefusal,
  fieldSentence,
  refusedInput,
  type FieldRefusal,
} from '../lib/field-messages';
import { useFormCall } from '../lib/use-form-call';
import { optionText, type TreeEntry } from '../categories/category-tree';
import { parsePrice, priceInput } from './price';

type AdminProduct = Schemas['AdminProduct'];

/** The API's 409 for a name another product of the category has. */
const NAME_TAKEN = /already has a product named/;

function refusalOf(message: string | undefined): FieldRefusal | undefined {
  if (message && NAME_TAKEN.test(message)) {
    return {
      field: 'name',
      text: 'Another product in this category has this name: choose another name or category.',
    };
  }
  return fieldRefusal(message);
}

interface Values {
  name: string;
  description: string;
  price: string;
  categoryId: string;
  active: boolean;
  stock: string;
}

const valuesOf = (product: AdminProduct | undefined): Values => ({
  name: product?.name ?? '',
  description: product?.description ?? '',
  price: product ? priceInput(product.price) : '',
  categoryId: product ? String(product.category_id) : '',
  active: product?.active ?? true,
  stock: '0',
});

export function ProductForm(props: {
  api: Api;
  /** Absent: a new product. */
  product?: AdminProduct;
  /** The category tree (empty while it loads). */
  categories: TreeEntry[];
  onSaved: (product: AdminProduct) => void;
}) {
  const { product } = props;
  const [values, setValues] = useState<Values>(() => valuesOf(product));
  const [notice, setNotice] = useState('');
  const { call, refusal, refuse, passed } = useFormCall(refusalOf);
  const change = (part: Partial<Values>) => {
    setNotice('');
    setValues((v) => ({ ...v, ...part }));
  };
  // Not the product's other ids: one editor on the page at a time.
  const ids = {
    name: 'product-name',
    description: 'product-description',
    price: 'product-price',
    category: 'product-category',
    active: 'product-active',
    stock: 'product-stock',
  };

  /** The fields' values as the API takes them, or the first field the form refuses. */
  function read():
    | { refused: FieldRefusal | undefined; at: string }
    | { name: string; price: number; categoryId: number; stock: number } {
    const name = values.name.trim();
    const price = parsePrice(values.price);
    const categoryId = Number(values.categoryId);
    const stock = /^\d{1,10}$/.test(values.stock.trim()) ? Number(values.stock) : NaN;
    if (name === '') return { refused: fieldSentence('name'), at: ids.name };
    if (price === undefined) return { refused: fieldSentence('price'), at: ids.price };
    if (!Number.isInteger(categoryId) || categoryId < 1) {
      return { refused: fieldSentence('category_id'), at: ids.category };
    }
    if (!product && !(stock <= 2_147_483_647)) {
      return { refused: fieldSentence('stock'), at: ids.stock };
    }
    return { name, price, categoryId, stock };
  }

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (call.busy) return;
    const fields = read();
    if ('refused' in fields) {
      refuse(fields.refused, document.getElementById(fields.at));
      return;
    }
    passed();
    const { name, price, categoryId, stock } = fields;
    const description = values.description;
    let saved: AdminProduct | undefined;
    if (!product) {
      saved = (
        await call.run(
          props.api.POST('/admin/products', {
            body: {
              name,
              description,
              price,
              category_id: categoryId,
              stock,
              active: values.active,
            },
          }),
        )
      )?.data;
    } else {
      const body: Schemas['UpdateProductBody'] = {
        ...(name !== product.name && { name }),
        ...(description !== product.description && { description }),
        ...(price !== product.price && { price }),
        ...(categoryId !== product.category_id && { category_id: categoryId }),
        ...(values.active !== product.active && { active: values.active }),
      };
      if (Object.keys(body).length === 0) {
        setNotice('Nothing to save: no field differs from the saved product.');
        return;
      }
      saved = (
        await call.run(
          props.api.PATCH('/admin/products/{id}', {
            params: { path: { id: product.id } },
            body,
          }),
        )
      )?.data;
    }
    if (!saved) return;
    setValues(valuesOf(saved));
    setNotice(product ? 'Changes saved.' : '');
    props.onSaved(saved);
  }

  return (
    <form
      class="panel product-form"
      aria-label={product ? `Edit ${product.name}` : 'New product'}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <label for={ids.name}>Name</label>
      <input
        id={ids.name}
        maxLength={300}
        autoComplete="off"
        aria-required="true"
        value={values.name}
        onInput={(event) => change({ name: event.currentTarget.value })}
        {...refusedInput(refusal, 'name', ids.name)}
      />
      <FieldMessage refusal={refusal} field="name" inputId={ids.name} />

      <label for={ids.description}>Description</label>
      <textarea
        id={ids.description}
        maxLength={10_000}
        value={values.description}
        onInput={(event) => change({ description: event.currentTarget.value })}
        {...refusedInput(refusal, 'description', ids.description)}
      />
      <FieldMessage refusal={refusal} field="description" inputId={ids.description} />

      <div class="form-columns">
        <div>
          <label for={ids.price}>Price</label>
          <input
            id={ids.price}
            inputMode="decimal"
            autoComplete="off"
            aria-required="true"
            value={values.price}
            onInput={(event) => change({ price: event.currentTarget.value })}
            {...refusedInput(refusal, 'price', ids.price)}
          />
          <FieldMessage refusal={refusal} field="price" inputId={ids.price} />
        </div>
        <div>
          <label for={ids.category}>Category</label>
          <select
            id={ids.category}
            aria-required="true"
            value={values.categoryId}
            onChange={(event) => change({ categoryId: event.currentTarget.value })}
            {...refusedInput(refusal, 'category_id', ids.category)}
          >
            <option value="">Choose a category</option>
            {props.categories.map((entry) => (
              <option key={entry.category.id} value={String(entry.category.id)}>
                {optionText(entry)}
              </option>
            ))}
          </select>
          <FieldMessage refusal={refusal} field="category_id" inputId={ids.category} />
        </div>
        {!product && (
          <div>
            <label for={ids.stock}>Opening stock</label>
            <input
              id={ids.stock}
              type="number"
              min={0}
              step={1}
              autoComplete="off"
              value={values.stock}
              onInput={(event) => change({ stock: event.currentTarget.value })}
              {...refusedInput(refusal, 'stock', ids.stock)}
            />
            <FieldMessage refusal={refusal} field="stock" inputId={ids.stock} />
          </div>
        )}
      </div>

      <div class="check">
        <input
          id={ids.active}
          type="checkbox"
          checked={values.active}
          aria-describedby={`${ids.active}-hint`}
          onChange={(event) => change({ active: event.currentTarget.checked })}
        />
        <label for={ids.active}>Active</label>
      </div>
      <p class="hint" id={`${ids.active}-hint`}>
        Only active products are in the storefront. A product is never deleted: deactivate it
        instead (its orders keep it).
      </p>

      <ErrorAlert text={refusal ? undefined : call.error} />
      <p class="status" role="status">
        {notice}
      </p>
      <button type="submit" aria-disabled={call.busy}>
        {call.busy ? 'Saving …' : product ? 'Save changes' : 'Create product'}
      </button>
    </form>
  );
}
