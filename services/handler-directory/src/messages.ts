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
  tooManyRequests: 'Zu viele Anfragen, bitte später erneut versuchen',
  tooManyLoginFailures: (seconds: number) =>
    `Zu viele fehlgeschlagene Anmeldeversuche, bitte in ${seconds} Sekunden erneut versuchen`,
  loginFailed: 'Benutzername oder Passwort falsch',
  tokenMissing: 'Nicht angemeldet: Bearer-Token fehlt',
  tokenInvalid: 'Nicht angemeldet: Token ungültig oder abgelaufen',
  accountInactive: 'Nicht angemeldet: Konto existiert nicht mehr oder ist deaktiviert',
  forbidden: 'Keine Berechtigung: diese Aktion ist nur für Administratoren',
  nearestNeedsBoth: 'Ungültige Anfrage: lat und lng nur gemeinsam angeben',
  radiusNeedsPoint: 'Ungültige Anfrage: radius_km nur zusammen mit lat und lng',
} as const;
