// web-kit's useCall over the shop's calls: busy while one runs, its failure's text.
import { useCall as useKitCall, type Call } from '@dogshop/web-kit';
import { outcome } from './api';

export function useCall() {
  const call = useKitCall();
  /** Busy while `request` runs; its data, or undefined with its failure's text in `error`. */
  const run = <T>(request: Call<T>) => call.run(outcome(request));
  return { ...call, run };
}
