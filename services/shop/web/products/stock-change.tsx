// A stock change with its reason: add or take away (`delta`), or set a counted stock (`set`).
// Used in a product's row and on its page. The form checks what it can before sending (a whole
// number, a reason) and shows each refusal as a sentence beside its field.
import { ErrorAlert } from '@dogshop/web-kit';
import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api, Schemas } from '../lib/api';
import {
  FieldMessage,
  fieldRefusal,
  fieldSentence,
  refusedInput,
  type FieldRefusal,
} from '../lib/field-messages';
import { SaveButtons } from '../lib/save-buttons';
import { useFormCall } from '../lib/use-form-call';
import { formatCount } from '../lib/format';

type AdminProduct = Schemas['AdminProduct'];
type StockMovement = Schemas['StockMovement'];
type Mode = 'delta' | 'set';

const WHOLE_NUMBER = /^-?\d{1,10}$/;
/** The API's refusal of a change that would leave less than nothing. */
const TOO_FEW = /has (\d+) in stock: cannot take away/;

/** The refusal to show beside a field: the API's field, or a take-away larger than the stock. */
function refusalOf(message: string | undefined): FieldRefusal | undefined {
  const stock = message && TOO_FEW.exec(message)?.[1];
  if (stock !== undefined && stock !== '') {
    return {
      field: 'delta',
      text: `Only ${formatCount(Number(stock))} in stock: you can take away at most that many.`,
    };
  }
  return fieldRefusal(message);
}

export function StockChangeForm(props: {
  api: Api;
  product: AdminProduct;
  /** Prefix of the fields' ids (one form per row on the list). */
  idPrefix: string;
  onSaved: (product: AdminProduct, movement: StockMovement) => void;
  onCancel?: () => void;
  /** The amount field takes the focus when the form opens (it opened from a row's button). */
  focusOnOpen?: boolean;
}) {
  const { product, idPrefix } = props;
  const [mode, setMode] = useState<Mode>('delta');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const { call, refusal, refuse, passed, clear } = useFormCall(refusalOf);
  const amountId = `${idPrefix}-amount`;
  const reasonId = `${idPrefix}-reason`;
  const hintId = `${idPrefix}-amount-hint`;
  const amountField = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (props.focusOnOpen) amountField.current?.focus();
  }, []);

  /** What the form would send, or the field it refuses. */
  function body(): Schemas['AdjustStockBody'] | FieldRefusal | undefined {
    const text = amount.trim();
    const n = WHOLE_NUMBER.test(text) ? Number(text) : NaN;
    if (mode === 'delta' && (!Number.isSafeInteger(n) || n === 0)) return fieldSentence('delta');
    if (mode === 'set' && (!Number.isSafeInteger(n) || n < 0)) return fieldSentence('set');
    if (reason.trim() === '') return fieldSentence('reason');
    return mode === 'delta'
      ? { delta: n, reason: reason.trim() }
      : { set: n, reason: reason.trim() };
  }

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (call.busy) return;
    const request = body();
    if (!request || 'field' in request) {
      refuse(request, document.getElementById(request?.field === 'reason' ? reasonId : amountId));
      return;
    }
    passed();
    const saved = await call.run(
      props.api.POST('/admin/products/{id}/stock', {
        params: { path: { id: product.id } },
        body: request,
      }),
    );
    if (!saved) return;
    setAmount('');
    setReason('');
    props.onSaved(saved.data.product, saved.data.movement);
  }

  function choose(next: Mode) {
    setMode(next);
    clear();
  }

  return (
    <form
      class="stock-change"
      aria-label={`Change the stock of ${product.name}`}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <fieldset>
        <legend>How</legend>
        <div class="choices">
          <label class="choice">
            <input
              type="radio"
              name={`${idPrefix}-mode`}
              checked={mode === 'delta'}
              onChange={() => choose('delta')}
            />
            Add or take away
          </label>
          <label class="choice">
            <input
              type="radio"
              name={`${idPrefix}-mode`}
              checked={mode === 'set'}
              onChange={() => choose('set')}
            />
            Set the counted stock
          </label>
        </div>
      </fieldset>
      <div class="stock-fields">
        <div>
          <label for={amountId}>{mode === 'delta' ? 'Amount' : 'Counted stock'}</label>
          <p class="hint" id={hintId}>
            {mode === 'delta'
              ? `In stock now: ${formatCount(product.stock)}. A minus takes away (−2).`
              : `In stock now: ${formatCount(product.stock)}. The number you counted.`}
          </p>
          <input
            id={amountId}
            type="number"
            step={1}
            min={mode === 'set' ? 0 : undefined}
            autoComplete="off"
            ref={amountField}
            value={amount}
            onInput={(event) => setAmount(event.currentTarget.value)}
            {...refusedInput(refusal, mode, amountId, hintId)}
          />
          <FieldMessage refusal={refusal} field={mode} inputId={amountId} />
        </div>
        <div>
          <label for={reasonId}>Reason</label>
          <p class="hint" id={`${reasonId}-hint`}>
            Required: a stocktake, damage, a delivery …
          </p>
          <input
            id={reasonId}
            maxLength={500}
            autoComplete="off"
            aria-required="true"
            value={reason}
            onInput={(event) => setReason(event.currentTarget.value)}
            {...refusedInput(refusal, 'reason', reasonId, `${reasonId}-hint`)}
          />
          <FieldMessage refusal={refusal} field="reason" inputId={reasonId} />
        </div>
      </div>
      <ErrorAlert text={refusal ? undefined : call.error} />
      <SaveButtons busy={call.busy} label="Save stock change" onCancel={props.onCancel} />
    </form>
  );
}
