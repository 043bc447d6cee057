// A product's price edited in its row (as Saleor's grid does): the field shows the price; a
// changed value is saved with Enter or the "Save" button that appears beside it, Escape puts the
// saved price back. Nothing is saved on leaving the field: the button stays and says so.
import { ErrorAlert } from '@dogshop/web-kit';
import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api, Schemas } from '../lib/api';
import { FieldMessage, fieldSentence, refusedInput } from '../lib/field-messages';
import { useFormCall } from '../lib/use-form-call';
import { parsePrice, priceInput } from './price';

type AdminProduct = Schemas['AdminProduct'];

export function PriceField(props: {
  api: Api;
  product: AdminProduct;
  onSaved: (product: AdminProduct) => void;
}) {
  const { product } = props;
  const saved = priceInput(product.price);
  const [text, setText] = useState(saved);
  const [done, setDone] = useState(false);
  const { call, refusal, refuse, passed, clear } = useFormCall();
  const field = useRef<HTMLInputElement>(null);
  const id = `price-${product.id}`;
  const changed = text !== saved;

  // The price changed elsewhere (the list loaded again): shown, unless a change is being typed
  // (the field no longer holds the price it showed).
  const shownPrice = useRef(saved);
  useEffect(() => {
    if (text === shownPrice.current) setText(saved);
    shownPrice.current = saved;
  }, [saved]);

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (call.busy || !changed) return;
    const price = parsePrice(text);
    if (price === undefined) {
      refuse(fieldSentence('price'), field.current);
      return;
    }
    passed();
    if (price === product.price) {
      setText(saved);
      return;
    }
    const result = await call.run(
      props.api.PATCH('/admin/products/{id}', {
        params: { path: { id: product.id } },
        body: { price },
      }),
    );
    if (!result) return;
    setText(priceInput(result.data.price));
    setDone(true);
    // The button that was clicked is gone with the change: the field keeps the keyboard.
    if (document.activeElement === document.body || !document.activeElement) {
      field.current?.focus();
    }
    props.onSaved(result.data);
  }

  function reset() {
    setText(saved);
    clear();
  }

  return (
    <form class="price-field" noValidate onSubmit={(event) => void submit(event)}>
      <label class="visually-hidden" for={id}>
        Price of {product.name}
      </label>
      <div class="inline-field">
        <input
          id={id}
          ref={field}
          inputMode="decimal"
          autoComplete="off"
          value={text}
          onInput={(event) => {
            setText(event.currentTarget.value);
            setDone(false);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && changed) {
              event.preventDefault();
              reset();
            }
          }}
          {...refusedInput(refusal, 'price', id)}
        />
        {changed && (
          <button type="submit" aria-label={`Save the price of ${product.name}`}>
            {call.busy ? 'Saving …' : 'Save'}
          </button>
        )}
      </div>
      <p class="status saved-mark" role="status">
        {done && !changed ? 'Saved' : ''}
      </p>
      <FieldMessage refusal={refusal} field="price" inputId={id} />
      <ErrorAlert text={refusal ? undefined : call.error} />
    </form>
  );
}
