import type { ErrorObject } from 'ajv';
import localizeDeModule from 'ajv-i18n/localize/de/index.js';
import { PLAIN_DECIMAL_KEYWORD } from './validation.js';

// ajv-i18n is CommonJS; under NodeNext its default export is the module object.
const localizeDe = localizeDeModule as unknown as typeof localizeDeModule.default;

/** German texts of the rules service-kit adds to Ajv's own (ajv-i18n knows only Ajv's). */
export interface GermanRuleTexts {
  /** e.g. `muss eine ganze Zahl in einfacher Dezimalschreibweise sein` */
  plainInteger: string;
  /** e.g. `muss eine Zahl in einfacher Dezimalschreibweise sein` */
  plainNumber: string;
}

/** An error-envelope `localize` that turns validation messages German (Ajv's via ajv-i18n). */
export function germanValidation(texts: GermanRuleTexts): (errors: ErrorObject[]) => void {
  return (errors) => {
    localizeDe(errors);
    for (const error of errors) {
      if (error.keyword === PLAIN_DECIMAL_KEYWORD) {
        error.message = error.params.type === 'integer' ? texts.plainInteger : texts.plainNumber;
      }
    }
  };
}
