import { germanValidation, type ServiceMessages } from '@dogshop/service-kit';

// Every text the API answers with, in German (the directory's users are German hunters).
export const MESSAGES = {
  handlerNotFound: 'Hundeführer nicht gefunden',
  handlerDeleted: 'Benutzer wurde gelöscht',
  routeNotFound: 'Ressource nicht gefunden',
  internal: 'Interner Serverfehler',
  invalidRequest: 'Ungültige Anfrage: ',
  malformedBody: 'Ungültige Anfrage: der Body konnte nicht gelesen werden (kein gültiges JSON?)',
  malformedUrl: 'Ungültige Anfrage: die Adresse konnte nicht gelesen werden',
  bodyTooLarge: 'Anfrage zu groß (höchstens 100 kB)',
  unsupportedMediaType: 'Nicht unterstützter Content-Type (erwartet: application/json)',
  unavailable: 'Dienst vorübergehend nicht verfügbar',
  overloaded: 'Dienst überlastet, bitte später erneut versuchen',
  tooManyRequests: 'Zu viele Anfragen, bitte später erneut versuchen',
  tooManyLoginFailures: (seconds: number) =>
    `Zu viele fehlgeschlagene Anmeldeversuche, bitte in ${seconds} Sekunden erneut versuchen`,
  loginFailed: 'Benutzername oder Passwort falsch',
  tokenMissing: 'Nicht angemeldet: Bearer-Token fehlt',
  tokenInvalid: 'Nicht angemeldet: Token ungültig oder abgelaufen',
  accountInactive: 'Nicht angemeldet: Konto existiert nicht mehr oder ist deaktiviert',
  tokenEnded:
    'Nicht angemeldet: das Passwort des Kontos wurde seit dieser Anmeldung geändert oder zurückgesetzt',
  forbidden: 'Keine Berechtigung: diese Aktion ist nur für Administratoren',
  forbiddenForHandlers:
    'Keine Berechtigung: diese Aktion ist nur für Administratoren und Betrachter',
  forbiddenOtherHandler:
    'Keine Berechtigung: ein Hundeführer-Konto darf nur den eigenen Eintrag sehen und ändern',
  ownHandlerDeleted:
    'Der Eintrag, dem dieses Konto zugeordnet ist, wurde gelöscht. Bitte wenden Sie sich an die Verwaltung.',
  accountNotFound: 'Konto nicht gefunden',
  usernameTaken: 'Ein Konto mit diesem Benutzernamen existiert bereits',
  handlerAccountNeedsHandler:
    'Ungültige Anfrage: ein Konto mit der Rolle handler braucht handlerId',
  handlerIdOnlyForHandlers: 'Ungültige Anfrage: handlerId nur für Konten mit der Rolle handler',
  boundHandlerNotFound: 'Ungültige Anfrage: handlerId nennt keinen Hundeführer',
  lastAdmin: 'Das letzte aktive Administratorkonto kann nicht deaktiviert oder herabgestuft werden',
  setPasswordTokenInvalid:
    'Der Link zum Setzen des Passworts ist ungültig, abgelaufen oder schon benutzt',
  passwordSet: 'Passwort wurde gesetzt',
  nearestNeedsBoth: 'Ungültige Anfrage: lat und lng nur gemeinsam angeben',
  radiusNeedsPoint: 'Ungültige Anfrage: radius_km nur zusammen mit lat und lng',
  availableUntilInThePast: 'Ungültige Anfrage: availableUntil muss in der Zukunft liegen',
  cursorNeedsLimit: 'Ungültige Anfrage: cursor nur zusammen mit limit',
  invalidCursor: 'Ungültige Anfrage: cursor ist kein Cursor dieser Liste (next_cursor einer Seite)',
  cursorOfOtherList:
    'Ungültige Anfrage: cursor gehört zu einer anderen Liste (lat und lng wie bei der vorigen Seite angeben)',
  // Validation: Ajv's own rules come from ajv-i18n; these are the rules service-kit adds.
  unknownField: 'unbekanntes Feld',
  plainInteger: 'muss eine ganze Zahl in einfacher Dezimalschreibweise sein',
  plainNumber: 'muss eine Zahl in einfacher Dezimalschreibweise sein',
  containsNul: (field: string) =>
    `Ungültige Anfrage: ${field} darf das Zeichen U+0000 nicht enthalten`,
  // Requests Node's HTTP parser refuses before they reach the app.
  clientErrors: {
    400: 'Ungültige Anfrage: die Anfrage konnte nicht gelesen werden',
    408: 'Zeitüberschreitung: die Anfrage ist nicht rechtzeitig vollständig angekommen',
    413: 'Anfrage zu groß',
    414: 'Adresse zu lang',
    431: 'Anfrage-Header zu groß (Adresse oder Header zu lang)',
  },
} as const;

