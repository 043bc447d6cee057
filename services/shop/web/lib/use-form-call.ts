// A form's call (useCall) and the refusal it shows beside a field: the form's own check's, made
// before sending, else the API's refusal of a field (`refusalOf`: fieldRefusal, or the form's
// own reading of a conflict).
import { useState } from 'preact/hooks';
import { fieldRefusal, type FieldRefusal } from './field-messages';
import { useCall } from './use-call';

export function useFormCall(
  refusalOf: (message: string | undefined) => FieldRefusal | undefined = fieldRefusal,
) {
  const call = useCall();
  const [checked, setChecked] = useState<FieldRefusal | undefined>();
  return {
    call,
    refusal: checked ?? refusalOf(call.error),
    /** The form's own refusal, shown instead of the last failure; `input` takes the keyboard. */
    refuse: (refusal: FieldRefusal | undefined, input: HTMLElement | null | undefined) => {
      call.setError(undefined);
      setChecked(refusal);
      input?.focus();
    },
    /** The form's own checks passed: the API's answer decides now. */
    passed: () => setChecked(undefined),
    /** Neither refusal shown any more (the form was reset). */
    clear: () => {
      setChecked(undefined);
      call.setError(undefined);
    },
  };
}
