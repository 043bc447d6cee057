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
  forbidden: 'Keine Berechtigung: diese Aktion ist nur für Administratoren',
  forbiddenForHandlers:
    'Keine Berechtigung: diese Aktion ist nur für Administratoren und Betrachter',
  forbiddenOtherHandler:
    'Keine Berechtigung: ein Hundeführer-Konto darf nur den eigenen Eintrag sehen und ändern',
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