/** The import's own texts (German, like the rest of the API). */
export const IMPORT_MESSAGES = {
  tooLarge: 'Datei zu groß (höchstens 10 MB und 50.000 Zeilen)',
  unsupportedMediaType:
    'Nicht unterstützter Content-Type (erwartet: text/csv oder eine XLSX-Datei)',
  noFile: 'Ungültige Anfrage: keine Datei im Body',
  notUtf8: 'Ungültige Anfrage: die CSV-Datei ist nicht in UTF-8 kodiert',
  unreadableCsv:
    'Ungültige Anfrage: die CSV-Datei konnte nicht gelesen werden (Anführungszeichen prüfen)',
  unreadableXlsx: 'Ungültige Anfrage: die Datei ist keine lesbare XLSX-Datei',
  noHeader: 'Ungültige Anfrage: die Datei hat keine Kopfzeile',
  missingColumn: (header: string) => `Ungültige Anfrage: die Datei hat keine Spalte ${header}`,
  duplicateColumn: (header: string) => `Ungültige Anfrage: die Spalte ${header} kommt mehrfach vor`,
  columnsTogether: (headers: readonly string[]) =>
    `Ungültige Anfrage: die Spalten ${headers.join(' und ')} nur gemeinsam`,
  // The transaction ran past the database's lifetime limit: 503 (nothing applied), not 500.
  tooLong:
    'Import nicht angewendet: die Transaktion dauerte zu lange und wurde von der Datenbank ' +
    'abgebrochen; bitte später erneut versuchen oder die Datei in kleinere Dateien aufteilen',
  refused: (rows: number) =>
    `Import nicht angewendet: ${rows} ${rows === 1 ? 'Zeile' : 'Zeilen'} mit Problemen`,
} as const;

/** The import's problems of a cell, shown with its row and column. */
export const IMPORT_PROBLEMS = {
  empty: 'darf nicht leer sein',
  tooShort: (limit: number) => `mindestens ${limit} Zeichen`,
  tooLong: (limit: number) => `höchstens ${limit} Zeichen`,
  notText: 'Text erwartet',
  notBoolean: 'true oder false erwartet',
  notDateTime: 'kein Zeitpunkt nach ISO 8601 mit Zeitzone (z. B. 2026-03-22T19:00:00Z)',
  inThePast: 'muss in der Zukunft liegen',
  notNumber: (range?: { minimum: number; maximum: number }) =>
    range ? `keine Zahl zwischen ${range.minimum} und ${range.maximum}` : 'keine Zahl',
  decimalComma: 'Dezimalpunkt statt Komma verwenden',
  together: (headers: readonly string[]) => `${headers.join(' und ')} nur gemeinsam angeben`,
  notId: 'keine gültige id (24 Hexadezimalzeichen)',
  unknownId: 'kein Hundeführer mit dieser id',
  duplicateId: (first: number) => `dieselbe id wie in Zeile ${first}`,
  formula: 'Formeln werden nicht übernommen (den Wert als Text eingeben)',
  cellError: 'Fehlerwert statt eines Werts',
  nul: 'darf das Zeichen U+0000 nicht enthalten',
  invalid: 'ungültiger Wert',
} as const;

/** The framework's and the shared plugins' answers in German, for the service builder. */
export const GERMAN: ServiceMessages = {
  routeNotFound: MESSAGES.routeNotFound,
  internal: MESSAGES.internal,
  invalidRequest: MESSAGES.invalidRequest,
  unknownField: MESSAGES.unknownField,
  malformedBody: MESSAGES.malformedBody,
  malformedUrl: MESSAGES.malformedUrl,
  bodyTooLarge: MESSAGES.bodyTooLarge,
  unsupportedMediaType: MESSAGES.unsupportedMediaType,
  unavailable: MESSAGES.unavailable,
  overloaded: MESSAGES.overloaded,
  tooManyRequests: MESSAGES.tooManyRequests,
  containsNul: MESSAGES.containsNul,
  loginFailed: MESSAGES.loginFailed,
  tooManyLoginFailures: MESSAGES.tooManyLoginFailures,
  tokenMissing: MESSAGES.tokenMissing,
  tokenInvalid: MESSAGES.tokenInvalid,
  clientErrors: MESSAGES.clientErrors,
  localizeValidation: germanValidation(MESSAGES),
};
