// Spreadsheets run a cell that starts with one of these as a formula (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Text from users is neutralised with a leading single quote, which spreadsheets show as text.
 * Applied to free-text columns only: numbers and timestamps the service writes itself (a
 * negative longitude) stay as they are.
 */
export const neutraliseFormula = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);
