// A form's submit button ("Saving …" while its call runs; aria-disabled, so the focus stays on
// it) and, where the form can be closed, Cancel beside it.
export function SaveButtons(props: { busy: boolean; label: string; onCancel?: () => void }) {
  return (
    <div class="button-row">
      <button type="submit" aria-disabled={props.busy}>
        {props.busy ? 'Saving …' : props.label}
      </button>
      {props.onCancel && (
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}
