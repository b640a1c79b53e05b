// The sign-in dialog: a key or a token for this tab (auth.ts keeps it),
// and the header's word on who is signed in.
import { signIn, signOut, signedIn } from "./auth";
import { byId } from "./dom";

/** setupSignIn wires the sign-in dialog; onChange runs after every sign-in or sign-out. */
export function setupSignIn(onChange: () => void): void {
  const dialog = byId<HTMLDialogElement>("signin-dialog");
  const token = byId<HTMLInputElement>("signin-token");
  const who = byId("who");
  const show = () => {
    const stored = sessionStorage.getItem("casegraph.auth") ?? "";
    const key = /^cgk_([0-9a-f]+)_/.exec(stored);
    who.textContent = signedIn() ? (key ? `Signed in with key ${key[1]}` : "Signed in with a token") : "Not signed in";
  };
  byId("signin-button").addEventListener("click", () => {
    token.value = "";
    dialog.showModal();
  });
  byId("signin-cancel").addEventListener("click", () => dialog.close());
  byId("signout").addEventListener("click", () => {
    signOut();
    dialog.close();
    show();
    onChange();
  });
  byId("signin-form").addEventListener("submit", () => {
    if (token.value.trim() === "") return;
    signIn(token.value);
    token.value = "";
    show();
    onChange();
  });
  show();
}
