// The page's frame on small screens and keyboards: the side panels fold
// away (both start folded below 1280 px but the details, which open when
// something is clicked), the export menu, and Escape, which closes the menu
// or the panel the focus is in and gives the focus to what opened it.
import type { Canvas } from "./canvas";
import { byId } from "./dom";

/** narrow is the width below which the results panel starts folded. */
const narrow = 1280;

/** setPanel folds or unfolds a side panel (left or right). */
export function setPanel(side: "left" | "right", open: boolean): void {
  const button = byId(`toggle-${side}`);
  byId(side).hidden = !open;
  document.body.classList.toggle(`no-${side}`, !open);
  button.setAttribute("aria-expanded", String(open));
  button.setAttribute("aria-label", `${open ? "Hide" : "Show"} the ${side === "left" ? "results and entities drawn" : "details"} panel`);
}

/** openPanel unfolds a side panel when it is folded. */
export function openPanel(side: "left" | "right"): void {
  if (byId(side).hidden) setPanel(side, true);
}

/** setupPanels wires the panel toggles, the export menu and Escape. */
export function setupPanels(): void {
  for (const side of ["left", "right"] as const) {
    byId(`toggle-${side}`).addEventListener("click", () => setPanel(side, byId(side).hidden));
  }
  setPanel("left", window.innerWidth >= narrow);
  setPanel("right", true);
  // A search lists its results in the left panel.
  byId("search-form").addEventListener("submit", () => openPanel("left"));

  const menuButton = byId("export-button");
  const menu = byId("export-menu");
  const setMenu = (open: boolean) => {
    menu.hidden = !open;
    menuButton.setAttribute("aria-expanded", String(open));
  };
  menuButton.addEventListener("click", () => {
    setMenu(menu.hidden);
    if (!menu.hidden) menu.querySelector<HTMLElement>("button")?.focus();
  });
  menu.addEventListener("click", (ev) => (ev.target as HTMLElement).closest("button") && setMenu(false));
  document.addEventListener("click", (ev) => {
    if (!menu.hidden && !(ev.target as HTMLElement).closest("#export-menu, #export-button")) setMenu(false);
  });

  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || ev.defaultPrevented) return;
    const target = ev.target as HTMLElement;
    if (target.closest("dialog, #search-form")) return;
    if (!menu.hidden) {
      setMenu(false);
      menuButton.focus();
    } else if (target.closest("#right")) {
      setPanel("right", false);
      byId("toggle-right").focus();
    } else if (target.closest("#left")) {
      setPanel("left", false);
      byId("toggle-left").focus();
    } else return;
    ev.preventDefault();
  });
}

/**
 * setupKeys wires the canvas's keys (outside inputs and dialogs): / search,
 * f fit, + and - zoom, e expand, p pin, h hide, Delete remove, v the Views
 * panel, Ctrl+Z undo.
 */
export function setupKeys(canvas: Canvas, expand: (id: string) => void, views: () => void): void {
  document.addEventListener("keydown", (ev) => {
    const typing = (ev.target as HTMLElement).closest("input, textarea, select, dialog");
    if ((ev.ctrlKey || ev.metaKey) && ev.key === "z" && !typing) {
      ev.preventDefault();
      canvas.undo();
      return;
    }
    if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const selected = canvas.selected();
    const keys: Record<string, () => void> = {
      "/": () => byId("search").focus(),
      f: () => canvas.fit(),
      "+": () => canvas.zoomBy(1.25),
      "-": () => canvas.zoomBy(0.8),
      e: () => selected.forEach(expand),
      p: () => canvas.togglePin(selected),
      h: () => canvas.hide(selected),
      v: views,
      Delete: () => canvas.remove(selected),
    };
    if (keys[ev.key]) {
      ev.preventDefault();
      keys[ev.key]();
    }
  });
}
