// Importing a file from the explorer (issue 26 item 6): an NDJSON or FtM
// file dropped on the canvas or on the import panel (or chosen there) goes
// to POST /datasets/{name}/import with the tab's credentials. The answer is
// shown as it is: the counts written, or every refused line with its
// number, code and message (the route writes nothing while any line is
// bad), or the refusal of a caller who may not write the dataset. The
// route records the import in the audit log.
import { authHeader } from "./auth";
import { byId, h, replace } from "./dom";
import { status } from "./ui";

interface LineError {
  message: string;
  extensions?: { code?: string; line?: number; field?: string };
}

interface ImportAnswer {
  dataset?: string;
  sources?: number;
  entities?: number;
  relations?: number;
  notes?: string[];
  errors?: LineError[];
  extensions?: { summary?: { text: string } };
}

/** setupImport wires the import panel and the canvas as drop targets. */
export function setupImport(): void {
  const panel = byId("import");
  const file = byId<HTMLInputElement>("import-file");
  byId("write-import").addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    if (!panel.hidden) file.focus();
  });
  byId("import-close").addEventListener("click", () => (panel.hidden = true));
  file.addEventListener("change", () => file.files?.[0] && void importFile(file.files[0]));
  for (const target of [byId("canvas"), byId("import-drop")]) {
    target.addEventListener("dragover", (ev) => {
      if (!ev.dataTransfer?.types.includes("Files")) return;
      ev.preventDefault();
      target.classList.add("dropping");
    });
    target.addEventListener("dragleave", () => target.classList.remove("dropping"));
    target.addEventListener("drop", (ev) => {
      target.classList.remove("dropping");
      const f = ev.dataTransfer?.files[0];
      if (!f) return;
      ev.preventDefault();
      void importFile(f);
    });
  }
}

/** importFile sends a file to its dataset's import route and shows the answer. */
export async function importFile(f: File): Promise<void> {
  const panel = byId("import");
  panel.hidden = false;
  const body = await f.text();
  const format = byId<HTMLSelectElement>("import-format").value || (/ftm/i.test(f.name) ? "ftm" : "ndjson");
  const datasetInput = byId<HTMLInputElement>("import-dataset");
  const dataset = datasetInput.value.trim() || datasetOf(body);
  const result = byId("import-result");
  if (!dataset) {
    replace(result, h("p", { class: "panel-error" }, "Say which dataset the file goes to."));
    datasetInput.focus();
    return;
  }
  datasetInput.value = dataset;
  status(`Importing ${f.name} into ${dataset}…`);
  const headers: Record<string, string> = { "Content-Type": format === "ftm" ? "application/json" : "application/x-ndjson", Accept: "application/json" };
  if (authHeader()) headers.Authorization = authHeader();
  let answer: ImportAnswer = {};
  let code = 0;
  try {
    const res = await fetch(`/datasets/${encodeURIComponent(dataset)}/import?format=${format}`, { method: "POST", headers, body });
    code = res.status;
    answer = (await res.json().catch(() => ({}))) as ImportAnswer;
  } catch (err) {
    answer = { errors: [{ message: `The server cannot be reached (${String(err)}).`, extensions: { code: "NETWORK" } }] };
  }
  status("");
  replace(result, ...answerView(f.name, dataset, code, answer));
  result.focus();
}

/** answerView is the import's answer as the panel shows it. */
function answerView(name: string, dataset: string, code: number, a: ImportAnswer): (HTMLElement | null)[] {
  if (code === 200 && !a.errors) {
    return [
      h("p", { id: "import-written" }, `${name} imported into ${dataset}: ${a.sources ?? 0} sources, ${a.entities ?? 0} entities and ${a.relations ?? 0} relations written.`),
      a.notes?.length ? h("ul", { class: "import-notes" }, a.notes.map((n) => h("li", {}, n))) : null,
    ];
  }
  const errors = a.errors ?? [{ message: `The server answered ${code}.`, extensions: { code: `HTTP_${code}` } }];
  const byLine = errors.filter((e) => e.extensions?.line !== undefined);
  const other = errors.filter((e) => e.extensions?.line === undefined);
  return [
    h("p", { class: "panel-error", id: "import-refused" }, a.extensions?.summary?.text ?? `${name} was refused; nothing was imported.`),
    ...other.map((e) => h("p", { class: "panel-error" }, h("span", { class: "code" }, e.extensions?.code ?? "ERROR"), e.message)),
    byLine.length
      ? h(
          "table",
          { id: "import-errors", class: "import-errors" },
          h("caption", {}, "Errors by line"),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Line"), h("th", { scope: "col" }, "Code"), h("th", { scope: "col" }, "Field"), h("th", { scope: "col" }, "Message"))),
          h(
            "tbody",
            {},
            byLine.map((e) => h("tr", {}, h("td", {}, String(e.extensions?.line)), h("td", {}, e.extensions?.code ?? ""), h("td", {}, e.extensions?.field ?? ""), h("td", {}, e.message))),
          ),
        )
      : null,
  ];
}

/** datasetOf is the dataset the file's first NDJSON record names, or "". */
function datasetOf(body: string): string {
  for (const line of body.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const rec = JSON.parse(line) as { dataset?: unknown };
      return typeof rec.dataset === "string" ? rec.dataset : "";
    } catch {
      return "";
    }
  }
  return "";
}
