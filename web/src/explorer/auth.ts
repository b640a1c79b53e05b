// The credentials of this tab: an API key or a bearer token, kept in
// sessionStorage (gone when the tab closes, never shared with other tabs,
// never in a cookie, so no request carries them unless we add them).
const storageKey = "casegraph.auth";

/** identityEvent is dispatched on window when the tab signs in or out (the live view subscribes again). */
export const identityEvent = "casegraph:identity";

/** authHeader is the Authorization header to send, or "" when signed out. */
export function authHeader(): string {
  try {
    const token = sessionStorage.getItem(storageKey);
    return token ? `Bearer ${token}` : "";
  } catch {
    return "";
  }
}

/** signIn keeps a key or token for this tab; a leading "Bearer " is dropped. */
export function signIn(token: string): void {
  sessionStorage.setItem(storageKey, token.trim().replace(/^Bearer\s+/i, ""));
  window.dispatchEvent(new Event(identityEvent));
}

/** signOut forgets the tab's credentials. */
export function signOut(): void {
  sessionStorage.removeItem(storageKey);
  window.dispatchEvent(new Event(identityEvent));
}

/** signedIn says whether the tab holds credentials. */
export function signedIn(): boolean {
  return authHeader() !== "";
}
